import { t } from '../../lib/i18n';
import type { UndoOffer } from '../../lib/messaging';
import { doneWords } from '../../lib/popup/triage-words';

interface Props {
  offer: UndoOffer | null;
  /** The name of the account an action on a whole inbox took, when the person has several. */
  account: string | null;
  undoing: boolean;
  onUndo(): void;
}

/**
 * What the last action did, with Undo. The region is always there and polite, so a screen reader
 * hears each new toast without focus moving; it sits outside the list, so the list can change
 * under it.
 */
export function UndoToast({ offer, account, undoing, onUndo }: Props) {
  return (
    <div class="toast-region" role="status" aria-live="polite">
      {offer && (
        <div class="toast" key={offer.expiresAt}>
          <span>{doneWords(offer, Date.now(), offer.all ? account : null)}</span>
          <button type="button" class="link" disabled={undoing} aria-keyshortcuts="z Control+Z" onClick={onUndo}>
            {t('popup_undo')}
          </button>
        </div>
      )}
    </div>
  );
}
