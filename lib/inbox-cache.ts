/**
 * Each account's last first page of the inbox, kept so the popup can paint at once when it opens
 * and then revalidate. The background writes it; the popup reads it. It is dropped on sign-out.
 */
import { perAccountItem } from './accounts';
import type { Page } from './api/contract';

export interface CachedFirstPage {
  page: Page;
  /** When the page was fetched (ms since the epoch). */
  savedAt: number;
}

type InboxCache = { all: CachedFirstPage | null; unread: CachedFirstPage | null };

export const inboxCacheItem = perAccountItem<InboxCache>('inboxCache', { all: null, unread: null });

const slot = (unreadOnly: boolean) => (unreadOnly ? 'unread' : 'all');

export async function readCachedFirstPage(accountId: string, unreadOnly: boolean): Promise<CachedFirstPage | null> {
  return (await inboxCacheItem(accountId).getValue())[slot(unreadOnly)];
}

export async function writeCachedFirstPage(
  accountId: string,
  unreadOnly: boolean,
  page: Page,
  savedAt = Date.now(),
): Promise<void> {
  const item = inboxCacheItem(accountId);
  const cache = await item.getValue();
  await item.setValue({ ...cache, [slot(unreadOnly)]: { page, savedAt } });
}

/** Applies a change to both cached pages, as a triage action changes the inbox. */
export async function updateCachedPages(
  accountId: string,
  change: (page: Page, unreadOnly: boolean) => Page,
): Promise<void> {
  const item = inboxCacheItem(accountId);
  const cache = await item.getValue();
  const next: InboxCache = { all: null, unread: null };
  for (const unreadOnly of [false, true]) {
    const entry = cache[slot(unreadOnly)];
    next[slot(unreadOnly)] = entry && { ...entry, page: change(entry.page, unreadOnly) };
  }
  await item.setValue(next);
}

export async function clearInboxCache(accountId: string): Promise<void> {
  await inboxCacheItem(accountId).removeValue();
}
