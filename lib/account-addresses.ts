/**
 * What the options page and the background say about an account's addresses: the defaults, what
 * is wrong with them, and how the account is named. Apart from `lib/accounts.ts` so that the
 * popup, which only lists accounts, does not load them.
 */
import type { Account, AccountAddresses } from './accounts';
import { DEFAULT_SETTINGS, validateSettings } from './settings';

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
