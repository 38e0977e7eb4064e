import { type MessageKey, t } from '../../lib/i18n';
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

/** Every label the toggle can show: it is as wide as the widest, whichever it shows. */
const LABELS: MessageKey[] = [
  'profile_follow',
  'profile_unfollow',
  'profile_follow_pending',
  'profile_unfollow_pending',
];

/**
 * One toggle; while its request is out it stays focusable but ignores clicks. Its size never
 * changes with its state, so the frame's size, which the page can read, never tells whom the
 * person follows.
 */
export function FollowButton({ state, onToggle }: Props) {
  return (
    <button
      type="button"
      class={state.following ? 'button' : 'button primary'}
      aria-disabled={state.pending ? 'true' : undefined}
      aria-busy={state.pending ? 'true' : undefined}
      onClick={byPerson(onToggle)}
    >
      <span class="label">
        <span>{label(state)}</span>
        {LABELS.map((key) => (
          <span key={key} class="sizer" aria-hidden="true">
            {t(key)}
          </span>
        ))}
      </span>
    </button>
  );
}
