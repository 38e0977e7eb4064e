/**
 * The popup inbox's pages: the cached first page painted at once, the service's first page that
 * confirms it, the next pages as the list scrolls, and a restart when the list switches between
 * all and unread-only. Answers to requests made before a restart are dropped.
 */
import type { Notification, NotificationType } from '../api/contract';
import { reviveError, UnauthenticatedError } from '../api/errors';
import { tn } from '../i18n';
import type { CachedFirstPage } from '../inbox-cache';
import { POPUP_ACCOUNT, setInboxFilter } from '../inbox-filter';
import { type AccountPage, ALL_ACCOUNTS, ask, INBOX_PAGE_SIZE } from '../messaging';
import { type StoredReader, writeStored } from '../stored';
import { cachedListing } from './first-screen-state';
import type { Grouping } from './inbox-groups';
import { type LoadedRange, paintCached, reconcilePage } from './inbox-list';
import type { InboxState, PriorityLens, StateCell } from './inbox-state';
import { NO_SELECTION } from './selection';

export interface Paging {
  /** Shows a cached first page until the service's answer arrives. */
  paint(cached: CachedFirstPage): void;
  fetchFirst(): Promise<void>;
  loadMore(): Promise<void>;
  /** Asks for the next page when triage emptied the list but the inbox goes on. */
  refillIfEmpty(): void;
  setUnreadOnly(unreadOnly: boolean): Promise<void>;
  /** Shows only these types, or all for null, and remembers the choice. */
  setTypes(types: readonly NotificationType[] | null): Promise<void>;
  /** Shows the notifications that contain every word of `query`, or all for an empty one. */
  setQuery(query: string): Promise<void>;
  /** Shows another account's inbox, or all accounts' (`ALL_ACCOUNTS`), and remembers the choice. */
  setAccount(account: string): Promise<void>;
  /** Shows the priority notifications only, each row alone with its reason, or (null) the whole inbox again. */
  setPriority(priority: PriorityLens | null): Promise<void>;
  /** The cached first page of the list on show, the accounts' cached pages merged for all of them. */
  cachedFirstPage(read?: StoredReader): Promise<CachedFirstPage | null>;
  /** Where the loaded part of the list ends, for putting items back in their place. */
  range(): LoadedRange;
  /**
   * Drops page loads under way and stops new ones being wanted, as a change to every item makes
   * them stale; returns what puts the paging back where it was, for when that change fails.
   */
  interrupt(): () => void;
}

/** Pages in a row the Priority view looks through for its rows before the person asks it to go on. */
const PRIORITY_PAGES = 4;

export interface PagingOptions {
  /** The cached first page already on show, whose last item is where the next page begins. */
  painted?: CachedFirstPage | null;
  /** Loads what a failed page load is shown with; the failure shows once it has. */
  beforeFailure?: () => Promise<unknown>;
}

