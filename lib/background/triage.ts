/**
 * Mark read, mark unread, delete, snooze and unsnooze on the popup's behalf, and their undo. The badge and the
 * cached first pages change at once from the operation's result, the badge first, with one write of the count
 * (for all, while the request is out);
 * the live channel's count frame confirms it, or a check when the channel is down. The undo tokens of the last action stay here, in session storage, so the
 * popup can close and open again and still offer Undo while the service takes it.
 */
import type { CoreClient, IdsSelection } from '../api';
import { InvalidArgumentError, LIMITS, UndoExpiredError } from '../api';
import { clearInboxCache, updateCachedPages } from '../inbox-cache';
import type {
  ConnectionStatus,
  OutboxEntry,
  SnoozeRequest,
  TriageRequest,
  TriageResult,
  UndoableAction,
  UndoOffer,
} from '../messaging';
import { storedItem, storedKey } from '../stored';
import { triagedPage, uniqueIds } from '../triage-patch';
import type { Outbox } from './outbox';
import { type StatusWriter, statusWriter } from './status-writer';

/** What a triage action changes: the account it acts as is given apart. */
type Selection<T extends { account: string }> = Omit<T, 'account'>;

interface LastUndo extends UndoOffer {
  /**
   * Per account the action took in, in order, one token per call (a selection of more than 500
   * takes several).
   */
  parts: { account: string; tokens: string[]; waiting?: string[] }[];
}

