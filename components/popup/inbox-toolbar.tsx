import type { ComponentChildren } from 'preact';
import { t, tn } from '../../lib/i18n';
import { Icon, IconButton } from './icon';

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
  /** The type chips, in the same row while nothing is selected. */
  chips?: ComponentChildren;
}

/** The box that selects every loaded item, or none; half-ticked while some are selected. */
export function SelectAllBox({
  loaded,
  selected,
  onSelectAll,
  quiet = false,
}: Pick<Props, 'loaded' | 'selected' | 'onSelectAll'> & {
  /** Its words only for screen readers: the count of the selection stands beside it. */
  quiet?: boolean;
}) {
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
      <span class={quiet ? 'sr-only' : undefined}>{t('popup_select_all')}</span>
    </label>
  );
}

const MORE_PANEL_ID = 'toolbar-more';

/** Puts the opening panel under the button that opened it, its right edge on the button's. */
function placeUnderOpener(event: ToggleEvent & { currentTarget: HTMLElement }) {
  if (event.newState !== 'open') return;
  const panel = event.currentTarget;
  const box = panel.previousElementSibling?.getBoundingClientRect();
  if (!box) return;
  panel.style.top = `${box.bottom + 4}px`;
  panel.style.right = `${Math.max(4, innerWidth - box.right)}px`;
}

/**
 * "Mark all read" and "Delete all", as buttons or in the More menu; a choice closes the menu.
 * Each has its icon and its words: the compact list shows the icon, with the words for screen
 * readers and as a tooltip.
 */
function WholeInboxActions({ canMarkAll, canDeleteAll, onMarkAll, onDeleteAll }: Props) {
  const act = (action: () => void) => (event: MouseEvent & { currentTarget: HTMLButtonElement }) => {
    event.currentTarget.closest<HTMLElement>('[popover]')?.hidePopover?.();
    action();
  };
  const markAll = t('popup_mark_all_read');
  const deleteAll = t('popup_delete_all');
  return (
    <>
      <button
        type="button"
        key="mark-all"
        class="whole"
        title={markAll}
        disabled={!canMarkAll}
        onClick={act(onMarkAll)}
      >
        <Icon name="check-all" />
        <span>{markAll}</span>
      </button>
      <button
        type="button"
        key="delete-all"
        class="whole danger"
        title={deleteAll}
        disabled={!canDeleteAll}
        onClick={act(onDeleteAll)}
      >
        <Icon name="trash" />
        <span>{deleteAll}</span>
      </button>
    </>
  );
}

/**
 * The head of the list, on one row as tall as a notification's: the box that selects every row,
 * then the actions on the selection when there is one (its count and an icon for each action, the
 * whole inbox's actions in the More menu), else the type chips and the whole inbox's actions.
 */
export function InboxToolbar(props: Props) {
  const { selected } = props;
  return (
    <fieldset
      class={selected > 0 ? 'toolbar selecting' : 'toolbar'}
      onKeyDown={(event) => {
        // Escape closes the open menu alone; the selection stays. The menu's own state, not its
        // toggle event, which comes a task after it opens: an Escape pressed at once must see it open.
        if (event.key === 'Escape' && event.currentTarget.querySelector('.more-panel:popover-open')) {
          event.stopPropagation();
        }
      }}
    >
      <legend class="sr-only">{t('popup_toolbar')}</legend>
      <SelectAllBox loaded={props.loaded} selected={selected} onSelectAll={props.onSelectAll} quiet={selected > 0} />
      {selected > 0 && (
        <>
          <span class="selected-count">{tn('popup_selected_count', selected)}</span>
          <IconButton
            key="mark-selected"
            icon="check"
            label={t('popup_mark_selected_read')}
            onClick={props.onMarkSelected}
          />
          <IconButton
            key="mark-selected-unread"
            icon="unread"
            label={t('popup_mark_selected_unread')}
            onClick={props.onMarkSelectedUnread}
          />
          <IconButton
            key="snooze-selected"
            icon="snooze"
            label={t('popup_snooze_selected')}
            popup="menu"
            onClick={(event) => props.onSnoozeSelected(event.currentTarget)}
          />
          <IconButton
            key="delete-selected"
            icon="trash"
            danger
            label={t('popup_delete_selected')}
            onClick={props.onDeleteSelected}
          />
        </>
      )}
      {props.chips}
      {selected > 0
        ? props.wholeInbox && (
            <>
              <button
                type="button"
                key="more"
                class="icon"
                aria-label={t('popup_more_actions')}
                title={t('popup_more_actions')}
                popovertarget={MORE_PANEL_ID}
              >
                <Icon name="more" />
              </button>
              <div
                key="more-panel"
                id={MORE_PANEL_ID}
                class="more-panel"
                popover="auto"
                onBeforeToggle={placeUnderOpener}
              >
                <WholeInboxActions {...props} />
              </div>
            </>
          )
        : props.wholeInbox && <WholeInboxActions {...props} />}
    </fieldset>
  );
}
