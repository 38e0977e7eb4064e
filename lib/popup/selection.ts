/**
 * Which loaded notifications are selected for a bulk action, and the anchor a shift-click
 * extends a range from. Plain data: every function returns a new selection.
 */
import type { Notification } from '../api/contract';

export interface Selection {
  ids: ReadonlySet<string>;
  /** The item last selected or cleared on its own; a range reaches from here. */
  anchor: string | null;
}

export const NO_SELECTION: Selection = Object.freeze({ ids: new Set<string>(), anchor: null });

export function toggled(selection: Selection, id: string): Selection {
  const ids = new Set(selection.ids);
  if (!ids.delete(id)) ids.add(id);
  return { ids, anchor: id };
}

/** Sets `id` and every item between it and the anchor to the state `id` takes, as a shift-click does. */
export function extendedTo(selection: Selection, items: readonly Notification[], id: string): Selection {
  const to = items.findIndex((item) => item.id === id);
  const from = items.findIndex((item) => item.id === selection.anchor);
  if (from === -1 || to === -1) return toggled(selection, id);
  const select = !selection.ids.has(id);
  const ids = new Set(selection.ids);
  for (const item of items.slice(Math.min(from, to), Math.max(from, to) + 1)) {
    if (select) ids.add(item.id);
    else ids.delete(item.id);
  }
  return { ids, anchor: id };
}

/** Adds `id` to the selection, as moving with Shift does. */
export function including(selection: Selection, id: string): Selection {
  if (selection.ids.has(id)) return { ...selection, anchor: id };
  return { ids: new Set(selection.ids).add(id), anchor: id };
}

export function everything(items: readonly Notification[]): Selection {
  return { ids: new Set(items.map((item) => item.id)), anchor: null };
}

/** The selection without items that left the list; the same object when nothing left. */
export function pruned(selection: Selection, items: readonly Notification[]): Selection {
  if (selection.ids.size === 0) return selection;
  const present = new Set(items.map((item) => item.id));
  const ids = new Set([...selection.ids].filter((id) => present.has(id)));
  const anchor = selection.anchor !== null && present.has(selection.anchor) ? selection.anchor : null;
  return ids.size === selection.ids.size && anchor === selection.anchor ? selection : { ids, anchor };
}

/** The selected items, in list order. */
export function selectedItems(selection: Selection, items: readonly Notification[]): Notification[] {
  return items.filter((item) => selection.ids.has(item.id));
}
