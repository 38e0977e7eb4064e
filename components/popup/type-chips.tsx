import type { ByType, NotificationType } from '../../lib/api/contract';
import { t } from '../../lib/i18n';
import { TYPE_CHIPS } from './row-words';

interface Props {
  /** The types on show; null for all. */
  types: readonly NotificationType[] | null;
  byType: ByType | null;
  /** The whole unread count, for "All". */
  total: number | null;
  onChoose(types: NotificationType[] | null): void;
}

/** A row of toggle buttons above the list: all, or one type, each with its unread count. */
export function TypeChips({ types, byType, total, onChoose }: Props) {
  return (
    <fieldset class="chips">
      <legend class="sr-only">{t('popup_chips')}</legend>
      {TYPE_CHIPS.map(([type, key]) => {
        const count = type ? (byType?.[type] ?? null) : total;
        const label = t(key);
        return (
          <button
            key={key}
            type="button"
            class="chip"
            aria-pressed={type ? (types?.includes(type) ?? false) : types === null}
            onClick={() => onChoose(type && [type])}
          >
            {label}
            {count ? (
              <>
                {' '}
                <span class="chip-count">{count}</span>
                <span class="sr-only"> {t('popup_chip_unread')}</span>
              </>
            ) : null}
          </button>
        );
      })}
    </fieldset>
  );
}
