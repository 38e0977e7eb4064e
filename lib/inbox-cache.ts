/**
 * The last first page of the inbox, kept so the popup can paint at once when it opens and
 * then revalidate. The background writes it; the popup reads it. It is dropped on sign-out.
 */
import { storage } from 'wxt/utils/storage';
import type { Page } from './api/contract';

export interface CachedFirstPage {
  page: Page;
  /** When the page was fetched (ms since the epoch). */
  savedAt: number;
}

type InboxCache = { all: CachedFirstPage | null; unread: CachedFirstPage | null };

export const inboxCacheItem = storage.defineItem<InboxCache>('local:inboxCache', {
  fallback: { all: null, unread: null },
  version: 1,
});

const slot = (unreadOnly: boolean) => (unreadOnly ? 'unread' : 'all');

export async function readCachedFirstPage(unreadOnly: boolean): Promise<CachedFirstPage | null> {
  return (await inboxCacheItem.getValue())[slot(unreadOnly)];
}

export async function writeCachedFirstPage(unreadOnly: boolean, page: Page, savedAt = Date.now()): Promise<void> {
  const cache = await inboxCacheItem.getValue();
  await inboxCacheItem.setValue({ ...cache, [slot(unreadOnly)]: { page, savedAt } });
}

/** Applies a change to both cached pages, as a triage action changes the inbox. */
export async function updateCachedPages(change: (page: Page, unreadOnly: boolean) => Page): Promise<void> {
  const cache = await inboxCacheItem.getValue();
  const next: InboxCache = { all: null, unread: null };
  for (const unreadOnly of [false, true]) {
    const entry = cache[slot(unreadOnly)];
    next[slot(unreadOnly)] = entry && { ...entry, page: change(entry.page, unreadOnly) };
  }
  await inboxCacheItem.setValue(next);
}

export async function clearInboxCache(): Promise<void> {
  await inboxCacheItem.removeValue();
}
