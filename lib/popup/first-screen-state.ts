/**
 * What the popup shows when it opens, from storage alone: the settings, the accounts and the view
 * chosen last, each account's status, the type filter and the cached first page. The store starts
 * from it, and the first screen is drawn from it, so both show the same list.
 */
import { listAccounts } from '../accounts';
import type { Notification, NotificationType } from '../api/contract';
import { accountStatusKey, SIGNED_OUT, STATUS } from '../connection-status';
import { type CachedFirstPage, readCachedFirstPage } from '../inbox-cache';
import { getInboxFilter, POPUP_ACCOUNT } from '../inbox-filter';
import { serviceOrder } from '../inbox-order';
import type { Settings } from '../settings';
import { readOne, type StoredKey, type StoredReader, storedKey } from '../stored';
import { ALL, chooseView, tabOf } from './inbox-accounts';
import type { InboxState } from './inbox-state';
import { readStorageAreas, SYNCED_SETTINGS_NAME } from './storage-areas';

/** `INBOX_PAGE_SIZE` of the messaging library. */
const PAGE_SIZE = 25 satisfies typeof import('../messaging').INBOX_PAGE_SIZE;

/** The part of the popup's state storage decides, with the cached first page of the list on show. */
export interface FirstScreen {
  state: Pick<
    InboxState,
    | 'started'
    | 'unreadOnly'
    | 'accounts'
    | 'account'
    | 'types'
    | 'grouping'
    | 'markReadOnOpen'
    | 'density'
    | 'siteOrigin'
    | 'status'
    | 'loading'
  >;
  cached: CachedFirstPage | null;
}

/**
 * The rows of the plain list the first screen shows, or none when the popup shows something else
 * first (signed out, a problem, offline, a type filter, nothing cached).
 */
export function firstScreenItems({ state, cached }: FirstScreen, online = navigator.onLine): Notification[] {
  if (!cached || !online || state.status.kind !== 'ok' || state.types) return [];
  // As `reconcilePage` shows a page with no changes made here yet.
  return state.unreadOnly ? cached.page.data.filter((item) => !item.read) : cached.page.data;
}

/**
 * The accounts' cached first pages as one: one account's as it is, several merged in the service's
 * order with each item naming its account. A merged page has no cursor, since it would skip what
 * the other accounts hold; the next page waits for the service.
 */
export function mergeCachedPages(
  ids: readonly string[],
  cached: readonly (CachedFirstPage | null)[],
): CachedFirstPage | null {
  const found = cached.filter((each): each is CachedFirstPage => each !== null);
  if (found.length === 0) return null;
  const data = cached
    .flatMap((each, index) => each?.page.data.map((item) => ({ ...item, account: ids[index] as string })) ?? [])
    .sort(serviceOrder)
    .slice(0, PAGE_SIZE);
  const cursor = found.length === 1 && ids.length === 1 ? ((found[0] as CachedFirstPage).page.cursor ?? null) : null;
  return { page: { data, cursor }, savedAt: Math.min(...found.map((each) => each.savedAt)) };
}

/** The cached first page of a listing; none for a filtered one, since the cache holds the whole inbox's. */
export async function cachedListing(
  listing: Pick<InboxState, 'account' | 'accounts' | 'unreadOnly' | 'types' | 'query'>,
  read?: StoredReader,
): Promise<CachedFirstPage | null> {
  const { account, accounts, unreadOnly, types, query } = listing;
  if (types || query || !account) return null;
  const ids = account === ALL ? accounts.map((each) => each.id) : [account];
  const cached = await Promise.all(ids.map((id) => readCachedFirstPage(id, unreadOnly, read).catch(() => null)));
  return mergeCachedPages(ids, cached);
}

type ListSettings = Pick<Settings, 'unreadOnly' | 'groupNotifications' | 'groupedTypes' | 'markReadOnOpen' | 'density'>;

/** `DEFAULT_SETTINGS` of the settings the list follows (`lib/settings.ts`, which this module must not load). */
const LIST_DEFAULTS: ListSettings = {
  unreadOnly: false,
  groupNotifications: true,
  groupedTypes: { mention: false, reply: false, follow: true, system: true, like: true },
  markReadOnOpen: true,
  density: 'compact',
};
const LOCAL_SETTINGS = storedKey<Record<string, unknown> | null>('local:settings', null);
const SYNCED_SETTINGS = storedKey<Record<string, unknown> | null>(`sync:${SYNCED_SETTINGS_NAME}`, null);

/**
 * The settings the list follows, made whole as `getSettings` makes them: the synced value over
 * this computer's, a missing or malformed one taking its default. The settings module, which
 * knows every setting, loads with the popup after the first screen.
 */
export async function readListSettings(read: StoredReader): Promise<ListSettings> {
  const stored = { ...(await read(LOCAL_SETTINGS)), ...(await read(SYNCED_SETTINGS)) };
  const settings = { ...LIST_DEFAULTS };
  for (const key of Object.keys(LIST_DEFAULTS) as (keyof ListSettings)[]) {
    if (typeof stored[key] === typeof LIST_DEFAULTS[key]) Object.assign(settings, { [key]: stored[key] });
  }
  if (settings.density !== 'comfortable') settings.density = LIST_DEFAULTS.density;
  const types = typeof stored.groupedTypes === 'object' && stored.groupedTypes ? stored.groupedTypes : {};
  settings.groupedTypes = { ...LIST_DEFAULTS.groupedTypes };
  for (const type of Object.keys(settings.groupedTypes) as NotificationType[]) {
    const value = (types as Record<string, unknown>)[type];
    if (typeof value === 'boolean') settings.groupedTypes[type] = value;
  }
  return settings;
}

export async function readFirstScreen(read: StoredReader): Promise<FirstScreen> {
  const settings = await readListSettings(read);
  const accounts = await listAccounts(read);
  const account = chooseView(accounts, await read(POPUP_ACCOUNT));
  const status = await read(account && account !== ALL ? accountStatusKey(account) : STATUS);
  const statuses = await Promise.all(accounts.map((each) => read(accountStatusKey(each.id))));
  const types = await getInboxFilter(read);
  const state: FirstScreen['state'] = {
    started: true,
    unreadOnly: settings.unreadOnly,
    accounts: accounts.map((each, index) => tabOf(each, statuses[index] ?? SIGNED_OUT)),
    account,
    types,
    grouping: settings.groupNotifications && settings.groupedTypes,
    markReadOnOpen: settings.markReadOnOpen,
    density: settings.density,
    siteOrigin: accounts.find((each) => each.id === account)?.siteOrigin ?? accounts[0]?.siteOrigin ?? '',
    status,
    loading: 'first',
  };
  return { state, cached: await cachedListing({ ...state, query: '' }, read) };
}

/**
 * Storage as the first screen needs it, from the two calls `readStorageAreas` makes. Any other
 * key is read when asked for.
 */
export async function snapshotFirstScreen(areas = readStorageAreas()): Promise<StoredReader> {
  const [local, synced] = await areas;
  return <T>(key: StoredKey<T>) => {
    if (key.key === SYNCED_SETTINGS.key) return (synced[SYNCED_SETTINGS_NAME] as T | undefined) ?? key.fallback;
    if (!key.key.startsWith('local:')) return readOne(key);
    return (local[key.key.slice('local:'.length)] as T | undefined) ?? key.fallback;
  };
}
