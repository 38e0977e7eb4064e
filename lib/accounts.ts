/**
 * The accounts the extension signs in with, each on its own service: its addresses and who the
 * person is there. Every context may read them; none holds a token (those stay in the
 * background, see `lib/background/account-store.ts`).
 */
import type { Settings } from './settings';
import { readOne, type StoredKey, type StoredReader, storedKey } from './stored';

/** The addresses of one account's service, as the settings held them for the one account before. */
export type AccountAddresses = Pick<Settings, 'apiBaseUrl' | 'siteOrigin' | 'profilePath' | 'profileAnchor'>;

export interface Account extends AccountAddresses {
  /** Chosen by the extension when the account is added; never changes. */
  id: string;
  /** Who the person is on that service, once known. */
  username: string | null;
  displayName: string | null;
  avatarUrl: string | null;
}

/** Null until the accounts have been set up, from the previous version's settings if there were any. */
export const ACCOUNTS = storedKey<Account[] | null>('local:accounts', null);

export async function listAccounts(read: StoredReader = readOne): Promise<Account[]> {
  return (await read(ACCOUNTS)) ?? [];
}

export async function findAccount(id: string): Promise<Account | undefined> {
  return (await listAccounts()).find((account) => account.id === id);
}

/** The key of a value of one account's own: the prefix and the account's id. */
export const perAccountKey =
  <T>(prefix: string, fallback: T) =>
  (accountId: string): StoredKey<T> =>
    storedKey(`local:${prefix}:${accountId}`, fallback);

/** How the account is named to the person: `@name` once known, otherwise its site's host. */
export function accountLabel(account: Pick<Account, 'username' | 'siteOrigin'>): string {
  return account.username ? `@${account.username}` : new URL(account.siteOrigin).host;
}
