import { t, tn } from '../../lib/i18n';

interface Props {
  loaded: number;
  selected: number;
  /** Whether "mark all read" and "delete all" have anything to act on now. */
  canMarkAll: boolean;
  canDeleteAll: boolean;
  /** One account's whole inbox is on show, so "mark all read" and "delete all" have one to act on. */
  wholeInbox: boolean;
  onSelectAll(select: boolean): void;
  onMarkSelected(): void;
  onMarkSelectedUnread(): void;
  onDeleteSelected(): void;
  /** Opens the snooze menu beside `anchor` for the selection. */
  onSnoozeSelected(anchor: HTMLElement): void;
  onMarkAll(): void;
  onDeleteAll(): void;
}

/** The box that selects every loaded item, or none; half-ticked while some are selected. */
export function SelectAllBox({ loaded, selected, onSelectAll }: Pick<Props, 'loaded' | 'selected' | 'onSelectAll'>) {
  const all = loaded > 0 && selected === loaded;
  return (
    <label class="select-all">
      <input
        type="checkbox"
        checked={all}
        indeterminate={selected > 0 && !all}
        disabled={loaded === 0}
        onChange={(event) => onSelectAll(event.currentTarget.checked)}
      />
      {t('popup_select_all')}
    </label>
  );
}

/** Bulk actions: on the selection when there is one, else on the whole inbox. */
export function InboxToolbar(props: Props) {
  const { selected } = props;
  return (
    <fieldset class="toolbar">
      <legend class="sr-only">{t('popup_toolbar')}</legend>
      <SelectAllBox loaded={props.loaded} selected={selected} onSelectAll={props.onSelectAll} />
      {selected > 0 ? (
        <>
          <span class="selected-count">{tn('popup_selected_count', selected)}</span>
          <button type="button" key="mark-selected" onClick={props.onMarkSelected}>
            {t('popup_mark_selected_read')}
          </button>
          <button type="button" key="mark-selected-unread" onClick={props.onMarkSelectedUnread}>
            {t('popup_mark_selected_unread')}
          </button>
          <button
            type="button"
            key="snooze-selected"
            aria-haspopup="menu"
            onClick={(event) => props.onSnoozeSelected(event.currentTarget)}
          >
            {t('popup_snooze_selected')}
          </button>
          <button type="button" key="delete-selected" class="danger" onClick={props.onDeleteSelected}>
            {t('popup_delete_selected')}
          </button>
        </>
      ) : !props.wholeInbox ? null : (
        <>
          <button type="button" key="mark-all" disabled={!props.canMarkAll} onClick={props.onMarkAll}>
            {t('popup_mark_all_read')}
          </button>
          <button
            type="button"
            key="delete-all"
            class="danger"
            disabled={!props.canDeleteAll}
            onClick={props.onDeleteAll}
          >
            {t('popup_delete_all')}
          </button>
        </>
      )}
    </fieldset>
  );
}
