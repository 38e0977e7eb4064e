import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { t, tn } from '../../lib/i18n';

export type DeleteRequest = { kind: 'some'; ids: string[] } | { kind: 'all'; knownTotal: number | null };

interface Props {
  request: DeleteRequest;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * Deleting cannot be undone, so it is confirmed with the number that will go. Deleting the whole
 * inbox also needs a box ticked first, and starts on Cancel rather than on Delete.
 */
export function ConfirmDelete({ request, onConfirm, onCancel }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const [understood, setUnderstood] = useState(false);
  const all = request.kind === 'all';

  useLayoutEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    (all ? cancel : confirm).current?.focus();
  }, [all]);

  const title = all ? t('popup_confirm_delete_all') : tn('popup_confirm_delete', request.ids.length);
  let body = t('popup_confirm_delete_body');
  if (request.kind === 'all') {
    body =
      request.knownTotal === null
        ? t('popup_confirm_delete_all_unknown')
        : tn('popup_confirm_delete_all_known', request.knownTotal);
  }

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
      {all && (
        <label class="understood">
          <input
            type="checkbox"
            checked={understood}
            onChange={(event) => setUnderstood(event.currentTarget.checked)}
          />
          {t('popup_confirm_delete_all_check')}
        </label>
      )}
      <div class="dialog-buttons">
        <button type="button" ref={cancel} onClick={onCancel}>
          {t('popup_cancel')}
        </button>
        <button type="button" ref={confirm} class="danger solid" disabled={all && !understood} onClick={onConfirm}>
          {all ? t('popup_confirm_delete_all_button') : t('popup_delete')}
        </button>
      </div>
    </dialog>
  );
}
