/**
 * The popup's inbox: the loaded notifications, paging, selection and triage, with every change
 * shown at once and rolled back if the background reports a failure. It talks to the background
 * only through `ask` and reads the cached first page and settings from storage, so it paints
 * before any network answer. The UI renders its state and calls its actions; nothing here
 * touches the DOM. Each part lives in its own module: `inbox-paging`, `inbox-triage`,
 * `inbox-selection`, `inbox-status` and `inbox-arrivals`, sharing the state cell of `inbox-state`.
 */
import { listAccounts } from '../accounts';
import type { NotificationType } from '../api/contract';
import { accountStatusKey, STATUS } from '../connection-status';
import { unreadByTypeKey } from '../inbox-filter';
import { ALL_ACCOUNTS, ask } from '../messaging';
import { readOne, readStored, type StoredReader, snapshotStored, watchStored } from '../stored';
import { type FirstScreen, readFirstScreen } from './first-screen-state';
import { sumByType } from './inbox-accounts';
import { type Arrivals, createArrivals } from './inbox-arrivals';
import type { Muting } from './inbox-mutes';
import { createPaging } from './inbox-paging';
import { createSearch } from './inbox-search';
import { createSelectionActions, type SelectionActions } from './inbox-selection';
import { createStateCell, type InboxState } from './inbox-state';
import { createStatusTracking } from './inbox-status';
import type { Triage } from './inbox-triage';

export { commandTargets } from './inbox-selection';
export type { InboxState, Message } from './inbox-state';

export interface InboxStore extends SelectionActions, Triage, Pick<Arrivals, 'showArrived'> {
  getState(): InboxState;
  subscribe(listener: (state: InboxState) => void): () => void;
  /** Paints the cached first page, then revalidates it, watching the status until `signal` aborts. */
  start(signal: AbortSignal): Promise<void>;
  setOnline(online: boolean): void;
  setUnreadOnly(unreadOnly: boolean): Promise<void>;
  setTypes(types: readonly NotificationType[] | null): Promise<void>;
  /** The search box now holds `text`: the list follows once typing pauses. */
  search(text: string): void;
  /** Mutes the person or thread of row `id`, until `until` (ms since the epoch) or, null, until removed. */
  mute: Muting['mute'];
  /** Shows one account's inbox, or all accounts' (`ALL_ACCOUNTS`). */
  setAccount(account: string): Promise<void>;
  /** Shows a group's members, or hides them again. */
  setExpanded(key: string, expanded: boolean): void;
  /**
   * Notifications came back to the inbox from elsewhere (unsnoozed): whatever this popup did to
   * them before no longer holds, and the first page and the status load again.
   */
  cameBack(ids: readonly string[]): Promise<void>;
  /** Loads again what failed: the first page, or the next one. */
  retry(): Promise<void>;
  loadMore(): Promise<void>;
  dismissFailure(): void;
}

/** Triage whose every action first waits for `load`, so the code behind it can load later. */
function deferredTriage(load: () => Promise<Triage>): Triage {
  const later =
    <K extends keyof Triage>(name: K) =>
    async (...args: Parameters<Triage[K]>) =>
      ((await load())[name] as (...args: Parameters<Triage[K]>) => Promise<void>)(...args);
  return {
    markRead: later('markRead'),
    markUnread: later('markUnread'),
    delete: later('delete'),
    snooze: later('snooze'),
    undo: later('undo'),
    offerLastUndo: later('offerLastUndo'),
    followOutbox: later('followOutbox'),
    markAllRead: later('markAllRead'),
    deleteAll: later('deleteAll'),
    open: later('open'),
  };
}

/**
 * `firstRead`: storage as read for the first row, when the page started reading it before it
 * rendered anything (see `snapshotStored`); otherwise `start` reads it. `firstScreen`: what was
 * read from it for the first screen already painted, which the store then starts from, so its
 * first render shows the same.
 */
