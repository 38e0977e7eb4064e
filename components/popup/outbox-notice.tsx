import { type MessageKey, t, tn } from '../../lib/i18n';
import { ALL_ACCOUNTS, ask, type OutboxDropped, type OutboxState } from '../../lib/messaging';

interface Props {
  outbox: OutboxState;
  /** The account on show: the lines dismissed are its own (every account's for all). */
  account: string;
}

/** One calm line for a change that will not be sent: what it was, and why. */
function droppedWords({ kind, why, count, username }: OutboxDropped): string {
  if (why === 'overflow') return tn('popup_outbox_overflow', count);
  const what = t(`popup_outbox_what_${kind}` as MessageKey, username ?? '');
  return t('popup_outbox_dropped', what, t(`popup_outbox_why_${why}` as MessageKey));
}

/**
 * Changes made while the service could not be reached: how many wait to be sent, never shown as
 * failed, and a line for each the service later refused or that waited too long. Dismissed, the
 * lines are forgotten in the background, whose broadcast brings the popup the outbox without them.
 */
export function OutboxNotice({ outbox, account }: Props) {
  if (outbox.count === 0 && outbox.dropped.length === 0) return null;
  const onDismiss = () => void ask('outbox.dismiss', { account: account || ALL_ACCOUNTS }).catch(() => undefined);
  return (
    <div class="outbox" role="status">
      {outbox.count > 0 && <p>{tn('popup_outbox_waiting', outbox.count)}</p>}
      {outbox.dropped.length > 0 && (
        <p>
          <span>
            {outbox.dropped.map((line) => (
              <span key={`${line.account} ${line.at} ${line.kind}`}>{droppedWords(line)} </span>
            ))}
          </span>
          <button type="button" class="link" onClick={onDismiss}>
            {t('popup_dismiss')}
          </button>
        </p>
      )}
    </div>
  );
}
