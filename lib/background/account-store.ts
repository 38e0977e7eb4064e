/**
 * The accounts with their tokens: the addresses in `storage.local` (see `lib/accounts.ts`), each
 * token in the IndexedDB of the extension's own origin, which only the background opens (a
 * content script's IndexedDB is the page's, in Chrome and Firefox alike). A token is kept with
 * the origin of the API it was given for and is never handed out for another.
 */
import { createStore, del, get, set } from 'idb-keyval';
import { DEFAULT_ADDRESSES, validateAddresses } from '../account-addresses';
import type { Account, AccountAddresses } from '../accounts';
import { storedItem, storedKey } from '../stored';
import { accountsItem, settingsItem } from './stored-items';

/** A token with the origin of the API it was given for. */
export interface StoredToken {
  token: string;
  apiOrigin: string;
}

export const apiOrigin = (apiBaseUrl: string) => new URL(apiBaseUrl).origin;

let secrets: { factory: IDBFactory; store: ReturnType<typeof createStore> } | null = null;
/** Opened on first use, again if the IndexedDB factory was replaced (as tests do). */
const secretStore = () => {
  if (secrets?.factory !== indexedDB)
    secrets = { factory: indexedDB, store: createStore('inbox-companion', 'secrets') };
  return secrets.store;
};

const isStoredToken = (value: unknown): value is StoredToken =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as StoredToken).token === 'string' &&
  typeof (value as StoredToken).apiOrigin === 'string';

const tokenKey = (accountId: string) => `token:${accountId}`;

/** The account's token, only while it is bound to the account's API origin; null when signed out. */
export async function accountToken(account: Pick<Account, 'id' | 'apiBaseUrl'>): Promise<string | null> {
  const stored: unknown = await get(tokenKey(account.id), secretStore());
  return isStoredToken(stored) && stored.apiOrigin === apiOrigin(account.apiBaseUrl) ? stored.token : null;
}

export async function storeToken(account: Pick<Account, 'id' | 'apiBaseUrl'>, token: string): Promise<void> {
  await set(tokenKey(account.id), { token: token.trim(), apiOrigin: apiOrigin(account.apiBaseUrl) }, secretStore());
}

export async function forgetToken(accountId: string): Promise<void> {
  await del(tokenKey(accountId), secretStore());
}

export interface NewAccount extends AccountAddresses {
  username?: string | null;
  displayName?: string | null;
  avatarUrl?: string | null;
}

const listAll = async () => (await accountsItem.getValue()) ?? [];

/** Adds an account, signed in when a token is given; its id is new. */
export async function addAccount(details: NewAccount, token: string | null, id: string = crypto.randomUUID()) {
  const account: Account = {
    id,
    apiBaseUrl: details.apiBaseUrl,
    siteOrigin: details.siteOrigin.replace(/\/$/, ''),
    profilePath: details.profilePath,
    profileAnchor: details.profileAnchor,
    username: details.username ?? null,
    displayName: details.displayName ?? null,
    avatarUrl: details.avatarUrl ?? null,
  };
  if (token) await storeToken(account, token);
  // An id given again replaces its account rather than listing it twice.
  await accountsItem.setValue([...(await listAll()).filter((other) => other.id !== id), account]);
  return account;
}

/** Changes what is known of an account (who the person is there); its id and addresses stay. */
export async function updateAccount(
  id: string,
  change: Partial<Pick<Account, 'username' | 'displayName' | 'avatarUrl'>>,
) {
  const accounts = await listAll();
  await accountsItem.setValue(accounts.map((account) => (account.id === id ? { ...account, ...change } : account)));
}

/** Forgets an account and its token. */
export async function removeAccount(id: string): Promise<void> {
  await forgetToken(id);
  await accountsItem.setValue((await listAll()).filter((account) => account.id !== id));
}

/** Where the previous versions kept the one token: `storage.local` first, then IndexedDB under `token`. */
const legacyLocalToken = storedItem(storedKey<StoredToken | null>('local:token', null));
const LEGACY_TOKEN_KEY = 'token';
const ADDRESS_KEYS = ['apiBaseUrl', 'siteOrigin', 'profilePath', 'profileAnchor'] as const;

let migrating: Promise<void> | null = null;

/** The addresses the previous version's settings held; a missing or invalid one takes its default. */
function legacyAddresses(stored: unknown): AccountAddresses {
  const value = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  const addresses = { ...DEFAULT_ADDRESSES };
  for (const key of ADDRESS_KEYS) if (typeof value[key] === 'string') addresses[key] = value[key] as string;
  addresses.siteOrigin = addresses.siteOrigin.replace(/\/$/, '');
  for (const key of Object.keys(validateAddresses(addresses)) as (keyof AccountAddresses)[]) {
    addresses[key] = DEFAULT_ADDRESSES[key];
  }
  return addresses;
}

/**
 * Sets up the accounts on the first start of this version: the previous version's one account —
 * its addresses from the settings, its token from IndexedDB (or, older still, `storage.local`) —
 * becomes the first account, signed in as before. Settings whose addresses were changed from the
 * defaults make an account even without a token, so nothing the person typed is lost. Runs once;
 * every reader of accounts in the background awaits it.
 */
export function migrateAccounts(): Promise<void> {
  migrating ??= (async () => {
    if ((await accountsItem.getValue()) !== null) return;
    const [indexed, local, rawSettings] = await Promise.all([
      get(LEGACY_TOKEN_KEY, secretStore()) as Promise<unknown>,
      legacyLocalToken.getValue(),
      settingsItem.getValue() as Promise<unknown>,
    ]);
    const token = isStoredToken(indexed) ? indexed : isStoredToken(local) ? local : null;
    const addresses = legacyAddresses(rawSettings);
    const customised = ADDRESS_KEYS.some((key) => addresses[key] !== DEFAULT_ADDRESSES[key]);
    const accounts: Account[] = [];
    if (token || customised) {
      const account: Account = {
        id: crypto.randomUUID(),
        ...addresses,
        username: null,
        displayName: null,
        avatarUrl: null,
      };
      // A token given for another origin than the one configured was never sent anywhere: it stays unused.
      if (token && token.apiOrigin === apiOrigin(addresses.apiBaseUrl)) await storeToken(account, token.token);
      accounts.push(account);
    }
    // An account added while this ran (the options page, a preset) stays beside the one moved here.
    await accountsItem.setValue([...accounts, ...((await accountsItem.getValue()) ?? [])]);
    await Promise.all([del(LEGACY_TOKEN_KEY, secretStore()), legacyLocalToken.removeValue()]);
  })().finally(() => {
    migrating = null;
  });
  return migrating;
}

/** The accounts, set up from the previous version's settings first if need be. */
export async function accounts(): Promise<Account[]> {
  await migrateAccounts();
  return listAll();
}
