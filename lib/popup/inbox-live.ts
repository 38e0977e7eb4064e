/**
 * What the popup's inbox does once it is on screen: revalidating the first page against the
 * service, paging, status, arrivals, search, triage and mutes, all through the background. The
 * store (`inbox-store`) shows the first screen and takes input without it; this part loads
 * right behind, and every action asked for meanwhile waits for it, in order.
 */
import { listAccounts } from '../accounts';
import { accountStatusKey, STATUS } from '../connection-status';
import { unreadByTypeKey } from '../inbox-filter';
import { ALL_ACCOUNTS, ask } from '../messaging';
import { readOne, readStored, type StoredReader, snapshotStored, watchStored } from '../stored';
import { loadFailureWords } from './failure-words';
import { type FirstScreen, readFirstScreen } from './first-screen-state';
import { sumByType } from './inbox-accounts';
import type { LiveInbox } from './inbox-actions';
import type { createArrivals } from './inbox-arrivals';
import type { createPaging } from './inbox-paging';
import { createSearch } from './inbox-search';
import type { StateCell } from './inbox-state';
import { createStatusTracking } from './inbox-status';
import type { Triage } from './inbox-triage';
import { laterMethods, loadOnce, TRIAGE_ACTIONS } from './load-later';
import { loadSearchMarks } from './search-marks';

export interface LiveOptions {
  /** Paging and arrivals, whose code loads beside this part's. */
  createPaging: typeof createPaging;
  createArrivals: typeof createArrivals;
  /** Storage as read for the first row, when the page started reading it before it rendered anything. */
  firstRead?: Promise<StoredReader>;
  /** What the cell already shows from it, which `start` then begins from. */
  firstScreen?: FirstScreen;
}

/** The live part of the inbox in `cell`. */
export function createLiveInbox(
  cell: StateCell,
  { createPaging, createArrivals, firstRead, firstScreen }: LiveOptions,
): LiveInbox {
  const { get, set } = cell;
  const paging = createPaging(cell, {
    painted: firstScreen?.cached ?? null,
    beforeFailure: () => loadFailureWords().catch(() => null),
  });
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
  // Triage is not needed for the first row: its code loads once the inbox starts, or when the
  // person acts before that, each action waiting for it in the order it was asked.
  const triage: Triage = laterMethods(
    loadOnce(() => import('./inbox-triage').then((module) => module.createTriage(cell, paging, status))),
    TRIAGE_ACTIONS,
  );
  const loadMuting = loadOnce(() =>
    import('./inbox-mutes').then((module) => module.createMuting(cell, paging, status)),
  );
  // The rows of a search mark its words: that code loads as the search is typed, and the list
  // changes once it is there.
  const search = createSearch(
    (term) =>
      void loadSearchMarks()
        .catch(() => {})
        .then(() => paging.setQuery(term)),
  );

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

  /** Bumped by each choice of view, so a lens that loads after the person left the view is dropped. */
  let priorityAsked = 0;

  async function retry(): Promise<void> {
    void refreshStatus();
    if (get().fresh && get().errorOn === 'more') await paging.loadMore();
    else await paging.fetchFirst();
  }

  return {
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
    async setPriority(on) {
      const asked = ++priorityAsked;
      // What makes a notification priority loads with the view, and is read as it is now.
      const lens = on
        ? await import('./priority-lens').then(({ priorityLens }) =>
            priorityLens(get().accounts.map((each) => each.id)),
          )
        : null;
      if (asked === priorityAsked) await paging.setPriority(lens);
    },
    setUnreadOnly: paging.setUnreadOnly,
    setTypes: paging.setTypes,
    search(text) {
      void loadSearchMarks().catch(() => {});
      search.type(text);
    },
    mute: async (id, target, until) => (await loadMuting()).mute(id, target, until),
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
    ...triage,
    // Undo takes back the newest action on offer: a mute's toast replaces a triage one and back.
    undo: async () => (get().muteOffer ? (await loadMuting()).undo() : triage.undo()),
    showArrived: arrivals.showArrived,
  };
}
