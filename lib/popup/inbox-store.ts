/**
 * The popup's inbox: the loaded notifications, paging, selection and triage, with every change
 * shown at once and rolled back if the background reports a failure. It talks to the background
 * only through `ask` and reads the cached first page and settings from storage, so it paints
 * before any network answer. The UI renders its state and calls its actions; nothing here
 * touches the DOM.
 */
import { browser } from 'wxt/browser';
import type { Notification, Page } from '../api/contract';
import { type ApiError, reviveError } from '../api/errors';
import { SIGNED_OUT, statusItem } from '../connection-status';
import { t, tn } from '../i18n';
import { type CachedFirstPage, readCachedFirstPage } from '../inbox-cache';
import { openableUrl } from '../links';
import { ask, type ConnectionStatus } from '../messaging';
import { getSettings, updateSettings } from '../settings';
import { markedRead, withoutIds } from '../triage-patch';
import { type LoadedRange, type LocalChanges, reconcilePage, restored, survivingNeighbour } from './inbox-list';
import { failureReason, needsSettings } from './problem';
import {
  everything,
  extendedTo,
  including,
  NO_SELECTION,
  pruned,
  type Selection,
  selectedItems,
  toggled,
} from './selection';

/** A sentence for the live region; `id` changes even when the words repeat, so it is read again. */
export interface Message {
  text: string;
  id: number;
}

export interface InboxState {
  /** Settings, status and cache have been read; before that there is nothing to show. */
  started: boolean;
  unreadOnly: boolean;
  items: readonly Notification[];
  /** The service's cursor for the next page; null when no further page exists. */
  cursor: string | null;
  /** The service has answered the first page in this popup; until then `items` is the cached copy. */
  fresh: boolean;
  /** When the cached first page on show was saved, while it is not yet confirmed. */
  cachedAt: number | null;
  loading: 'first' | 'more' | null;
  /** The last page load's failure, until a load succeeds. */
  error: ApiError | null;
  /** Which load failed: the first page (the list may be the cached copy) or the next one. */
  errorOn: 'first' | 'more' | null;
  status: ConnectionStatus;
  /** A page arrived since the status last reported a problem only the settings page can solve. */
  verified: boolean;
  online: boolean;
  selection: Selection;
  /** The item keyboard commands act on and focus returns to. */
  activeId: string | null;
  /** A change to "mark all read" or "delete all" is on its way. */
  bulkPending: boolean;
  announcement: Message | null;
  /** Why the last action failed, until dismissed or another action succeeds. */
  failure: Message | null;
}

export interface InboxStore {
  getState(): InboxState;
  subscribe(listener: (state: InboxState) => void): () => void;
  /** Paints the cached first page, then revalidates it; returns a function that stops watching. */
  start(): Promise<() => void>;
  setOnline(online: boolean): void;
  setUnreadOnly(unreadOnly: boolean): Promise<void>;
  /** Loads again what failed: the first page, or the next one. */
  retry(): Promise<void>;
  loadMore(): Promise<void>;
  setActive(id: string | null): void;
  /** Moves the active item by `step`, or to the first or last; with `extend`, selects along the way. */
  move(step: number | 'first' | 'last', extend?: boolean): void;
  toggle(id: string): void;
  extendTo(id: string): void;
  selectAll(select: boolean): void;
  markRead(ids: readonly string[]): Promise<void>;
  remove(ids: readonly string[]): Promise<void>;
  markAllRead(): Promise<void>;
  removeAll(): Promise<void>;
  open(id: string, options?: { background?: boolean }): Promise<void>;
  dismissFailure(): void;
}

