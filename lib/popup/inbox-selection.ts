/**
 * The popup inbox's active item and selection as the person moves and picks: arrow keys, clicks,
 * shift-clicks and "select all". Moving past the last loaded item asks for the next page.
 */
import { rowKeys, withGroupMembers } from './inbox-groups';
import type { InboxState, StateCell } from './inbox-state';
import { everything, extendedTo, including, NO_SELECTION, selectedItems, toggled } from './selection';

export interface SelectionActions {
  setActive(id: string | null): void;
  /** Moves the active item by `step`, or to the first or last; with `extend`, selects along the way. */
  move(step: number | 'first' | 'last', extend?: boolean): void;
  toggle(id: string): void;
  extendTo(id: string): void;
  selectAll(select: boolean): void;
}

export function createSelectionActions({ get, set }: StateCell, loadMore: () => Promise<void>): SelectionActions {
  return {
    setActive(id) {
      if (id !== get().activeId) set({ activeId: id });
    },
    move(step, extend = false) {
      const { activeId } = get();
      // A group is one row: moving steps over its members.
      const rows = rowKeys(get().items, get().grouping);
      if (rows.length === 0) return;
      const at = rows.indexOf(activeId ?? '');
      let index: number;
      if (step === 'first') index = 0;
      else if (step === 'last') index = rows.length - 1;
      else index = at === -1 ? 0 : Math.min(rows.length - 1, Math.max(0, at + step));
      const target = rows[index];
      if (target === undefined) return;
      let selection = get().selection;
      if (extend) {
        const current = rows[at];
        if (current !== undefined) selection = including(selection, current);
        selection = including(selection, target);
      }
      set({ activeId: target, selection });
      if (index >= rows.length - 1 && (step === 'last' || (typeof step === 'number' && step > 0))) void loadMore();
    },
    toggle(id) {
      set({ selection: toggled(get().selection, id), activeId: id });
    },
    extendTo(id) {
      set({ selection: extendedTo(get().selection, get().items, id), activeId: id });
    },
    selectAll(select) {
      set({ selection: select ? everything(get().items) : NO_SELECTION });
    },
  };
}

/**
 * The ids a command acts on: the selection when there is one, else the active item; a group's
 * row stands for all its members.
 */
export function commandTargets(state: InboxState): string[] {
  const ids =
    state.selection.ids.size > 0
      ? selectedItems(state.selection, state.items).map((item) => item.id)
      : state.activeId !== null && state.items.some((item) => item.id === state.activeId)
        ? [state.activeId]
        : [];
  return withGroupMembers(ids, state.items, state.grouping);
}
