import { t } from '../../lib/i18n';
import type { FollowState } from '../../lib/profile/follow';
import { byPerson } from '../../lib/profile/person-input';

interface Props {
  state: FollowState;
  onToggle(): void;
}

function label({ following, pending }: FollowState): string {
  if (pending === 'follow') return t('profile_follow_pending');
  if (pending === 'unfollow') return t('profile_unfollow_pending');
  return t(following ? 'profile_unfollow' : 'profile_follow');
}

/** One toggle; while its request is out it stays focusable but ignores clicks. */
export function FollowButton({ state, onToggle }: Props) {
  return (
    <button
      type="button"
      class={state.following ? 'button' : 'button primary'}
      aria-disabled={state.pending ? 'true' : undefined}
      aria-busy={state.pending ? 'true' : undefined}
      onClick={byPerson(onToggle)}
    >
      {label(state)}
    </button>
  );
}
