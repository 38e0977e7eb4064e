/**
 * The notifications the popup has loaded, as plain data: what a page, a triage action or a
 * rollback does to the list. Every function returns a new array and leaves its input alone.
 */
import type { Notification } from '../api/contract';
import type { CachedFirstPage } from '../inbox-cache';
import { serviceOrder } from '../inbox-order';
import { targeted } from '../triage-patch';

/** Changes a page from the service can no longer know about: items deleted or marked read meanwhile. */
export interface LocalChanges {
  deleted: ReadonlySet<string>;
  read: ReadonlySet<string>;
}

/**
 * A page as it should be shown: without items deleted here since it was requested, with items
 * marked read here shown read (or left out of an unread-only list), and without items already in
 * `shown` (a page requested before others arrived can overlap them).
 */
export function reconcilePage(
  page: readonly Notification[],
  changes: LocalChanges,
  unreadOnly: boolean,
  shown: readonly Notification[] = [],
): Notification[] {
  const present = new Set(shown.map((item) => item.id));
  const deleted = targeted(changes.deleted);
  const markedRead = targeted(changes.read);
  const result: Notification[] = [];
  for (const item of page) {
    if (present.has(item.id) || deleted(item.id)) continue;
    const read = item.read || markedRead(item.id);
    if (unreadOnly && read) continue;
    result.push(read === item.read ? item : { ...item, read });
    present.add(item.id);
  }
  return result;
}

/** What `paintCached` needs of the inbox's state cell (`inbox-state`). */
interface ListCell {
  get(): { unreadOnly: boolean };
  setItems(items: readonly Notification[], change: { cursor: string | null; cachedAt: number }): void;
  changes: LocalChanges;
}

/** Shows a cached first page in `cell` until the service's answer arrives. */
export function paintCached({ get, setItems, changes }: ListCell, cached: CachedFirstPage): void {
  setItems(reconcilePage(cached.page.data, changes, get().unreadOnly), {
    cursor: cached.page.cursor,
    cachedAt: cached.savedAt,
  });
}

/** Where the loaded part of the inbox ends: the last item the service has sent, and whether more follow. */
export interface LoadedRange {
  oldest: Notification | null;
  hasMore: boolean;
}

/** Whether an item belongs in the loaded part of the list, rather than on a page not loaded yet. */
export function inLoadedRange(item: Notification, range: LoadedRange): boolean {
  if (!range.hasMore) return true;
  return range.oldest !== null && serviceOrder(item, range.oldest) <= 0;
}

/**
 * Puts items back as they were before a failed change: replaced where they still are, inserted
 * in order where they were taken out. An item past the loaded range stays out, since loading
 * the next page brings it back in its place.
 */
export function restored(
  items: readonly Notification[],
  originals: readonly Notification[],
  range: LoadedRange,
  unreadOnly: boolean,
): Notification[] {
  const byId = new Map(originals.map((item) => [item.id, item]));
  const result = items.map((item) => byId.get(item.id) ?? item);
  const present = new Set(result.map((item) => item.id));
  for (const item of originals) {
    if (present.has(item.id) || (unreadOnly && item.read) || !inLoadedRange(item, range)) continue;
    result.push(item);
  }
  return result.sort(serviceOrder);
}

/**
 * Which item should hold focus once the list changes from `before` to `after`: the same item if it
 * stayed, else the nearest one after it that stayed, else the nearest one before it.
 */
export function survivingNeighbour(
  before: readonly Notification[],
  after: readonly Notification[],
  id: string | null,
): string | null {
  if (id === null) return null;
  const kept = new Set(after.map((item) => item.id));
  if (kept.has(id)) return id;
  const index = before.findIndex((item) => item.id === id);
  if (index === -1) return after[0]?.id ?? null;
  for (let i = index + 1; i < before.length; i++) {
    const next = before[i];
    if (next && kept.has(next.id)) return next.id;
  }
  for (let i = index - 1; i >= 0; i--) {
    const previous = before[i];
    if (previous && kept.has(previous.id)) return previous.id;
  }
  return after[0]?.id ?? null;
}
