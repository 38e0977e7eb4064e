import { t } from '../../lib/i18n';
import type { UndoOffer } from '../../lib/messaging';
import { doneWords } from '../../lib/popup/triage-words';
import type { ToastProps } from './undo-toast';

/** What the last action did, in words, with its Undo button (see `UndoToast`). */
export function Toast({ offer, account, undoing, onUndo }: ToastProps & { offer: UndoOffer }) {
  return (
    <div class="toast">
      <span>{doneWords(offer, Date.now(), offer.all ? account : null)}</span>
      <button type="button" class="link" disabled={undoing} aria-keyshortcuts="z Control+Z" onClick={onUndo}>
        {t('popup_undo')}
      </button>
    </div>
  );
}