/** The account a triage action acts on: its id, its client and its status. */
export interface TriageAccount {
  id: string;
  client: CoreClient;
  status: StatusWriter;
  /** Where a change the service cannot take now is kept; without one, such a change fails. */
  outbox?: Outbox;
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

/**
 * What a selection's calls came to: the count and undo tokens of those the service answered, and
 * the keys, notifications and unread ones among them of those kept in the outbox for later.
 */
interface Sent {
  count: number;
  tokens: string[];
  waiting: string[];
  held: number;
  heldUnread: number;
}

/**
 * Sends a selection of any size, at most 500 ids a call; counts add up across calls, tokens gather.
 * A call the service cannot take now is kept in the account's outbox, and every call after it too,
 * so they go in order; "all" is kept as the ids the person saw.
 */
async function inBatches<Ids extends IdsSelection>(
  { outbox }: TriageAccount,
  change: Pick<OutboxEntry, 'kind' | 'until' | 'unread'> & { seen?: string[] },
  ids: Ids,
  send: (ids: Ids, options: { idempotencyKey?: string }) => Promise<{ count: number; undo?: string | null }>,
): Promise<Sent> {
  const sent: Sent = { count: 0, tokens: [], waiting: [], held: 0, heldUnread: 0 };
  const { seen, ...kind } = change;
  for (const batch of ids === 'all' ? ['all' as const] : chunks(ids)) {
    const kept = batch === 'all' ? seen && uniqueIds(seen) : batch;
    const unread = sent.waiting.length + sent.tokens.length + sent.count === 0 ? kind.unread : 0;
    const { key, answer } =
      outbox && kept
        ? await outbox.attempt({ ...kind, ids: kept, unread }, (idempotencyKey) =>
            send(batch as Ids, { idempotencyKey }),
          )
        : { key: '', answer: await send(batch as Ids, {}) };
    if (answer) {
      sent.count += answer.count;
      if (answer.undo) sent.tokens.push(answer.undo);
    } else {
      sent.waiting.push(key);
      sent.held += kept?.length ?? 0;
      sent.heldUnread += unread ?? 0;
    }
  }
  return sent;
}

/**
 * A change kept in the outbox was sent after all: a part of the last action waiting on its key
 * now holds the undo token the service gave.
 */
export async function settleUndo(key: string, answer: unknown): Promise<void> {
  const last = await lastUndoItem.getValue();
  const part = last?.parts?.find((each) => each.waiting?.includes(key));
  if (!last || !part) return;
  part.waiting = part.waiting?.filter((each) => each !== key);
  const token = (answer as { undo?: unknown } | undefined)?.undo;
  if (typeof token === 'string') part.tokens.push(token);
  await lastUndoItem.setValue(last);
}

/**
 * Keeps the action's undo as the last one, replacing any earlier; what the popup may offer. A
 * call that `join`s the one before (the same action over another account's items) adds to it.
 */
async function offerUndo(
  account: string,
  action: UndoableAction,
  ids: IdsSelection,
  sent: Sent,
  extra: Pick<UndoOffer, 'until'> & { join?: boolean } = {},
  now = Date.now(),
): Promise<UndoOffer | null> {
  const { join, ...details } = extra;
  const earlier = join ? await lastUndoItem.getValue() : null;
  const joined = earlier && earlier.action === action && earlier.expiresAt > now ? earlier : null;
  if (sent.tokens.length + sent.waiting.length === 0) return joined && withoutTokens(joined);
  const part = { account, tokens: sent.tokens, ...(sent.waiting.length > 0 ? { waiting: sent.waiting } : {}) };
  const count = sent.count + sent.held;
  const last: LastUndo = joined
    ? { ...joined, count: joined.count + count, parts: [...joined.parts, part] }
    : {
        account,
        action,
        all: ids === 'all',
        count,
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
  held = false,
): Promise<ConnectionStatus> {
  const current = await writer.get();
  const count = ids === 'all' ? 0 : moved(current.count ?? 0);
  // A change kept for later shows on the last known count too, while the service is away.
  if (held && current.kind !== 'ok' && current.count !== null)
    return writer.set({ ...current, count: Math.max(0, count) });
  if (ids !== 'all' && writer.liveCounts() !== liveCountsBefore) return current;
  return writer.showCount(count);
}

/**
 * Sends an action on "all", which leaves no notification unread: the badge says so while the
 * request is out, as the popup's list does, rather than a round trip to the service later. A
 * refusal puts back the status it replaced, unless a newer one came meanwhile.
 */
async function sendingAll(writer: StatusWriter, ids: IdsSelection, send: () => Promise<Sent>): Promise<Sent> {
  if (ids !== 'all') return send();
  const before = await writer.get();
  const writes = writer.writes();
  const showing = writer.showCount(0).catch(() => before);
  try {
    const sent = await send();
    await showing;
    return sent;
  } catch (error) {
    if ((await showing) !== before && writer.writes() === writes + 1) await writer.set(before);
    throw error;
  }
}

const result = (sent: Sent, status: ConnectionStatus, undo: UndoOffer | null): TriageResult => ({
  success: true,
  count: sent.count + sent.held,
  unreadCount: okCount(status),
  undo,
  ...(sent.waiting.length > 0 ? { waiting: true } : {}),
});

export async function markRead(
  account: TriageAccount,
  { ids, join, unread, seen }: Selection<TriageRequest>,
): Promise<TriageResult> {
  const { id, client, status: writer } = account;
  const live = writer.liveCounts();
  const sent = await sendingAll(writer, ids, () =>
    inBatches(account, { kind: 'markRead', unread, seen }, ids, client.inbox.markRead),
  );
  const held = sent.held > 0;
  const status = await showAfter(writer, live, ids, (before) => before - sent.count - sent.heldUnread, held);
  const [undo] = await Promise.all([
    offerUndo(id, 'markRead', ids, sent, { join }),
    updateCachedPages(id, (page, unreadOnly) => triagedPage(page, 'markRead', ids, unreadOnly)),
  ]);
  return result(sent, status, undo);
}

export async function markUnread(
  account: TriageAccount,
  { ids, join }: Selection<TriageRequest>,
): Promise<TriageResult> {
  if (ids === 'all') throw new InvalidArgumentError('invalid_ids', 'Mark unread takes a list of ids, never "all".');
  const { id, client, status: writer } = account;
  const live = writer.liveCounts();
  const sent = await inBatches(account, { kind: 'markUnread' }, ids, client.inbox.markUnread);
  const held = sent.held > 0;
  const status = await showAfter(writer, live, ids, (before) => before + sent.count + sent.held, held);
  const [undo] = await Promise.all([
    offerUndo(id, 'markUnread', ids, sent, { join }),
    updateCachedPages(id, (page, unreadOnly) => triagedPage(page, 'markUnread', ids, unreadOnly)),
  ]);
  return result(sent, status, undo);
}

/**
 * After a delete or a snooze took notifications out of the inbox: the badge lower by the unread
 * ones among them (at most as many as the service changed), then out of the cached pages too,
 * beside the action's undo.
 */
async function takenOut(
  { id, status: writer }: TriageAccount,
  action: 'delete' | 'snooze',
  ids: IdsSelection,
  unread: number | undefined,
  sent: Sent & { live: number },
  offering: () => Promise<UndoOffer | null>,
): Promise<TriageResult> {
  const gone = Math.min(sent.count + sent.held, Math.max(0, Math.floor(unread ?? 0)));
  const status = await showAfter(writer, sent.live, ids, (before) => before - gone, sent.held > 0);
  const [undo] = await Promise.all([
    offering(),
    updateCachedPages(id, (page, unreadOnly) => triagedPage(page, action, ids, unreadOnly)),
  ]);
  return result(sent, status, undo);
}

export async function deleteNotifications(
  account: TriageAccount,
  { ids, unread, join, seen }: Selection<TriageRequest>,
): Promise<TriageResult> {
  const live = account.status.liveCounts();
  const sent = await sendingAll(account.status, ids, () =>
    inBatches(account, { kind: 'delete', unread, seen }, ids, account.client.inbox.delete),
  );
  return takenOut(account, 'delete', ids, unread, { ...sent, live }, () =>
    offerUndo(account.id, 'delete', ids, sent, { join }),
  );
}

/** Snoozed notifications leave the inbox and the count until they wake; the service wakes them. */
export async function snooze(
  account: TriageAccount,
  { ids, until, unread, join }: Selection<SnoozeRequest>,
): Promise<TriageResult> {
  const live = account.status.liveCounts();
  const sent = await inBatches(account, { kind: 'snooze', unread, until }, ids, (batch, options) =>
    account.client.inbox.snooze(batch, until, options),
  );
  return takenOut(account, 'snooze', ids, unread, { ...sent, live }, () =>
    offerUndo(account.id, 'snooze', ids, sent, { until, join }),
  );
}

/**
 * Brings snoozed notifications back now, unread and at the top of the inbox, where no cached
 * page has them: the cached pages are dropped. The number that came back.
 */
export async function unsnooze(account: TriageAccount, { ids }: { ids: string[] }): Promise<Sent> {
  try {
    return await inBatches(account, { kind: 'unsnooze' }, ids, account.client.inbox.unsnooze);
  } finally {
    await clearInboxCache(account.id);
  }
}

/**
 * A change taken out of the outbox before it was sent: the badge gets back what showing it took,
 * as the service never saw it. The number of notifications it named.
 */
async function putBack(account: string, { kind, ids = [], unread = 0 }: OutboxEntry): Promise<number> {
  const writer = statusWriter(account);
  const current = await writer.get();
  const shift = kind === 'markUnread' ? -ids.length : unread;
  if (current.count !== null && shift !== 0)
    await writer.set({ ...current, count: Math.max(0, current.count + shift) });
  return ids.length;
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
  clientOf: (account: string) => Promise<CoreClient>,
  now = Date.now(),
  outboxOf: (account: string) => Outbox | undefined = () => undefined,
): Promise<{ accounts: string[]; count: number }> {
  const last = await lastUndoItem.getValue();
  await lastUndoItem.setValue(null);
  if (!last || last.expiresAt <= now || !Array.isArray(last.parts)) {
    throw new UndoExpiredError({ status: 410, code: 'undo_expired', detail: 'There is nothing left to undo.' });
  }
  let count = 0;
  for (const part of [...last.parts].reverse()) {
    try {
      for (const key of [...(part.waiting ?? [])].reverse()) {
        const entry = await outboxOf(part.account)?.take(key);
        if (entry) count += await putBack(part.account, entry);
      }
      if (part.tokens.length === 0) continue;
      const client = await clientOf(part.account);
      for (const token of [...part.tokens].reverse()) count += (await client.inbox.undo(token)).count;
    } finally {
      await clearInboxCache(part.account);
    }
  }
  return { accounts: last.parts.map((part) => part.account), count };
}
