import { t } from '../../lib/i18n';
import type { UndoOffer } from '../../lib/messaging';
import type { MuteOffer } from '../../lib/popup/inbox-state';
import { lazyComponent } from './lazy-component';
import type { ToastProps } from './toast';

// A toast follows an action, whose code loads after the first row too: its words load with it.
const Toast = lazyComponent(() => import('./toast').then((module) => module.Toast));

/**
 * What the last action did, with Undo. The region is always there and polite, so a screen reader
 * hears each new toast without focus moving; it sits outside the list, so the list can change
 * under it.
 */
export function UndoToast({
  offer,
  account,
  undoing,
  onUndo,
  muted = null,
}: Omit<ToastProps, 'offer'> & { offer: UndoOffer | null; muted?: MuteOffer | null }) {
  return (
    <div class="toast-region" role="status" aria-live="polite">
      {muted ? (
        <div class="toast" key={muted.id}>
          <span>{muted.text}</span>
          <button type="button" class="link" disabled={undoing} aria-keyshortcuts="z Control+Z" onClick={onUndo}>
            {t('popup_undo')}
          </button>
        </div>
      ) : (
        offer && <Toast key={offer.expiresAt} offer={offer} account={account} undoing={undoing} onUndo={onUndo} />
      )}
    </div>
  );
}
