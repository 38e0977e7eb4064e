/**
 * Mark read, mark unread, delete, snooze and unsnooze on the popup's behalf, and their undo. The badge and the
 * cached first pages change at once from the operation's result, with one write of the count;
 * the live channel's count frame confirms it, or a check when the channel is down. The undo tokens of the last action stay here, in session storage, so the
 * popup can close and open again and still offer Undo while the service takes it.
 */
import type { BulkResult, Client, IdsSelection } from '../api';
import { InvalidArgumentError, LIMITS, UndoExpiredError } from '../api';
import { clearInboxCache, updateCachedPages } from '../inbox-cache';
import type {
  ConnectionStatus,
  SnoozeRequest,
  TriageRequest,
  TriageResult,
  UndoableAction,
  UndoOffer,
} from '../messaging';
import { storedItem, storedKey } from '../stored';
import { triagedPage, uniqueIds } from '../triage-patch';
import type { StatusWriter } from './status-writer';

/** What a triage action changes: the account it acts as is given apart. */
type Selection<T extends { account: string }> = Omit<T, 'account'>;

interface LastUndo extends UndoOffer {
  /**
   * Per account the action took in, in order, one token per call (a selection of more than 500
   * takes several).
   */
  parts: { account: string; tokens: string[] }[];
}

/** The account a triage action acts on: its id, its client and its status. */
export interface TriageAccount {
  id: string;
  client: Client;
  status: StatusWriter;
}

/**
 * The last action's undo. Session storage is the background's own: content scripts cannot read
 * it, and it is gone when the browser closes.
 */
export const lastUndoItem = storedItem(storedKey<LastUndo | null>('session:lastUndo', null));

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

/**
 * Keeps the action's undo as the last one, replacing any earlier; what the popup may offer. A
 * call that `join`s the one before (the same action over another account's items) adds to it.
 */
async function offerUndo(
  account: string,
  action: UndoableAction,
  ids: IdsSelection,
  sent: { count: number; tokens: string[] },
  extra: Pick<UndoOffer, 'until'> & { join?: boolean } = {},
  now = Date.now(),
): Promise<UndoOffer | null> {
  const { join, ...details } = extra;
  const earlier = join ? await lastUndoItem.getValue() : null;
  const joined = earlier && earlier.action === action && earlier.expiresAt > now ? earlier : null;
  if (sent.tokens.length === 0) return joined && withoutTokens(joined);
  const part = { account, tokens: sent.tokens };
  const last: LastUndo = joined
    ? { ...joined, count: joined.count + sent.count, parts: [...joined.parts, part] }
    : {
        account,
        action,
        all: ids === 'all',
        count: sent.count,
        expiresAt: now + LIMITS.undoSeconds * 1000 - OFFER_MARGIN_MS,
        ...details,
        parts: [part],
      };
  await lastUndoItem.setValue(last);
  return withoutTokens(last);
}

function withoutTokens({ parts: _, ...offer }: LastUndo): UndoOffer {
  return offer;
}

const okCount = (status: { kind: string; count: number | null }) => (status.kind === 'ok' ? status.count : null);

/**
 * Shows the count the action leaves: none for all, or the count on show moved by what the action
 * changed. A live count that came while the action was out may already hold the change (the
 * service sends one after it): it stays, and the channel's next count corrects it if need be.
 */
async function showAfter(
  writer: StatusWriter,
  liveCountsBefore: number,
  ids: IdsSelection,
  moved: (before: number) => number,
): Promise<ConnectionStatus> {
  const current = await writer.get();
  if (ids === 'all') return writer.showCount(0);
  if (writer.liveCounts() !== liveCountsBefore) return current;
  return writer.showCount(moved(current.count ?? 0));
}

export async function markRead(
  { id, client, status: writer }: TriageAccount,
  { ids, join }: Selection<TriageRequest>,
): Promise<TriageResult> {
  const live = writer.liveCounts();
  const sent = await inBatches(ids, client.inbox.markRead);
  const undo = await offerUndo(id, 'markRead', ids, sent, { join });
  await updateCachedPages(id, (page, unreadOnly) => triagedPage(page, 'markRead', ids, unreadOnly));
  const status = await showAfter(writer, live, ids, (before) => before - sent.count);
  return { success: true, count: sent.count, unreadCount: okCount(status), undo };
}

