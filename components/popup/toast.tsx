import { t } from '../../lib/i18n';
import type { UndoOffer } from '../../lib/messaging';
import { doneWords } from '../../lib/popup/triage-words';

export interface ToastProps {
  offer: UndoOffer;
  /** The name of the account an action on a whole inbox took, when the person has several. */
  account: string | null;
  undoing: boolean;
  onUndo(): void;
}

/** What the last action did, in words, with its Undo button (see `UndoToast`). */
export function Toast({ offer, account, undoing, onUndo }: ToastProps) {
  return (
    <div class="toast">
      <span>{doneWords(offer, Date.now(), offer.all ? account : null)}</span>
      <button type="button" class="link" disabled={undoing} aria-keyshortcuts="z Control+Z" onClick={onUndo}>
        {t('popup_undo')}
      </button>
    </div>
  );
}