export function createInboxStore(firstRead?: Promise<StoredReader>, firstScreen?: FirstScreen): InboxStore {
  const cell = createStateCell();
  const { get, set } = cell;
  const paging = createPaging(cell);
  if (firstScreen) {
    set(firstScreen.state);
    if (firstScreen.cached) paging.paint(firstScreen.cached);
  }
  const status = createStatusTracking(cell, paging);
  const arrivals = createArrivals(cell, paging);
  /** Checks every account now; the status of what is on show (one account, or all) is the one that counts here. */
  const refreshStatus = () => {
    const { account } = get();
    return ask('status.refresh')
      .then((summary) => (account && account !== ALL_ACCOUNTS ? ask('status.account', { account }) : summary))
      .then(
        (value) => {
          if (get().account === account) status.apply(value);
        },
        () => {},
      );
  };
  /** The accounts on show: one, or every one for all. */
  const shownIds = () => {
    const { account, accounts } = get();
    return account === ALL_ACCOUNTS ? accounts.map((each) => each.id) : account ? [account] : [];
  };
  /** Asks each account on show for its counts by type; they arrive through storage. */
  const refreshByType = () => {
    for (const id of shownIds()) void ask('inbox.countByType', { account: id }).catch(() => {});
  };
  async function readByType() {
    const ids = shownIds();
    const counts = await readStored(...ids.map(unreadByTypeKey)).catch(() => []);
    if (String(ids) === String(shownIds())) set({ byType: sumByType(counts) });
  }
  /** The status of what is on show: the account's, or the sum of all for all. */
  const statusOf = (account: string) => (account && account !== ALL_ACCOUNTS ? accountStatusKey(account) : STATUS);
  // Triage is not needed for the first row: its code loads once the first row is painted, or
  // when the person acts before that, each action waiting for it in the order it was asked.
  let loading: Promise<Triage> | null = null;
  const triage = deferredTriage(() => {
    loading ??= import('./inbox-triage').then(
      (module) => module.createTriage(cell, paging, status),
      (error: unknown) => {
        // An extension updated while the popup was open has no old chunk to load; the next action tries again.
        loading = null;
        throw error;
      },
    );
    return loading;
  });

  let muting: Promise<Muting> | null = null;
  const loadMuting = () => {
    muting ??= import('./inbox-mutes').then(
      (module) => module.createMuting(cell, paging, status),
      (error: unknown) => {
        muting = null;
        throw error;
      },
    );
    return muting;
  };
  const search = createSearch((term) => void paging.setQuery(term));

  /**
   * Whether the services on show have mutes, the strangers policy and search: an older one has
   * none, and the popup hides them rather than fail.
   */
  async function readFeatures(): Promise<void> {
    const { account, accounts } = get();
    const ids = shownIds().filter((id) => accounts.find((each) => each.id === id)?.status.kind !== 'signedOut');
    const answers = await Promise.all(ids.map((id) => ask('inbox.features', { account: id }).catch(() => null)));
    if (get().account !== account) return;
    const canMute = answers.length > 0 && answers.every((answer) => answer?.mutes === true);
    set({ canMute });
    if (!canMute && get().query) await paging.setQuery('');
  }

  async function retry(): Promise<void> {
    void refreshStatus();
    if (get().fresh && get().errorOn === 'more') await paging.loadMore();
    else await paging.fetchFirst();
  }

  return {
    getState: get,
    subscribe: cell.subscribe,
    async start(signal) {
      // Everything the first row needs, each account's values among it, in one call to storage.
      // A store made from the first screen already shows it.
      const { accounts } = firstScreen
        ? firstScreen.state
        : await (firstRead ?? snapshotStored()).then(readFirstScreen).then(({ state, cached }) => {
            if (signal.aborted) return state;
            set(state);
            if (cached) paging.paint(cached);
            return state;
          });
      if (signal.aborted) return;
      void readByType();
      // The switcher's counts follow each account's status; what is on show follows its own.
      for (const each of accounts) {
        watchStored(
          accountStatusKey(each.id),
          (value) => {
            const before = get().accounts.find((tab) => tab.id === each.id)?.status.kind;
            set({ accounts: get().accounts.map((tab) => (tab.id === each.id ? { ...tab, status: value } : tab)) });
            // Signed in again, perhaps to another service: what it can do is asked again.
            if (before !== value.kind && shownIds().includes(each.id)) void readFeatures();
            if (get().account === each.id) status.apply(value);
            if (shownIds().includes(each.id)) refreshByType();
          },
          signal,
        );
        watchStored(
          unreadByTypeKey(each.id),
          () => {
            if (shownIds().includes(each.id)) void readByType();
          },
          signal,
        );
      }
      watchStored(
        STATUS,
        (value) => {
          if (get().account === ALL_ACCOUNTS || !get().account) status.apply(value);
        },
        signal,
      );
      refreshByType();
      void readFeatures();
      signal.addEventListener('abort', () => search.cancel(), { once: true });
      arrivals.listen(signal);
      void refreshStatus();
      void paging.fetchFirst();
      void triage.offerLastUndo(signal);
      void triage.followOutbox(signal);
    },
    async setAccount(account) {
      if (
        account === get().account ||
        !(account === ALL_ACCOUNTS || get().accounts.some((each) => each.id === account))
      )
        return;
      const switching = paging.setAccount(account);
      const siteOrigin =
        get().accounts.length > 0 ? (await listAccounts()).find((each) => each.id === account)?.siteOrigin : null;
      if (siteOrigin) set({ siteOrigin });
      set({ status: await readOne(statusOf(account)) });
      void readByType();
      refreshByType();
      void refreshStatus();
      void readFeatures();
      await switching;
    },
    setOnline(online) {
      if (online === get().online) return;
      set({ online });
      if (online && get().error) void retry();
    },
    setUnreadOnly: paging.setUnreadOnly,
    setTypes: paging.setTypes,
    search: (text) => search.type(text),
    mute: async (id, target, until) => (await loadMuting()).mute(id, target, until),
    setExpanded(key, expanded) {
      const next = new Set(get().expanded);
      if (expanded) next.add(key);
      else next.delete(key);
      set({ expanded: next });
    },
    async cameBack(ids) {
      for (const id of ids) {
        cell.changes.deleted.delete(id);
        cell.changes.read.delete(id);
      }
      void refreshStatus();
      await paging.fetchFirst();
    },
    retry,
    loadMore: paging.loadMore,
    ...createSelectionActions(cell, paging.loadMore),
    ...triage,
    // Undo takes back the newest action on offer: a mute's toast replaces a triage one and back.
    undo: async () => (get().muteOffer ? (await loadMuting()).undo() : triage.undo()),
    showArrived: arrivals.showArrived,
    dismissFailure() {
      set({ failure: null });
    },
  };
}
