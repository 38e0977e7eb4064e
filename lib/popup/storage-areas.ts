/**
 * The two calls to storage the popup's first screen is made from, all of `storage.local` (each
 * account's values are named by the accounts) and the synced settings, both at once. Its own
 * module, free of the storage layer, so the popup's first module can start them before the rest
 * of its code has loaded.
 */
import { browser } from 'wxt/browser';

/** The name of the synced settings in `storage.sync` (`SYNCED` of the settings module). */
export const SYNCED_SETTINGS_NAME = 'settings';

export type StorageAreas = [local: Record<string, unknown>, synced: Record<string, unknown>];

export const readStorageAreas = (): Promise<StorageAreas> =>
  Promise.all([browser.storage.local.get(null), browser.storage.sync.get(SYNCED_SETTINGS_NAME).catch(() => ({}))]);
