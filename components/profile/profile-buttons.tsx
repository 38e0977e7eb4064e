import { Component, createRef } from 'preact';
import { t } from '../../lib/i18n';
import { byPerson } from '../../lib/profile/person-input';
import type { ProfileSession } from '../../lib/profile/profile-state';
import { FollowButton } from './follow-button';
import { ReportDialog } from './report-dialog';

interface Props {
  session: ProfileSession;
}

/** The buttons for one profile, drawn from the session's state. */
export class ProfileButtons extends Component<Props> {
  private reportButton = createRef<HTMLButtonElement>();

  private returnFocus = () => this.reportButton.current?.focus();

  override render({ session }: Props) {
    const { view, username } = session;
    if (view.kind === 'loading' || view.kind === 'none') return null;
    return (
      <fieldset class="bar" aria-label={t('profile_group_label')}>
        {view.kind === 'signedOut' && (
          <>
            <p class="message">{t(view.expired ? 'profile_signed_out_expired' : 'profile_signed_out')}</p>
            <button type="button" class="button" onClick={byPerson(() => session.openOptions())}>
              {t('profile_open_options')}
            </button>
          </>
        )}
        {view.kind === 'failed' && (
          <>
            <p class="message problem" role="alert">
              {view.problem}
            </p>
            <button
              type="button"
              class="button"
              aria-disabled={view.retrying ? 'true' : undefined}
              aria-busy={view.retrying ? 'true' : undefined}
              onClick={byPerson(() => !view.retrying && session.load())}
            >
              {t('profile_retry')}
            </button>
          </>
        )}
        {view.kind === 'ready' && (
          <>
            <FollowButton state={view.follow} onToggle={() => session.toggleFollow()} />
            <button
              ref={this.reportButton}
              type="button"
              class="button"
              aria-haspopup="dialog"
              onClick={byPerson(() => session.openReport())}
            >
              {t('profile_report')}
            </button>
            <p class={view.follow.problem ? 'message problem' : 'visually-hidden'} role="status">
              {view.follow.problem ?? view.notice}
            </p>
            {view.report && (
              <ReportDialog username={username} form={view.report} session={session} returnFocus={this.returnFocus} />
            )}
          </>
        )}
      </fieldset>
    );
  }
}
