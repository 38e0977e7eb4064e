/**
 * The accounts the extension signs in with, each on its own service: its addresses and who the
 * person is there. Every context may read them; none holds a token (those stay in the
 * background, see `lib/background/account-store.ts`).
 */
import { storage } from 'wxt/utils/storage';
import { DEFAULT_SETTINGS, type Settings, validateSettings } from './settings';

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

export const DEFAULT_ADDRESSES: Readonly<AccountAddresses> = Object.freeze({
  apiBaseUrl: DEFAULT_SETTINGS.apiBaseUrl,
  siteOrigin: DEFAULT_SETTINGS.siteOrigin,
  profilePath: DEFAULT_SETTINGS.profilePath,
  profileAnchor: DEFAULT_SETTINGS.profileAnchor,
});

/** Why each address is invalid, as the settings judge them; empty when all are valid. */
export function validateAddresses(addresses: AccountAddresses) {
  const { apiBaseUrl, siteOrigin, profilePath, profileAnchor } = validateSettings({
    ...DEFAULT_SETTINGS,
    ...addresses,
  });
  return Object.fromEntries(
    Object.entries({ apiBaseUrl, siteOrigin, profilePath, profileAnchor }).filter(([, key]) => key !== undefined),
  ) as Partial<Record<keyof AccountAddresses, NonNullable<typeof apiBaseUrl>>>;
}

/** How the account is named to the person: `@name` once known, otherwise its site's host. */
export function accountLabel(account: Pick<Account, 'username' | 'siteOrigin'>): string {
  return account.username ? `@${account.username}` : new URL(account.siteOrigin).host;
}
