/**
 * Each account's last first page of the inbox, kept so the popup can paint at once when it opens
 * and then revalidate. The background writes it; the popup reads it. It is dropped on sign-out.
 */
import { perAccountKey } from './accounts';
import type { Page } from './api/contract';
import { readOne, type StoredReader, writeStored } from './stored';

export interface CachedFirstPage {
  page: Page;
  /** When the page was fetched (ms since the epoch). */
  savedAt: number;
}

type InboxCache = { all: CachedFirstPage | null; unread: CachedFirstPage | null };

export const inboxCacheKey = perAccountKey<InboxCache>('inboxCache', { all: null, unread: null });

const slot = (unreadOnly: boolean) => (unreadOnly ? 'unread' : 'all');

export async function readCachedFirstPage(
  accountId: string,
  unreadOnly: boolean,
  read: StoredReader = readOne,
): Promise<CachedFirstPage | null> {
  return (await read(inboxCacheKey(accountId)))[slot(unreadOnly)];
}

export async function writeCachedFirstPage(
  accountId: string,
  unreadOnly: boolean,
  page: Page,
  savedAt = Date.now(),
): Promise<void> {
  const key = inboxCacheKey(accountId);
  const cache = await readOne(key);
  await writeStored(key, { ...cache, [slot(unreadOnly)]: { page, savedAt } });
}

/** Applies a change to both cached pages, as a triage action changes the inbox. */
export async function updateCachedPages(
  accountId: string,
  change: (page: Page, unreadOnly: boolean) => Page,
): Promise<void> {
  const key = inboxCacheKey(accountId);
  const cache = await readOne(key);
  const next: InboxCache = { all: null, unread: null };
  for (const unreadOnly of [false, true]) {
    const entry = cache[slot(unreadOnly)];
    next[slot(unreadOnly)] = entry && { ...entry, page: change(entry.page, unreadOnly) };
  }
  await writeStored(key, next);
}

export async function clearInboxCache(accountId: string): Promise<void> {
  await writeStored(inboxCacheKey(accountId), null);
}