export function createInboxStore(): InboxStore {
  let state: InboxState = {
    started: false,
    unreadOnly: false,
    items: [],
    cursor: null,
    fresh: false,
    cachedAt: null,
    loading: null,
    error: null,
    errorOn: null,
    status: SIGNED_OUT,
    verified: false,
    online: true,
    selection: NO_SELECTION,
    activeId: null,
    bulkPending: false,
    announcement: null,
    failure: null,
  };
  const listeners = new Set<(state: InboxState) => void>();
  const changes = { deleted: new Set<string>(), read: new Set<string>() } satisfies LocalChanges;
  /** Bumped whenever the list restarts, so answers to earlier page requests are dropped. */
  let generation = 0;
  /** The oldest item the service has sent for this list: where a page not loaded yet begins. */
  let oldest: Notification | null = null;
  let moreWanted = false;
  let messageId = 0;

  function set(change: Partial<InboxState>): void {
    state = { ...state, ...change };
    for (const listener of listeners) listener(state);
  }

  /** Changes the list, keeping the selection and the active item sensible for what is left. */
  function setItems(items: readonly Notification[], change: Partial<InboxState> = {}): void {
    set({
      ...change,
      items,
      selection: pruned(change.selection ?? state.selection, items),
      activeId: survivingNeighbour(state.items, items, state.activeId),
    });
  }

  const message = (text: string): Message => ({ text, id: ++messageId });
  const announce = (text: string) => set({ announcement: message(text) });
  const fail = (key: 'popup_error_mark_read' | 'popup_error_delete', error: unknown) =>
    set({ failure: message(t(key, failureReason(reviveError(error), state.online))) });

  const range = (): LoadedRange => ({ oldest, hasMore: state.cursor !== null });

  function noteOldest(page: Page): void {
    oldest = page.data.at(-1) ?? oldest;
  }

  function paint(cached: CachedFirstPage): void {
    oldest = cached.page.data.at(-1) ?? null;
    setItems(reconcilePage(cached.page.data, changes, state.unreadOnly), {
      cursor: cached.page.cursor,
      cachedAt: cached.savedAt,
    });
  }

  async function fetchFirst(): Promise<void> {
    const current = ++generation;
    set({ loading: 'first', error: null, errorOn: null });
    try {
      const page = await ask('inbox.fetch', { cursor: null, unreadOnly: state.unreadOnly });
      if (current !== generation) return;
      oldest = null;
      noteOldest(page);
      setItems(reconcilePage(page.data, changes, state.unreadOnly), {
        cursor: page.cursor,
        fresh: true,
        verified: true,
        cachedAt: null,
        loading: null,
      });
      if (moreWanted || state.items.length === 0) {
        moreWanted = false;
        await loadMore();
      }
    } catch (error) {
      if (current !== generation) return;
      moreWanted = false;
      set({ loading: null, error: reviveError(error), errorOn: 'first' });
    }
  }

  async function loadMore(): Promise<void> {
    if (!state.fresh) {
      if (state.loading === 'first') moreWanted = true;
      return;
    }
    const cursor = state.cursor;
    if (state.loading || state.bulkPending || cursor === null) return;
    const current = generation;
    set({ loading: 'more', error: null, errorOn: null });
    try {
      const page = await ask('inbox.fetch', { cursor, unreadOnly: state.unreadOnly });
      if (current !== generation) return;
      noteOldest(page);
      const added = reconcilePage(page.data, changes, state.unreadOnly, state.items);
      setItems([...state.items, ...added], { cursor: page.cursor, loading: null });
      if (added.length > 0) announce(tn('popup_loaded_more', added.length));
      else if (page.cursor !== null) await loadMore();
    } catch (error) {
      if (current !== generation) return;
      set({ loading: null, error: reviveError(error), errorOn: 'more' });
    }
  }

  /** Asks for the next page when triage emptied the list but the inbox goes on. */
  function refillIfEmpty(): void {
    if (state.items.length === 0 && state.cursor !== null) void loadMore();
  }

  async function restart(unreadOnly: boolean): Promise<void> {
    const current = ++generation;
    moreWanted = false;
    oldest = null;
    set({
      unreadOnly,
      items: [],
      cursor: null,
      fresh: false,
      cachedAt: null,
      selection: NO_SELECTION,
      activeId: null,
      loading: 'first',
      error: null,
      errorOn: null,
    });
    const cached = await readCachedFirstPage(unreadOnly).catch(() => null);
    if (current !== generation) return;
    if (cached) paint(cached);
    await fetchFirst();
  }

  function applyStatus(status: ConnectionStatus): void {
    const before = state.status;
    const newProblem = needsSettings(status.kind) && status.kind !== before.kind;
    set({ status, verified: newProblem ? false : state.verified });
    const solved = needsSettings(before.kind) && !needsSettings(status.kind);
    if (solved && state.loading === null && (!state.fresh || state.error)) void fetchFirst();
  }

  function applyUnreadCount(count: number | null): void {
    if (count !== null) set({ status: { ...state.status, count } });
  }

  /** Moves the unread count shown by a change made here, until the background reports its own. */
  function shiftUnreadCount(by: number): void {
    const count = state.status.count;
    if (count !== null && by !== 0) applyUnreadCount(Math.max(0, count + by));
  }

  function itemsWithIds(ids: readonly string[]): Notification[] {
    const wanted = new Set(ids);
    return state.items.filter((item) => wanted.has(item.id));
  }

  /** After a failed change: puts `originals` back, and reselects those that were selected. */
  function rollBack(originals: readonly Notification[], selectionBefore: Selection): void {
    const items = restored(state.items, originals, range(), state.unreadOnly);
    const reselect = originals.filter((item) => selectionBefore.ids.has(item.id)).map((item) => item.id);
    setItems(items, { selection: { ...state.selection, ids: new Set([...state.selection.ids, ...reselect]) } });
  }

  async function markRead(ids: readonly string[]): Promise<void> {
    const targets = itemsWithIds(ids).filter((item) => !item.read);
    if (targets.length === 0) {
      announce(t('popup_already_read'));
      return;
    }
    const targetIds = new Set(targets.map((item) => item.id));
    const selectionBefore = state.selection;
    for (const id of targetIds) changes.read.add(id);
    setItems(state.unreadOnly ? withoutIds(state.items, targetIds) : markedRead(state.items, targetIds), {
      failure: null,
    });
    shiftUnreadCount(-targets.length);
    if (state.unreadOnly) refillIfEmpty();
    try {
      const result = await ask('inbox.markRead', { ids: [...targetIds], unread: targets.length });
      applyUnreadCount(result.unreadCount);
      announce(tn('popup_marked_read', targets.length));
    } catch (error) {
      for (const id of targetIds) changes.read.delete(id);
      rollBack(targets, selectionBefore);
      shiftUnreadCount(targets.length);
      fail('popup_error_mark_read', error);
    }
  }

  async function remove(ids: readonly string[]): Promise<void> {
    const targets = itemsWithIds(ids);
    if (targets.length === 0) return;
    const targetIds = new Set(targets.map((item) => item.id));
    const unread = targets.filter((item) => !item.read).length;
    const selectionBefore = state.selection;
    for (const id of targetIds) changes.deleted.add(id);
    setItems(withoutIds(state.items, targetIds), { failure: null });
    shiftUnreadCount(-unread);
    refillIfEmpty();
    try {
      const result = await ask('inbox.delete', { ids: [...targetIds], unread });
      applyUnreadCount(result.unreadCount);
      announce(tn('popup_deleted', targets.length));
    } catch (error) {
      for (const id of targetIds) changes.deleted.delete(id);
      rollBack(targets, selectionBefore);
      shiftUnreadCount(unread);
      fail('popup_error_delete', error);
    }
  }

  /**
   * "Mark all read" and "delete all" change pages not loaded yet, so page loads under way are
   * dropped and no new one starts until the answer; a failure brings the list back as it was.
   */
  async function changeAll(kind: 'markRead' | 'delete'): Promise<void> {
    if (state.bulkPending) return;
    const before = { items: state.items, cursor: state.cursor, selection: state.selection, oldest };
    const unread = state.status.count ?? state.items.filter((item) => !item.read).length;
    generation++;
    moreWanted = false;
    const emptied = kind === 'delete' || state.unreadOnly;
    setItems(emptied ? [] : markedRead(state.items, new Set(state.items.map((item) => item.id))), {
      cursor: emptied ? null : state.cursor,
      loading: null,
      bulkPending: true,
      failure: null,
    });
    shiftUnreadCount(-unread);
    try {
      const result = await ask(kind === 'delete' ? 'inbox.delete' : 'inbox.markRead', { ids: 'all', unread });
      applyUnreadCount(result.unreadCount ?? 0);
      announce(t(kind === 'delete' ? 'popup_all_deleted' : 'popup_all_marked_read'));
      set({ bulkPending: false });
    } catch (error) {
      oldest = before.oldest;
      setItems(withoutIds(before.items, changes.deleted), {
        cursor: before.cursor,
        selection: before.selection,
        bulkPending: false,
      });
      shiftUnreadCount(unread);
      fail(kind === 'delete' ? 'popup_error_delete' : 'popup_error_mark_read', error);
    }
    if (!state.fresh) await fetchFirst();
  }

  async function open(id: string, options: { background?: boolean } = {}): Promise<void> {
    const item = state.items.find((candidate) => candidate.id === id);
    if (!item) return;
    const url = openableUrl(item.url);
    if (!url) {
      announce(t('popup_no_link'));
      return;
    }
    // The message goes out before the tab opens: opening a tab in front closes the popup.
    const marking = item.read ? null : markRead([id]);
    try {
      await browser.tabs.create({ url, active: !options.background });
    } catch {
      set({ failure: message(t('popup_error_open')) });
    }
    await marking;
  }

  async function retry(): Promise<void> {
    ask('status.refresh').then(applyStatus, () => {});
    if (state.fresh && state.errorOn === 'more') await loadMore();
    else await fetchFirst();
  }

  function move(step: number | 'first' | 'last', extend = false): void {
    const { items, activeId } = state;
    if (items.length === 0) return;
    const at = items.findIndex((item) => item.id === activeId);
    let index: number;
    if (step === 'first') index = 0;
    else if (step === 'last') index = items.length - 1;
    else index = at === -1 ? 0 : Math.min(items.length - 1, Math.max(0, at + step));
    const target = items[index];
    if (!target) return;
    let selection = state.selection;
    if (extend) {
      const current = items[at];
      if (current) selection = including(selection, current.id);
      selection = including(selection, target.id);
    }
    set({ activeId: target.id, selection });
    if (index >= items.length - 1 && (step === 'last' || (typeof step === 'number' && step > 0))) void loadMore();
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async start() {
      const [settings, status, all, unread] = await Promise.all([
        getSettings(),
        statusItem.getValue(),
        readCachedFirstPage(false).catch(() => null),
        readCachedFirstPage(true).catch(() => null),
      ]);
      set({ started: true, unreadOnly: settings.unreadOnly, status, loading: 'first' });
      const cached = settings.unreadOnly ? unread : all;
      if (cached) paint(cached);
      const unwatch = statusItem.watch((value) => applyStatus(value ?? SIGNED_OUT));
      ask('status.refresh').then(applyStatus, () => {});
      void fetchFirst();
      return unwatch;
    },
    setOnline(online) {
      if (online === state.online) return;
      set({ online });
      if (online && state.error) void retry();
    },
    async setUnreadOnly(unreadOnly) {
      if (unreadOnly === state.unreadOnly) return;
      const saving = updateSettings({ unreadOnly }).catch(() => {});
      await restart(unreadOnly);
      await saving;
    },
    retry,
    loadMore,
    setActive(id) {
      if (id !== state.activeId) set({ activeId: id });
    },
    move,
    toggle(id) {
      set({ selection: toggled(state.selection, id), activeId: id });
    },
    extendTo(id) {
      set({ selection: extendedTo(state.selection, state.items, id), activeId: id });
    },
    selectAll(select) {
      set({ selection: select ? everything(state.items) : NO_SELECTION });
    },
    markRead,
    remove,
    markAllRead: () => changeAll('markRead'),
    removeAll: () => changeAll('delete'),
    open,
    dismissFailure() {
      set({ failure: null });
    },
  };
}

/** The ids a command acts on: the selection when there is one, else the active item. */
export function commandTargets(state: InboxState): string[] {
  if (state.selection.ids.size > 0) return selectedItems(state.selection, state.items).map((item) => item.id);
  return state.activeId !== null && state.items.some((item) => item.id === state.activeId) ? [state.activeId] : [];
}
