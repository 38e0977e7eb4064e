/**
 * Changes the person made while the service could not be reached, kept per account in
 * `storage.local` until the service has them: they survive the worker stopping and the browser
 * restarting. Each keeps the idempotency key it was first sent with and goes again with that
 * key, in order, so a change that reached the service before its answer was lost is not done
 * twice. Nothing of one account's outbox is ever sent as another account.
 */

import { perAccountKey } from '../accounts';
import type { Client } from '../api';
import { reviveError } from '../api/errors';
import { broadcast, type OutboxDropped, type OutboxEntry, type OutboxState } from '../messaging';
import { oneAtATime } from '../one-at-a-time';
import { storedItem } from '../stored';
import type { Clock } from './clock';
import { accountStatusItem } from './stored-items';

/** The most changes kept per account: past it the oldest are dropped, and the popup says so. */
export const OUTBOX_LIMIT = 500;
/** How long a first attempt may go unanswered before its change is kept here. */
export const FIRST_ANSWER_MS = 1_000;
/** The service keeps a key's answer this long: a change older than that may act twice if sent. */
const KEY_WINDOW_MS = 24 * 3_600_000;
const DROPPED_LIMIT = 20;

export const outboxItem = (account: string) => storedItem(perAccountKey<OutboxEntry[]>('outbox', [])(account));
export const droppedItem = (account: string) =>
  storedItem(perAccountKey<OutboxDropped[]>('outboxDropped', [])(account));

/** No answer, or the way to the service is down: worth keeping and sending again. */
const unreachable = (status: number, code: string) =>
  (status === 0 && (code === 'network_error' || code === 'timeout')) || (status >= 502 && status <= 504);

/** Worth sending again later: no answer, or an answer that says "not now". */
const notNow = (status: number, code: string) =>
  unreachable(status, code) || status === 408 || status === 409 || status === 429 || status >= 500;

/**
 * What an answer means for a kept change: sent (done, or found already done), try later, or
 * refused for a reason the popup names.
 */
function outcome(error: unknown): 'later' | 'done' | string {
  const { status, code } = reviveError(error);
  if (notNow(status, code)) return 'later';
  if (code === 'idempotency_key_reused' || code === 'already_following' || code === 'not_following') return 'done';
  if (status === 401 || status === 403) return 'unauthorized';
  return status === 404 || code.endsWith('not_found') ? 'gone' : 'refused';
}

/** Whether the first attempt's failure makes the change one to keep rather than a failure to show. */
export const keepsOnFailure = (error: unknown) => {
  const { status, code } = reviveError(error);
  return unreachable(status, code);
};

function sendEntry(client: Client, entry: OutboxEntry): Promise<unknown> {
  const key = { idempotencyKey: entry.key };
  const ids = entry.ids ?? [];
  switch (entry.kind) {
    case 'read':
      return client.inbox.markRead(ids, key);
    case 'unread':
      return client.inbox.markUnread(ids, key);
    case 'delete':
      return client.inbox.delete(ids, key);
    case 'snooze':
      return client.inbox.snooze(ids, entry.until ?? '', key);
    case 'unsnooze':
      return client.inbox.unsnooze(ids, key);
    case 'follow':
      return client.user(entry.username ?? '').follow(key);
    default:
      return client.user(entry.username ?? '').unfollow(key);
  }
}

/** Why a change waiting this long is not sent at all, or null when it still may be. */
function stale(entry: OutboxEntry, now: number): string | null {
  if (entry.kind === 'snooze' && Date.parse(entry.until ?? '') <= now) return 'woke';
  if (now - entry.madeAt > KEY_WINDOW_MS && (entry.kind === 'follow' || entry.kind === 'unfollow')) return 'expired';
  return null;
}

export interface Outbox {
  /**
   * Sends a change now with its own key; answered within about a second it is done, and
   * `send`'s answer comes back. Otherwise (no answer yet, or no way to the service) it is kept
   * with that key and the answer is `null`; an answer that comes later settles it. Any other
   * failure is thrown. With changes already waiting it is kept at once, behind them.
   */
  attempt<T>(
    entry: Omit<OutboxEntry, 'key' | 'madeAt'>,
    send: (key: string) => Promise<T>,
  ): Promise<{ key: string; answer: T | null }>;
  /** Sends what waits, in order, as far as the service takes it. */
  flush(): Promise<void>;
  /** Takes a change out before it is sent, as Undo does; the change, if it was still waiting. */
  take(key: string): Promise<OutboxEntry | null>;
  entries(): Promise<OutboxEntry[]>;
  /** Forgets the account's outbox and what it dropped, as when the account is removed. */
  discard(): Promise<void>;
  /** Forgets what it dropped, once the person has read it. */
  dismiss(): Promise<void>;
}

export interface OutboxOptions {
  clock: Clock;
  client(): Promise<Client>;
  /** A kept change was sent later and answered: its undo, when it has one. */
  onSent?(key: string, answer: unknown): void;
  signal?: AbortSignal;
}

/** Keys whose first attempt is still out: the sender waits for those, so nothing goes twice at once. */
const firstAttempts = new Set<string>();

