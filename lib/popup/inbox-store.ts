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
import { accountStatusItem, SIGNED_OUT, statusItem } from '../connection-status';
import { readCachedFirstPage } from '../inbox-cache';
import { getInboxFilter, unreadByTypeItem } from '../inbox-filter';
import { ask } from '../messaging';
import { getSettings } from '../settings';
import { type Arrivals, createArrivals } from './inbox-arrivals';
import { createPaging } from './inbox-paging';
import { createSelectionActions, type SelectionActions } from './inbox-selection';
import { createStateCell, type InboxState } from './inbox-state';
import { createStatusTracking } from './inbox-status';
import { createTriage, type Triage } from './inbox-triage';

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

export function createInboxStore(): InboxStore {
  const cell = createStateCell();
  const { get, set } = cell;
  const paging = createPaging(cell);
  const status = createStatusTracking(cell, paging);
  const arrivals = createArrivals(cell, paging);
  /** Checks every account now; the account on show's status is the one that counts here. */
  const refreshStatus = () =>
    ask('status.refresh')
      .then((summary) => (get().account ? ask('status.account', { account: get().account }) : summary))
      .then(status.apply, () => {});
  const triage = createTriage(cell, paging, status);

  async function retry(): Promise<void> {
    void refreshStatus();
    if (get().fresh && get().errorOn === 'more') await paging.loadMore();
    else await paging.fetchFirst();
  }

  return {
    getState: get,
    subscribe: cell.subscribe,
    async start(signal) {
      const [settings, [account]] = await Promise.all([getSettings(), listAccounts()]);
      const id = account?.id ?? '';
      const statusOf = account ? accountStatusItem(id) : statusItem;
      // The account's counts by type; with no account there are none, and nothing writes them.
      const byTypeOf = unreadByTypeItem(id);
      const [current, cached, types, byType] = await Promise.all([
        statusOf.getValue(),
        account ? readCachedFirstPage(id, settings.unreadOnly).catch(() => null) : null,
        getInboxFilter().catch(() => null),
        byTypeOf.getValue().catch(() => null),
      ]);
      if (signal.aborted) return;
      set({
        started: true,
        unreadOnly: settings.unreadOnly,
        account: id,
        types,
        byType,
        grouping: settings.groupNotifications,
        markReadOnOpen: settings.markReadOnOpen,
        siteOrigin: account?.siteOrigin ?? '',
        status: current,
        loading: 'first',
      });
      // The cache holds the whole inbox's first page: a filtered list waits for its own.
      if (cached && !types) paging.paint(cached);
      // Counts by type follow the account's unread count: asked again whenever it changes.
      const refreshByType = () => {
        if (account) void ask('inbox.countByType', { account: id }).catch(() => {});
      };
      const unwatch = statusOf.watch((value) => {
        status.apply(value ?? SIGNED_OUT);
        refreshByType();
      });
      const unwatchByType = byTypeOf.watch((value) => set({ byType: value }));
      signal.addEventListener('abort', unwatch, { once: true });
      signal.addEventListener('abort', unwatchByType, { once: true });
      refreshByType();
      arrivals.listen(signal);
      void refreshStatus();
      void paging.fetchFirst();
      void triage.offerLastUndo(signal);
    },
    setOnline(online) {
      if (online === get().online) return;
      set({ online });
      if (online && get().error) void retry();
    },
    setUnreadOnly: paging.setUnreadOnly,
    setTypes: paging.setTypes,
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
    showArrived: arrivals.showArrived,
    dismissFailure() {
      set({ failure: null });
    },
  };
}
