import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { t, tn } from '../../lib/i18n';

/** Deleting the whole inbox: the total when all of it is loaded, else null. */
export interface DeleteRequest {
  knownTotal: number | null;
  /** The account whose inbox it is, named when the person has several. */
  account: string | null;
}

interface Props {
  request: DeleteRequest;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * Deleting the whole inbox is the one action that can remove hundreds at once, so it alone is
 * confirmed, with the number that will go: a box ticked first, and focus starting on Cancel.
 * It can still be undone for a minute, as every other action can.
 */
export function ConfirmDelete({ request, onConfirm, onCancel }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [understood, setUnderstood] = useState(false);

  useLayoutEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    cancel.current?.focus();
  }, []);

  const title = request.account ? t('popup_confirm_delete_all_of', request.account) : t('popup_confirm_delete_all');
  const body =
    request.knownTotal === null
      ? t('popup_confirm_delete_all_unknown')
      : tn('popup_confirm_delete_all_known', request.knownTotal);

  return (
    <dialog
      ref={dialog}
      class="confirm"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-body"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id="confirm-title">{title}</h2>
      <p id="confirm-body">{body}</p>
      <label class="understood">
        <input type="checkbox" checked={understood} onChange={(event) => setUnderstood(event.currentTarget.checked)} />
        {t('popup_confirm_delete_all_check')}
      </label>
      <div class="dialog-buttons">
        <button type="button" ref={cancel} onClick={onCancel}>
          {t('popup_cancel')}
        </button>
        <button type="button" class="danger solid" disabled={!understood} onClick={onConfirm}>
          {t('popup_confirm_delete_all_button')}
        </button>
      </div>
    </dialog>
  );
}
