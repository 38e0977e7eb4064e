/**
 * What the options page and the background say about an account's addresses: the defaults, what
 * is wrong with them, and how the account is named (from `lib/accounts.ts`, where the popup's first
 * screen finds it too). Apart from `lib/accounts.ts` so that the popup, which only lists accounts,
 * does not load them.
 */
import type { AccountAddresses } from './accounts';
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

export { accountLabel } from './accounts';