export function createOutbox(account: string, options: OutboxOptions): Outbox {
  const { clock } = options;
  const kept = outboxItem(account);
  const dropped = droppedItem(account);
  let edits: Promise<unknown> = Promise.resolve();

  /** Changes to the stored outbox, one after another, so none is lost between a read and a write. */
  function edit<T>(change: (entries: OutboxEntry[], lines: OutboxDropped[]) => T | Promise<T>): Promise<T> {
    const next = edits.then(async () => {
      const entries = await kept.getValue();
      const lines = await dropped.getValue();
      const before = JSON.stringify([entries, lines]);
      const result = await change(entries, lines);
      if (JSON.stringify([entries, lines]) !== before) {
        await kept.setValue(entries);
        await dropped.setValue(lines.slice(-DROPPED_LIMIT));
        void broadcast('outbox.changed', { account });
      }
      return result;
    });
    edits = next.catch(() => undefined);
    return next;
  }

  const line = (lines: OutboxDropped[], entry: OutboxEntry, why: string) =>
    lines.push({ kind: entry.kind, why, count: entry.ids?.length ?? 1, username: entry.username, at: clock.now() });

  const remove = (key: string, why?: string) =>
    edit((entries, lines) => {
      const at = entries.findIndex((entry) => entry.key === key);
      const [entry] = at < 0 ? [] : entries.splice(at, 1);
      if (entry && why) line(lines, entry, why);
      return entry ?? null;
    });

  const flush = oneAtATime(async () => {
    for (;;) {
      const [entry] = await kept.getValue();
      if (!entry || firstAttempts.has(entry.key) || options.signal?.aborted) return;
      const why = stale(entry, clock.now());
      if (why) {
        await remove(entry.key, why);
        continue;
      }
      try {
        const client = await options.client();
        if (options.signal?.aborted) return;
        const answer = await sendEntry(client, entry);
        await remove(entry.key);
        options.onSent?.(entry.key, answer);
      } catch (error) {
        const result = outcome(error);
        if (result === 'later') return;
        await remove(entry.key, result === 'done' ? undefined : result);
      }
    }
  });

  /** A first attempt answered after its change was kept: the change is settled by that answer. */
  function settleLate(key: string, late: Promise<unknown>) {
    late.then(
      async (answer) => {
        firstAttempts.delete(key);
        await remove(key);
        options.onSent?.(key, answer);
      },
      async (error: unknown) => {
        firstAttempts.delete(key);
        const result = outcome(error);
        if (result !== 'later') await remove(key, result === 'done' ? undefined : result);
        void flush();
      },
    );
  }

  async function keep(entry: OutboxEntry) {
    await edit((entries, lines) => {
      entries.push(entry);
      const over = entries.length - OUTBOX_LIMIT;
      if (over <= 0) return;
      entries.splice(0, over);
      const last = lines.at(-1);
      if (last?.why === 'overflow') last.count += over;
      else lines.push({ kind: entry.kind, why: 'overflow', count: over, at: clock.now() });
    });
  }

  async function attempt<T>(
    change: Omit<OutboxEntry, 'key' | 'madeAt'>,
    send: (key: string) => Promise<T>,
  ): Promise<{ key: string; answer: T | null }> {
    const entry: OutboxEntry = { ...change, key: crypto.randomUUID(), madeAt: clock.now() };
    const held = { key: entry.key, answer: null };
    if ((await kept.getValue()).length > 0) {
      await keep(entry);
      void flush();
      return held;
    }
    firstAttempts.add(entry.key);
    const sending = send(entry.key);
    let timer: unknown;
    const timeout = new Promise<typeof held>((resolve) => {
      timer = clock.setTimeout(() => resolve(held), FIRST_ANSWER_MS);
    });
    try {
      const first = await Promise.race([sending.then((answer) => ({ key: entry.key, answer })), timeout]);
      if (first !== held) {
        firstAttempts.delete(entry.key);
        return first;
      }
    } catch (error) {
      firstAttempts.delete(entry.key);
      if (!keepsOnFailure(error)) throw error;
      await keep(entry);
      return held;
    } finally {
      clock.clearTimeout(timer);
    }
    await keep(entry);
    settleLate(entry.key, sending);
    return held;
  }

  // A change kept before the worker stopped goes as soon as the service answers a check again.
  accountStatusItem(account).watch((status) => {
    if (status.kind === 'ok') void flush();
  }, options.signal ?? new AbortController().signal);

  return {
    attempt,
    flush,
    take: (key) => remove(key),
    entries: () => kept.getValue(),
    async discard() {
      await edit((entries, lines) => {
        entries.length = 0;
        lines.length = 0;
      });
    },
    async dismiss() {
      await edit((_, lines) => {
        lines.length = 0;
      });
    },
  };
}

/** What the popup shows of the accounts' outboxes: how many wait, which notifications, what was not sent. */
export async function outboxState(accounts: readonly string[]): Promise<OutboxState> {
  const state: OutboxState = { count: 0, ids: [], dropped: [] };
  for (const account of accounts) {
    const entries = await outboxItem(account).getValue();
    state.count += entries.length;
    for (const entry of entries) state.ids.push(...(entry.ids ?? []));
    state.dropped.push(...(await droppedItem(account).getValue()).map((line) => ({ ...line, account })));
  }
  return state;
}
