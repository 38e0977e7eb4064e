import { t } from '../../lib/i18n';
import type { Message } from '../../lib/popup/inbox-state';

interface Props {
  failure: Message | null;
  onDismiss(): void;
}

/** Why the last action failed, until dismissed; the region is always there, so it is read out. */
export function FailureNotice({ failure, onDismiss }: Props) {
  return (
    <div class="failure" role="alert">
      {failure && (
        <p key={failure.id}>
          <span>{failure.text}</span>
          <button type="button" class="link" onClick={onDismiss}>
            {t('popup_dismiss')}
          </button>
        </p>
      )}
    </div>
  );
}
