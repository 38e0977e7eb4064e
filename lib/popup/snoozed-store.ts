/**
 * The popup's "Snoozed" view: the snoozed notifications, soonest to wake first, page by page as
 * the service gives them, with a selection and Unsnooze. Unsnooze shows at once and is rolled
 * back if the background reports a failure; what came back goes to the top of the inbox, so the
 * inbox loads its first page again.
 */
import type { Notification } from '../api/contract';
import { type ApiError, reviveError } from '../api/errors';
import { t, tn } from '../i18n';
import { ask } from '../messaging';
import { loadFailureWords } from './failure-words';
import type { Message } from './inbox-state';
import { everything, extendedTo, NO_SELECTION, pruned, type Selection, toggled } from './selection';

export interface SnoozedState {
  items: readonly Notification[];
  /** The service's cursor for the next page; null when no further page exists. */
  cursor: string | null;
  /** The first page has come. */
  loaded: boolean;
  loading: 'first' | 'more' | null;
  error: ApiError | null;
  errorOn: 'first' | 'more' | null;
  selection: Selection;
  announcement: Message | null;
  failure: Message | null;
}

export interface SnoozedStore {
  getState(): SnoozedState;
  subscribe(listener: (state: SnoozedState) => void): () => void;
  fetchFirst(): Promise<void>;
  loadMore(): Promise<void>;
  toggle(id: string): void;
  extendTo(id: string): void;
  selectAll(select: boolean): void;
  unsnooze(ids: readonly string[]): Promise<void>;
  dismissFailure(): void;
}

interface Context {
  /** The account whose snoozed notifications are on show. */
  account: string;
  /** Whether the browser is online, for the words of a failure. */
  online(): boolean;
  /** Notifications came back to the inbox. */
  onUnsnoozed(ids: string[]): void;
}

const INITIAL: SnoozedState = Object.freeze({
  items: [],
  cursor: null,
  loaded: false,
  loading: null,
  error: null,
  errorOn: null,
  selection: NO_SELECTION,
  announcement: null,
  failure: null,
});

export function createSnoozedStore(context: Context): SnoozedStore {
  let state = INITIAL;
  const listeners = new Set<(state: SnoozedState) => void>();
  let messageId = 0;
  /** Ids this view unsnoozed, which pages requested before the answer still list. */
  const gone = new Set<string>();
  let generation = 0;

  function set(change: Partial<SnoozedState>): void {
    state = { ...state, ...change };
    if (change.items) state = { ...state, selection: pruned(state.selection, state.items) };
    for (const listener of listeners) listener(state);
  }

  const message = (text: string): Message => ({ text, id: ++messageId });
  const fresh = (page: readonly Notification[], shown: readonly Notification[] = []) => {
    const present = new Set(shown.map((item) => item.id));
    return page.filter((item) => !gone.has(item.id) && !present.has(item.id));
  };

  async function load(cursor: string | null): Promise<void> {
    const current = cursor === null ? ++generation : generation;
    const on = cursor === null ? 'first' : 'more';
    set({ loading: on, error: null, errorOn: null });
    try {
      const page = await ask('inbox.fetchSnoozed', { account: context.account, cursor });
      if (current !== generation) return;
      const items = cursor === null ? fresh(page.data) : [...state.items, ...fresh(page.data, state.items)];
      set({ items, cursor: page.cursor, loaded: true, loading: null });
    } catch (error) {
      if (current !== generation) return;
      // The view says why in words that load with the first failure.
      await loadFailureWords().catch(() => null);
      if (current !== generation) return;
      set({ loading: null, error: reviveError(error), errorOn: on });
    }
  }

  async function unsnooze(ids: readonly string[]): Promise<void> {
    const wanted = new Set(ids);
    const targets = state.items.filter((item) => wanted.has(item.id));
    if (targets.length === 0) return;
    const before = state.items;
    const selectionBefore = state.selection;
    for (const item of targets) gone.add(item.id);
    set({ items: state.items.filter((item) => !wanted.has(item.id)), failure: null });
    try {
      const targetIds = targets.map((item) => item.id);
      const result = await ask('inbox.unsnooze', { account: context.account, ids: targetIds });
      set({ announcement: message(tn('popup_unsnoozed', result.count)) });
      context.onUnsnoozed(targetIds);
    } catch (error) {
      for (const item of targets) gone.delete(item.id);
      // Back in their places; anything a page brought meanwhile stays after them.
      const shown = new Set(state.items.map((item) => item.id));
      const restored = before.filter((item) => shown.has(item.id) || wanted.has(item.id));
      const kept = new Set(restored.map((item) => item.id));
      set({ items: [...restored, ...state.items.filter((item) => !kept.has(item.id))] });
      const reselect = [...selectionBefore.ids].filter((id) => wanted.has(id));
      set({ selection: { ...state.selection, ids: new Set([...state.selection.ids, ...reselect]) } });
      const { failureReason } = await loadFailureWords();
      set({ failure: message(t('popup_error_unsnooze', failureReason(reviveError(error), context.online()))) });
    }
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    fetchFirst: () => load(null),
    async loadMore() {
      if (state.loading !== null || state.cursor === null) return;
      await load(state.cursor);
    },
    toggle(id) {
      set({ selection: toggled(state.selection, id) });
    },
    extendTo(id) {
      set({ selection: extendedTo(state.selection, state.items, id) });
    },
    selectAll(select) {
      set({ selection: select ? everything(state.items) : NO_SELECTION });
    },
    unsnooze,
    dismissFailure() {
      set({ failure: null });
    },
  };
}
