/**
 * The values the background keeps for every context to read, as items defined from the keys
 * their modules name. Only the background writes and watches through these; the extension's pages
 * read the same keys through `lib/stored.ts` directly.
 */
import { ACCOUNTS } from '../accounts';
import { accountLiveModeKey, accountStatusKey, LIVE_MODE, STATUS } from '../connection-status';
import { unreadByTypeKey } from '../inbox-filter';
import { SETTINGS } from '../settings';
import { type StoredItem, type StoredKey, storedItem } from '../stored';

/** The items of a value of one account's own (see `perAccountKey`). */
export const perAccountItem =
  <T>(keyOf: (accountId: string) => StoredKey<T>) =>
  (accountId: string): StoredItem<T> =>
    storedItem(keyOf(accountId));

export const settingsItem = storedItem(SETTINGS);
export const accountsItem = storedItem(ACCOUNTS);
export const statusItem = storedItem(STATUS);
export const liveModeItem = storedItem(LIVE_MODE);
export const accountStatusItem = perAccountItem(accountStatusKey);
export const accountLiveModeItem = perAccountItem(accountLiveModeKey);
export const unreadByTypeItem = perAccountItem(unreadByTypeKey);
