import { Component, createRef, render } from 'preact';
import { t } from '../../lib/i18n';
import type { ClickGuard } from '../../lib/profile/click-guard';
import { trapTab } from '../../lib/profile/focus-trap';
import { guarded } from '../../lib/profile/person-input';
import type { ProfileSession } from '../../lib/profile/profile-state';
import { COMMENT_MAX, type ReportForm } from '../../lib/profile/report';
import { REASON_LABELS, REPORT_REASONS } from '../../lib/profile/report-reasons';

export interface ReportDialogProps {
  username: string;
  form: ReportForm;
  session: ProfileSession;
  /** Which clicks on Send act: the buttons' own guard, since a forged report does the most harm. */
  guard: ClickGuard;
  /** Puts focus back where the dialog was opened from. */
  returnFocus(): void;
}

/**
 * A modal dialog: the rest of the page is inert while it is open, Escape and Cancel close it,
 * Tab stays inside, and focus goes back to the Report button when it closes.
 */
export class ReportDialog extends Component<ReportDialogProps> {
  private dialog = createRef<HTMLDialogElement>();

  override componentDidMount() {
    this.showModal();
    this.focusFirst();
  }

  override componentDidUpdate(previous: ReportDialogProps) {
    this.showModal();
    const { form } = this.props;
    if (form.received && !previous.form.received) this.find<HTMLElement>('[data-close]')?.focus();
    else if (form.problem && !form.reason && !previous.form.problem) this.focusFirst();
  }

  override componentWillUnmount() {
    const dialog = this.dialog.current;
    if (dialog?.open) dialog.close();
    this.props.returnFocus();
  }

  private find<T extends Element>(selector: string): T | null {
    return this.dialog.current?.querySelector<T>(selector) ?? null;
  }

  /** Opens the dialog as modal, again if the page took the buttons off and put them back. */
  private showModal() {
    const dialog = this.dialog.current;
    if (!dialog?.isConnected || (dialog.open && isModal(dialog))) return;
    if (dialog.open) dialog.close();
    dialog.showModal();
  }

  private focusFirst() {
    this.find<HTMLElement>('input, [data-close]')?.focus();
  }

  private close = () => {
    if (!this.props.form.sending) this.props.session.closeReport();
  };

  private onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      this.close();
    } else if (this.dialog.current) {
      trapTab(event, this.dialog.current);
    }
  };

  private onCancel = (event: Event) => {
    event.preventDefault();
    this.close();
  };

  /** Submitting sends nothing by itself: a script can submit (see `byPerson`). */
  private onSubmit = (event: Event) => {
    event.preventDefault();
  };

  private send = guarded(this.props.guard, () => {
    void this.props.session.sendReport();
  });

  override render({ username, form, session }: ReportDialogProps) {
    const busy = form.sending ? 'true' : undefined;
    return (
      <dialog
        ref={this.dialog}
        class="dialog"
        aria-labelledby="report-title"
        onKeyDown={this.onKeyDown}
        onCancel={this.onCancel}
      >
        <h2 id="report-title">{t('profile_report_title', username)}</h2>
        {form.received ? (
          <>
            <p role="status">{t('profile_report_received')}</p>
            <div class="actions">
              <button type="button" class="button primary" data-close onClick={this.close}>
                {t('profile_report_close')}
              </button>
            </div>
          </>
        ) : (
          <form onSubmit={this.onSubmit} noValidate>
            <fieldset aria-describedby={form.problem ? 'report-problem' : undefined}>
              <legend>{t('profile_report_reason')}</legend>
              {REPORT_REASONS.map((reason) => (
                <label key={reason} class="choice">
                  <input
                    type="radio"
                    name="reason"
                    value={reason}
                    checked={form.reason === reason}
                    disabled={form.sending}
                    onChange={() => session.editReport({ reason })}
                  />
                  {t(REASON_LABELS[reason])}
                </label>
              ))}
            </fieldset>
            <label for="report-comment">{t('profile_report_comment')}</label>
            <textarea
              id="report-comment"
              rows={4}
              maxLength={COMMENT_MAX}
              value={form.comment}
              readOnly={form.sending}
              aria-describedby="report-count"
              onInput={(event) => {
                if (event.isTrusted) session.editReport({ comment: event.currentTarget.value });
                else event.currentTarget.value = form.comment;
              }}
            />
            <p id="report-count" class="muted">
              {t('profile_report_count', form.comment.length, COMMENT_MAX)}
            </p>
            {form.problem && (
              <p id="report-problem" class="problem" role="alert">
                {form.problem}
              </p>
            )}
            <div class="actions">
              <button type="button" class="button" aria-disabled={busy} onClick={this.close}>
                {t('profile_report_cancel')}
              </button>
              <button type="submit" class="button primary" aria-disabled={busy} aria-busy={busy} onClick={this.send}>
                {t(form.sending ? 'profile_report_sending' : 'profile_report_send')}
              </button>
            </div>
          </form>
        )}
      </dialog>
    );
  }
}

/** Draws the dialog into `host` with these props, or takes it away (`null`). */
export function showReportDialog(host: Element, props: ReportDialogProps | null) {
  render(props && <ReportDialog {...props} />, host);
}

function isModal(dialog: HTMLDialogElement): boolean {
  try {
    return dialog.matches(':modal');
  } catch {
    return true;
  }
}
