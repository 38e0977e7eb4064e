import { t, tn } from '../../lib/i18n';
import { IconButton } from './icon';

interface Props {
  unreadCount: number | null;
  unreadOnly: boolean;
  /** The unread-only switch applies only when there is an inbox to filter. */
  canFilter: boolean;
  onUnreadOnly(unreadOnly: boolean): void;
  onSettings(): void;
}

/** The title row: the inbox, its unread count, the unread-only switch and the way to the settings. */
export function PopupHeader({ unreadCount, unreadOnly, canFilter, onUnreadOnly, onSettings }: Props) {
  return (
    <div class="header">
      <h1 tabIndex={-1} data-focus-fallback>
        {t('popup_title')}
      </h1>
      {unreadCount !== null && <span class="count">{tn('popup_unread_count', unreadCount)}</span>}
      <div class="header-actions">
        <label class="switch">
          <input
            type="checkbox"
            role="switch"
            aria-checked={unreadOnly}
            checked={unreadOnly}
            disabled={!canFilter}
            onChange={(event) => onUnreadOnly(event.currentTarget.checked)}
          />
          {t('popup_unread_only')}
        </label>
        <IconButton icon="gear" label={t('popup_settings')} onClick={onSettings} />
      </div>
    </div>
  );
}