export async function markUnread(
  { id, client, status: writer }: TriageAccount,
  { ids, join }: Selection<TriageRequest>,
): Promise<TriageResult> {
  if (ids === 'all') throw new InvalidArgumentError('invalid_ids', 'Mark unread takes a list of ids, never "all".');
  const live = writer.liveCounts();
  const sent = await inBatches(ids, client.inbox.markUnread);
  const undo = await offerUndo(id, 'markUnread', ids, sent, { join });
  await updateCachedPages(id, (page, unreadOnly) => triagedPage(page, 'markUnread', ids, unreadOnly));
  const status = await showAfter(writer, live, ids, (before) => before + sent.count);
  return { success: true, count: sent.count, unreadCount: okCount(status), undo };
}

/**
 * After a delete or a snooze took notifications out of the inbox: out of the cached pages too,
 * and the badge lower by the unread ones among them (at most as many as the service changed).
 */
async function takenOut(
  { id, status: writer }: TriageAccount,
  action: 'delete' | 'snooze',
  ids: IdsSelection,
  unread: number | undefined,
  sent: { count: number; live: number },
  undo: UndoOffer | null,
): Promise<TriageResult> {
  await updateCachedPages(id, (page, unreadOnly) => triagedPage(page, action, ids, unreadOnly));
  const gone = Math.min(sent.count, Math.max(0, Math.floor(unread ?? 0)));
  const status = await showAfter(writer, sent.live, ids, (before) => before - gone);
  return { success: true, count: sent.count, unreadCount: okCount(status), undo };
}

export async function deleteNotifications(
  account: TriageAccount,
  { ids, unread, join }: Selection<TriageRequest>,
): Promise<TriageResult> {
  const live = account.status.liveCounts();
  const sent = await inBatches(ids, account.client.inbox.delete);
  const undo = await offerUndo(account.id, 'delete', ids, sent, { join });
  return takenOut(account, 'delete', ids, unread, { ...sent, live }, undo);
}

/** Snoozed notifications leave the inbox and the count until they wake; the service wakes them. */
export async function snooze(
  account: TriageAccount,
  { ids, until, unread, join }: Selection<SnoozeRequest>,
): Promise<TriageResult> {
  const live = account.status.liveCounts();
  const sent = await inBatches(ids, (batch) => account.client.inbox.snooze(batch, until));
  const undo = await offerUndo(account.id, 'snooze', ids, sent, { until, join });
  return takenOut(account, 'snooze', ids, unread, { ...sent, live }, undo);
}

/**
 * Brings snoozed notifications back now, unread and at the top of the inbox, where no cached
 * page has them: the cached pages are dropped. The number that came back.
 */
export async function unsnooze({ id, client }: TriageAccount, { ids }: { ids: string[] }): Promise<number> {
  let count = 0;
  try {
    for (const batch of chunks(ids)) count += (await client.inbox.unsnooze(batch)).count;
  } finally {
    await clearInboxCache(id);
  }
  return count;
}

/** The last action, while it can still be undone. */
export async function lastUndo(now = Date.now()): Promise<UndoOffer | null> {
  const last = await lastUndoItem.getValue();
  if (!last || last.expiresAt <= now || !Array.isArray(last.parts)) return null;
  return withoutTokens(last);
}

/**
 * Undoes the last action, once: it is forgotten before anything is sent, so a second Undo
 * finds nothing. The cached pages no longer match the inbox and are dropped. The accounts it
 * took in and the number of notifications put back; UndoExpiredError when there is nothing left
 * to undo.
 */
export async function undoLast(
  clientOf: (account: string) => Promise<Client>,
  now = Date.now(),
): Promise<{ accounts: string[]; count: number }> {
  const last = await lastUndoItem.getValue();
  await lastUndoItem.setValue(null);
  if (!last || last.expiresAt <= now || !Array.isArray(last.parts)) {
    throw new UndoExpiredError({ status: 410, code: 'undo_expired', detail: 'There is nothing left to undo.' });
  }
  let count = 0;
  for (const part of [...last.parts].reverse()) {
    try {
      const client = await clientOf(part.account);
      for (const token of [...part.tokens].reverse()) count += (await client.inbox.undo(token)).count;
    } finally {
      await clearInboxCache(part.account);
    }
  }
  return { accounts: last.parts.map((part) => part.account), count };
}
