/**
 * Mark read, mark unread, delete, snooze and unsnooze on the popup's behalf, and their undo. The badge and the
 * cached first pages change at once from the operation's result; the poller's next check
 * confirms the count. The undo tokens of the last action stay here, in session storage, so the
 * popup can close and open again and still offer Undo while the service takes it.
 */
import { storage } from 'wxt/utils/storage';
import type { BulkResult, Client, IdsSelection } from '../api';
import { InvalidArgumentError, LIMITS, UndoExpiredError } from '../api';
import { clearInboxCache, updateCachedPages } from '../inbox-cache';
import type { SnoozeRequest, TriageRequest, TriageResult, UndoableAction, UndoOffer } from '../messaging';
import { triagedPage, uniqueIds } from '../triage-patch';
import { getStatus, showCount } from './status-writer';

interface LastUndo extends UndoOffer {
  /** One token per call the action took (a selection of more than 500 takes several). */
  tokens: string[];
}

/**
 * The last action's undo. Session storage is the background's own: content scripts cannot read
 * it, and it is gone when the browser closes.
 */
export const lastUndoItem = storage.defineItem<LastUndo | null>('session:lastUndo', { fallback: null, version: 1 });

/** Offered a little less long than the service takes it, so an undo is never sent just too late. */
const OFFER_MARGIN_MS = 2_000;

function chunks(ids: readonly string[]): string[][] {
  const unique = uniqueIds(ids);
  const out: string[][] = [];
  for (let i = 0; i < unique.length; i += LIMITS.idsPerCall) out.push(unique.slice(i, i + LIMITS.idsPerCall));
  return out;
}

/** Sends a selection of any size, at most 500 ids a call; counts add up across calls, tokens gather. */
async function inBatches<Ids extends IdsSelection>(
  ids: Ids,
  send: (ids: Ids) => Promise<BulkResult>,
): Promise<{ count: number; tokens: string[] }> {
  const answers = ids === 'all' ? [await send(ids)] : [];
  if (ids !== 'all') for (const batch of chunks(ids)) answers.push(await send(batch as Ids));
  return {
    count: answers.reduce((sum, answer) => sum + answer.count, 0),
    tokens: answers.flatMap((answer) => (answer.undo === null ? [] : [answer.undo])),
  };
}

/** Keeps the action's undo as the last one, replacing any earlier; what the popup may offer. */
async function offerUndo(
  action: UndoableAction,
  ids: IdsSelection,
  sent: { count: number; tokens: string[] },
  extra: Pick<UndoOffer, 'until'> = {},
  now = Date.now(),
): Promise<UndoOffer | null> {
  if (sent.tokens.length === 0) return null;
  const offer: UndoOffer = {
    action,
    all: ids === 'all',
    count: sent.count,
    expiresAt: now + LIMITS.undoSeconds * 1000 - OFFER_MARGIN_MS,
    ...extra,
  };
  await lastUndoItem.setValue({ ...offer, tokens: sent.tokens });
  return offer;
}

const okCount = (status: { kind: string; count: number | null }) => (status.kind === 'ok' ? status.count : null);

export async function markRead(client: Client, { ids }: TriageRequest): Promise<TriageResult> {
  const sent = await inBatches(ids, client.inbox.markRead);
  const undo = await offerUndo('markRead', ids, sent);
  await updateCachedPages((page, unreadOnly) => triagedPage(page, 'markRead', ids, unreadOnly));
  const before = (await getStatus()).count;
  const status = await showCount(ids === 'all' ? 0 : (before ?? 0) - sent.count);
  return { success: true, count: sent.count, unreadCount: okCount(status), undo };
}

export async function markUnread(client: Client, { ids }: TriageRequest): Promise<TriageResult> {
  if (ids === 'all') throw new InvalidArgumentError('invalid_ids', 'Mark unread takes a list of ids, never "all".');
  const sent = await inBatches(ids, client.inbox.markUnread);
  const undo = await offerUndo('markUnread', ids, sent);
  await updateCachedPages((page, unreadOnly) => triagedPage(page, 'markUnread', ids, unreadOnly));
  const before = (await getStatus()).count;
  const status = await showCount((before ?? 0) + sent.count);
  return { success: true, count: sent.count, unreadCount: okCount(status), undo };
}

/**
 * After a delete or a snooze took notifications out of the inbox: out of the cached pages too,
 * and the badge lower by the unread ones among them (at most as many as the service changed).
 */
async function takenOut(
  action: 'delete' | 'snooze',
  ids: IdsSelection,
  unread: number | undefined,
  sent: { count: number },
  undo: UndoOffer | null,
): Promise<TriageResult> {
  await updateCachedPages((page, unreadOnly) => triagedPage(page, action, ids, unreadOnly));
  const before = (await getStatus()).count;
  const gone = Math.min(sent.count, Math.max(0, Math.floor(unread ?? 0)));
  const status = await showCount(ids === 'all' ? 0 : (before ?? 0) - gone);
  return { success: true, count: sent.count, unreadCount: okCount(status), undo };
}

export async function deleteNotifications(client: Client, { ids, unread }: TriageRequest): Promise<TriageResult> {
  const sent = await inBatches(ids, client.inbox.delete);
  return takenOut('delete', ids, unread, sent, await offerUndo('delete', ids, sent));
}

/** Snoozed notifications leave the inbox and the count until they wake; the service wakes them. */
export async function snooze(client: Client, { ids, until, unread }: SnoozeRequest): Promise<TriageResult> {
  const sent = await inBatches(ids, (batch) => client.inbox.snooze(batch, until));
  return takenOut('snooze', ids, unread, sent, await offerUndo('snooze', ids, sent, { until }));
}

/**
 * Brings snoozed notifications back now, unread and at the top of the inbox, where no cached
 * page has them: the cached pages are dropped. The number that came back.
 */
export async function unsnooze(client: Client, { ids }: { ids: string[] }): Promise<number> {
  let count = 0;
  try {
    for (const batch of chunks(ids)) count += (await client.inbox.unsnooze(batch)).count;
  } finally {
    await clearInboxCache();
  }
  return count;
}

/** The last action, while it can still be undone. */
export async function lastUndo(now = Date.now()): Promise<UndoOffer | null> {
  const last = await lastUndoItem.getValue();
  if (!last || last.expiresAt <= now) return null;
  const { tokens: _, ...offer } = last;
  return offer;
}

/**
 * Undoes the last action, once: it is forgotten before anything is sent, so a second Undo
 * finds nothing. The cached pages no longer match the inbox and are dropped. The number of
 * notifications put back; UndoExpiredError when there is nothing left to undo.
 */
export async function undoLast(client: Client, now = Date.now()): Promise<number> {
  const last = await lastUndoItem.getValue();
  await lastUndoItem.setValue(null);
  if (!last || last.expiresAt <= now) {
    throw new UndoExpiredError({ status: 410, code: 'undo_expired', detail: 'There is nothing left to undo.' });
  }
  let count = 0;
  try {
    for (const token of [...last.tokens].reverse()) count += (await client.inbox.undo(token)).count;
  } finally {
    await clearInboxCache();
  }
  return count;
}
