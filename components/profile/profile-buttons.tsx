import { Component, createRef } from 'preact';
import { t } from '../../lib/i18n';
import type { ProfileAccount } from '../../lib/messaging';
import { byPerson } from '../../lib/profile/person-input';
import type { ProfileSession } from '../../lib/profile/profile-state';
import { FollowButton } from './follow-button';

type ReportDialog = typeof import('./report-dialog').ReportDialog;

let reportDialog: Promise<ReportDialog> | null = null;

/**
 * The report dialog, loaded when the person first opens it: most visits to a profile never
 * report, and the buttons show sooner without it. A load that fails (the extension was just
 * updated) is tried again on the next click.
 */
function loadReportDialog(): Promise<ReportDialog> {
  reportDialog ??= import('./report-dialog').then(
    (module) => module.ReportDialog,
    (error: unknown) => {
      reportDialog = null;
      throw error;
    },
  );
  return reportDialog;
}

interface Props {
  session: ProfileSession;
  /** The accounts signed in on this site; with more than one, a choice of whom to act as. */
  accounts?: readonly ProfileAccount[];
  account?: string;
  onAccount?(account: string): void;
}

/** "as @name": which of the person's accounts on this site the buttons act as. */
function AccountChoice({ accounts, account, onAccount }: Required<Pick<Props, 'accounts' | 'account' | 'onAccount'>>) {
  return (
    <label class="as">
      {t('profile_act_as')}{' '}
      <select
        value={account}
        // Choosing only changes whose view shows; every action still needs the person's own click.
        onChange={(event) => onAccount(event.currentTarget.value)}
      >
        {accounts.map((each) => (
          <option key={each.id} value={each.id}>
            {each.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The buttons for one profile, drawn from the session's state. */
export class ProfileButtons extends Component<Props, { ReportDialog?: ReportDialog }> {
  private reportButton = createRef<HTMLButtonElement>();

  private returnFocus = () => this.reportButton.current?.focus();

  /** Opens the report once its dialog has loaded; clicks while it loads still open one form. */
  private openReport = byPerson(() => {
    const { session } = this.props;
    loadReportDialog().then(
      (ReportDialog) => {
        if (this.state.ReportDialog !== ReportDialog) this.setState({ ReportDialog });
        session.openReport();
      },
      () => {
        // Nothing to open; the next click tries again.
      },
    );
  });

  override render(
    { session, accounts = [], account = session.account, onAccount }: Props,
    { ReportDialog }: { ReportDialog?: ReportDialog },
  ) {
    const { view, username } = session;
    const choice = accounts.length > 1 && onAccount && view.kind !== 'signedOut';
    // Loading after the person chose another account: the choice stays, the buttons follow.
    if (view.kind === 'none' || (view.kind === 'loading' && !choice)) return null;
    return (
      <fieldset
        class="bar"
        aria-label={t('profile_group_label')}
        aria-busy={view.kind === 'loading' ? 'true' : undefined}
      >
        {choice && <AccountChoice accounts={accounts} account={account} onAccount={onAccount} />}
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
              onClick={this.openReport}
            >
              {t('profile_report')}
            </button>
            <p class={view.follow.problem ? 'message problem' : 'visually-hidden'} role="status">
              {view.follow.problem ?? view.notice}
            </p>
            {view.report && ReportDialog && (
              <ReportDialog username={username} form={view.report} session={session} returnFocus={this.returnFocus} />
            )}
          </>
        )}
      </fieldset>
    );
  }
}