export function createPaging(
  cell: StateCell,
  { painted = null, beforeFailure = async () => {} }: PagingOptions = {},
): Paging {
  const { get, set, setItems, changes } = cell;
  /** Bumped whenever the list restarts, so answers to earlier page requests are dropped. */
  let generation = 0;
  /** The oldest item the service has sent for this list: where a page not loaded yet begins. */
  let oldest: Notification | null = painted?.page.data.at(-1) ?? null;
  let moreWanted = false;
  /** The grouping the inbox had before the Priority view, whose rows stand alone. */
  let inboxGrouping: Grouping = false;

  /**
   * What a page request for one account asks for: the listing on show, its filter only when there
   * is one. The Priority view looks at the whole inbox: no type or search narrows it.
   */
  function listing(account: string, cursor: string | null) {
    const { unreadOnly, types, query, priority } = get();
    if (priority) return { account, cursor, unreadOnly };
    return { account, cursor, unreadOnly, ...(types ? { types: [...types] } : {}), ...(query ? { q: query } : {}) };
  }

  /** What the list shows of a page: in the Priority view, its priority notifications. */
  function shown(items: readonly Notification[]): readonly Notification[] {
    const { priority } = get();
    return priority ? items.filter((item) => priority.reason(item) !== null) : items;
  }

  /** A page of the list on show: one account's, or every signed-in account's merged into one. */
  async function fetchPage(cursor: string | null): Promise<AccountPage> {
    const { account, accounts } = get();
    if (account !== ALL_ACCOUNTS) return ask('inbox.fetch', listing(account, cursor));
    const sources = accounts
      .filter((each) => each.status.kind !== 'signedOut')
      .map((each) => ({ account: each.id, fetch: (at: string | null) => ask('inbox.fetch', listing(each.id, at)) }));
    if (sources.length === 0) throw new UnauthenticatedError({ status: 401, code: 'unauthenticated', detail: '' });
    const { fetchMerged } = await import('./inbox-merge');
    return fetchMerged(sources, cursor, INBOX_PAGE_SIZE);
  }

  function cachedFirstPage(read?: StoredReader): Promise<CachedFirstPage | null> {
    // The Priority view starts from the whole inbox's, which `paint` shows the priority ones of.
    return cachedListing(get().priority ? { ...get(), types: null, query: '' } : get(), read);
  }

  function noteOldest(page: { data: Notification[] }): void {
    oldest = page.data.at(-1) ?? oldest;
  }

  function paint(cached: CachedFirstPage): void {
    oldest = cached.page.data.at(-1) ?? null;
    paintCached(cell, { ...cached, page: { ...cached.page, data: [...shown(cached.page.data)] } });
  }

  async function fetchFirst(): Promise<void> {
    const current = ++generation;
    set({ loading: 'first', error: null, errorOn: null });
    try {
      const page = await fetchPage(null);
      if (current !== generation) return;
      oldest = null;
      noteOldest(page);
      setItems(reconcilePage(shown(page.data), changes, get().unreadOnly), {
        cursor: page.cursor,
        fresh: true,
        verified: true,
        cachedAt: null,
        loading: null,
      });
      if (moreWanted || get().items.length === 0) {
        moreWanted = false;
        await loadMore(1);
      }
    } catch (error) {
      if (current !== generation) return;
      moreWanted = false;
      await beforeFailure();
      if (current !== generation) return;
      set({ loading: null, error: reviveError(error), errorOn: 'first' });
    }
  }

  /** Loads the next page; `looked` pages in a row have added nothing so far. */
  async function loadMore(looked = 0): Promise<void> {
    const state = get();
    if (!state.fresh) {
      if (state.loading === 'first') moreWanted = true;
      return;
    }
    const cursor = state.cursor;
    if (state.loading || state.bulkPending || cursor === null) return;
    const current = generation;
    set({ loading: 'more', error: null, errorOn: null });
    try {
      const page = await fetchPage(cursor);
      if (current !== generation) return;
      noteOldest(page);
      const added = reconcilePage(shown(page.data), changes, get().unreadOnly, get().items);
      setItems([...get().items, ...added], { cursor: page.cursor, loading: null });
      if (added.length > 0) cell.announce(tn('popup_loaded_more', added.length));
      else if (page.cursor !== null && (!get().priority || looked + 1 < PRIORITY_PAGES)) await loadMore(looked + 1);
    } catch (error) {
      if (current !== generation) return;
      await beforeFailure();
      if (current !== generation) return;
      set({ loading: null, error: reviveError(error), errorOn: 'more' });
    }
  }

  async function restart(
    listingChange: Partial<
      Pick<InboxState, 'unreadOnly' | 'types' | 'query' | 'account' | 'byType' | 'priority' | 'grouping'>
    >,
  ): Promise<void> {
    const current = ++generation;
    moreWanted = false;
    oldest = null;
    set({
      ...listingChange,
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
    const cached = await cachedFirstPage();
    if (current !== generation) return;
    if (cached) paint(cached);
    await fetchFirst();
  }

  return {
    paint,
    fetchFirst,
    loadMore: () => loadMore(),
    refillIfEmpty() {
      if (get().items.length === 0 && get().cursor !== null) void loadMore();
    },
    async setUnreadOnly(unreadOnly) {
      if (unreadOnly === get().unreadOnly) return;
      // The settings module, which knows every setting, loads only when one is written.
      const saving = import('../settings').then(({ updateSettings }) => updateSettings({ unreadOnly })).catch(() => {});
      await restart({ unreadOnly });
      await saving;
    },
    async setTypes(types) {
      const next = types && types.length > 0 ? [...types] : null;
      if (String(next) === String(get().types)) return;
      const saving = setInboxFilter(next).catch(() => {});
      await restart({ types: next });
      await saving;
    },
    async setQuery(query) {
      if (query === get().query) return;
      await restart({ query });
    },
    async setAccount(account) {
      if (account === get().account) return;
      const saving = writeStored(POPUP_ACCOUNT, account).catch(() => {});
      await restart({ account, byType: null });
      await saving;
    },
    async setPriority(priority) {
      const before = get();
      if (priority === before.priority) return;
      if (!before.priority) inboxGrouping = before.grouping;
      await restart({ priority, grouping: priority ? false : inboxGrouping });
    },
    cachedFirstPage,
    range: () => ({ oldest, hasMore: get().cursor !== null }),
    interrupt() {
      const before = oldest;
      generation++;
      moreWanted = false;
      return () => {
        oldest = before;
      };
    },
  };
}
