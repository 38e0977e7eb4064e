/**
 * The accounts the extension signs in with, each on its own service: its addresses and who the
 * person is there. Every context may read them; none holds a token (those stay in the
 * background, see `lib/background/account-store.ts`).
 */
import { storage, type WxtStorageItem } from 'wxt/utils/storage';
import type { Settings } from './settings';

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
export const accountsItem = storage.defineItem<Account[] | null>('local:accounts', { fallback: null, version: 1 });

export async function listAccounts(): Promise<Account[]> {
  return (await accountsItem.getValue()) ?? [];
}

export async function findAccount(id: string): Promise<Account | undefined> {
  return (await listAccounts()).find((account) => account.id === id);
}

/** A storage item of one account's own, under the prefix and the account's id; defined once per account. */
export function perAccountItem<T>(prefix: string, fallback: T) {
  const items = new Map<string, WxtStorageItem<T, Record<string, unknown>>>();
  return (accountId: string): WxtStorageItem<T, Record<string, unknown>> => {
    let item = items.get(accountId);
    if (!item) {
      item = storage.defineItem<T, Record<string, unknown>>(`local:${prefix}:${accountId}`, { fallback, version: 1 });
      items.set(accountId, item);
    }
    return item;
  };
}
