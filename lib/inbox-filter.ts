/**
 * The popup's type filter, remembered between openings: the types the list shows, or null for
 * all. The popup's chips set it; a digest alert sets it to the types it speaks of before it
 * opens the popup, so the popup opens on them.
 */
import { perAccountKey } from './accounts';
import type { ByType } from './api/contract';
import { NOTIFICATION_TYPES, type NotificationType } from './api/notification-types';
import { readOne, type StoredReader, storedKey, writeStored } from './stored';

export const INBOX_FILTER = storedKey<NotificationType[] | null>('local:inboxFilter', null);

/** A stored filter made sound: known types only, each once, in the contract's order; null for all or none. */
export function normalizeFilter(stored: unknown): NotificationType[] | null {
  if (!Array.isArray(stored)) return null;
  const types = NOTIFICATION_TYPES.filter((type) => stored.includes(type));
  return types.length === 0 || types.length === NOTIFICATION_TYPES.length ? null : types;
}

export async function getInboxFilter(read: StoredReader = readOne): Promise<NotificationType[] | null> {
  return normalizeFilter(await read(INBOX_FILTER));
}

/**
 * One account's unread notifications of each type, as its service last said: the background writes
 * it from every count by type it hears (the account's live channel's count frames, the popup's
 * asking); the popup's chips show the account in view.
 */
export const unreadByTypeKey = perAccountKey<ByType | null>('unreadByType', null);

/** The account the popup showed last (its id, or `*` for all of them), so it opens on it again. */
export const POPUP_ACCOUNT = storedKey<string | null>('local:popupAccount', null);

export async function setInboxFilter(types: readonly NotificationType[] | null): Promise<void> {
  await writeStored(INBOX_FILTER, normalizeFilter(types));
}
