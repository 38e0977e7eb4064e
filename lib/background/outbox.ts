/**
 * Changes the person made while the service could not be reached, kept per account in
 * `storage.local` until the service has them: they survive the worker stopping and the browser
 * restarting. Each keeps the idempotency key it was first sent with and goes again with that
 * key, in order, so a change that reached the service before its answer was lost is not done
 * twice. Nothing of one account's outbox is ever sent as another account.
 */

import { perAccountKey } from '../accounts';
import type { ChangeOptions, CoreClient } from '../api';
import { errorFields } from '../api/errors';
import { failureKind } from '../failure';
import { broadcast, type OutboxDropped, type OutboxEntry, type OutboxKind, type OutboxState } from '../messaging';
import { isMuteOf, type MuteTarget } from '../mute-target';
import { oneAtATime } from '../one-at-a-time';
import type { Clock } from './clock';
import { accountStatusItem, perAccountKeptItem } from './stored-items';

/** The most changes kept per account: past it the oldest are dropped, and the popup says so. */
export const OUTBOX_LIMIT = 500;
/** How long a first attempt may go unanswered before its change is kept here. */
export const FIRST_ANSWER_MS = 1_000;

interface Kept {
  entries: OutboxEntry[];
  dropped: OutboxDropped[];
  /** The origin of the API the waiting changes were made at; another service's ids differ. */
  origin?: string;
}

/** Read from the worker's memory: only this worker writes it, and a check reads it on every status. */
export const outboxItem = perAccountKeptItem(perAccountKey<Kept>('outbox', { entries: [], dropped: [] }));

const NO_WAY = ['offline', 'unreachable', 'timeout'];
const NOT_NOW = [...NO_WAY, 'serverError', 'rateLimited'];
/** Answers that say the change was already made: its key was used, or the follow or mute is as wanted. */
const ALREADY = ['idempotency_key_reused', 'already_following', 'not_following', 'mute_not_found'];

const statusOf = (error: unknown) => errorFields(error)?.status ?? 0;

/** No answer, or the way to the service is down: a first attempt's change to keep rather than fail. */
export const keepsOnFailure = (error: unknown) =>
  NO_WAY.includes(failureKind(error)) || (statusOf(error) >= 502 && statusOf(error) <= 504);

/** What a failed send means for a kept change: try later, it was done already, or why it is dropped. */
function outcome(error: unknown): 'later' | 'done' | string {
  const kind = failureKind(error);
  if (NOT_NOW.includes(kind) || statusOf(error) === 408) return 'later';
  if (ALREADY.includes(errorFields(error)?.code ?? '')) return 'done';
  return kind === 'notFound' ? 'gone' : kind === 'unauthorized' ? kind : 'refused';
}

const MUTES: OutboxKind[] = ['mute', 'muteThread'];
const UNMUTES: OutboxKind[] = ['unmute', 'removeMute'];

/** The id the service gave each mute that waited here, by its change's key, for unmutes made meanwhile. */
const sentMutes = new Map<string, string>();

/** The mute an unmute removes: the service's id once a mute that waited here has been sent. */
export const muteIdOf = (idOrKey: string) => sentMutes.get(idOrKey) ?? idOrKey;

/**
 * What each mute that waited here holds back, by its change's key, when the service took it
 * without saying its id: its key was used already, so the service made the mute and replayed no answer.
 */
const madeUnseen = new Map<string, MuteTarget>();

/**
 * Removes the mute `idOrKey` names: its id, or the key of a mute that waited here. One whose id
 * the service never said is looked up among the mutes in force, by what it holds back; none
 * there is nothing to remove.
 */
export async function removeMute(
  client: CoreClient,
  idOrKey: string,
  options: ChangeOptions,
  target = madeUnseen.get(idOrKey),
): Promise<void> {
  const id = target ? (await client.inbox.mutes.list()).find((mute) => isMuteOf(mute, target))?.id : muteIdOf(idOrKey);
  if (id) await client.inbox.mutes.remove(id, options);
}

type SentListener = (account: string, entry: OutboxEntry, answer: unknown) => void;
const sentListeners = new Set<SentListener>();

/** Hears of every kept change that was sent after all, with the service's answer. */
export function whenSent(listener: SentListener): void {
  sentListeners.add(listener);
}

/** Sends a kept change with its own key: an inbox change through the inbox, a follow through the person. */
function sendEntry(client: CoreClient, entry: OutboxEntry): Promise<unknown> {
  const { kind, key, ids, until, username, mute, target } = entry;
  const options = { idempotencyKey: key };
  if (MUTES.includes(kind)) return client.inbox.mutes.add(target ?? { actor: '' }, until ?? null, options);
  if (UNMUTES.includes(kind)) return removeMute(client, mute ?? '', options, target);
  if (username !== undefined) return client.user(username)[kind as 'follow' | 'unfollow'](options);
  if (kind === 'snooze') return client.inbox.snooze(ids ?? [], until ?? '', options);
  return client.inbox[kind as 'markRead'](ids ?? [], options);
}

/**
 * Why a waiting change is not sent at all, or nothing when it still may be. The service keeps a
 * key's answer a day: past that only what is harmless to repeat goes.
 */
function stale({ kind, until, madeAt, username }: OutboxEntry, now: number): string | undefined {
  if (Date.parse(until ?? '') <= now) return MUTES.includes(kind) ? 'over' : 'woke';
  if (username !== undefined && now - madeAt > 86_400_000) return 'expired';
}

export interface Outbox {
  /**
   * Sends a change now with a key of its own; answered within about a second it is done, and the
   * answer comes back. Otherwise (no answer yet, or no way to the service) it is kept with that
   * key and the answer is `null`; an answer that comes later settles it. Any other failure is
   * thrown. With changes already waiting it is kept at once, behind them.
   */
  attempt<T>(
    change: Omit<OutboxEntry, 'key' | 'madeAt'>,
    send: (key: string) => Promise<T>,
  ): Promise<{ key: string; answer: T | null }>;
  /** Sends what waits, in order, as far as the service takes it. */
  flush(): Promise<void>;
  /** Takes a change out before it is sent, as Undo does; the change, if it was still waiting. */
  take(key: string): Promise<OutboxEntry | null>;
  entries(): Promise<OutboxEntry[]>;
  /** Forgets the lines about dropped changes (`all`: the waiting changes too, as when the account goes). */
  clear(all?: boolean): Promise<void>;
}

export interface OutboxOptions {
  clock: Clock;
  client(): Promise<CoreClient>;
  /** The origin of the account's API now; undefined once the account is gone. */
  origin(): Promise<string | undefined>;
  /** A kept change was sent after all, and answered. */
  onSent?(key: string, answer: unknown): void;
  signal?: AbortSignal;
}

/** Keys whose first attempt is still out: the sender waits for those, so nothing goes twice at once. */
const firstAttempts = new Set<string>();

export function createOutbox(account: string, { clock, client, origin, onSent, signal }: OutboxOptions): Outbox {
  const kept = outboxItem(account);
  let edits: Promise<unknown> = Promise.resolve();

  /** Changes to the stored outbox, one after another, so none is lost between a read and a write. */
  function edit<T>(change: (value: Kept) => T): Promise<T> {
    const next = edits.then(async () => {
      // A copy: the value read is the one in memory, which the write compares with.
      const value = structuredClone(await kept.getValue());
      const result = change(value);
      value.dropped = value.dropped.slice(-20);
      await kept.setValue(value);
      void broadcast('outbox.changed', { account });
      return result;
    });
    edits = next.catch(() => undefined);
    return next;
  }

  /**
   * Takes a change out: sent (`answer`), or not sent at all, with a line for the popup when `why`
   * says so. The unmutes waiting behind a mute that waited learn its id once it is sent, or what
   * it holds back when the service made it without saying its id; a mute that will never be made
   * leaves nothing for them to remove, so they go too, without a line.
   */
  const remove = (key: string, why?: string, answer?: unknown) =>
    edit((value) => {
      const { entries, dropped } = value;
      const at = entries.findIndex((entry) => entry.key === key);
      const [entry = null] = at < 0 ? [] : entries.splice(at, 1);
      if (entry && why && why !== 'over') {
        const { kind, ids = [1], username } = entry;
        dropped.push({ kind, why, count: ids.length, username, at: clock.now() });
      }
      if (entry && MUTES.includes(entry.kind)) {
        const { target } = entry;
        const id = (answer as { id?: string } | undefined)?.id;
        if (id) sentMutes.set(key, id);
        else if (!why && target) madeUnseen.set(key, target);
        if (why) value.entries = entries.filter((each) => !UNMUTES.includes(each.kind) || each.mute !== key);
        for (const each of value.entries) {
          if (each.mute !== key) continue;
          if (id) each.mute = id;
          else each.target = target;
        }
      }
      return entry;
    });

  /** A kept change the service took: out of the outbox, and those who wait on its answer told. */
  const sent = async (key: string, answer: unknown) => {
    const entry = await remove(key, undefined, answer);
    onSent?.(key, answer);
    if (entry) for (const listener of sentListeners) listener(account, entry, answer);
  };

  const settle = async (key: string, error: unknown) => {
    const result = outcome(error);
    // Done already: as sent, with no answer to tell.
    if (result === 'done') await sent(key, undefined);
    else if (result !== 'later') await remove(key, result);
    return result;
  };

  /**
   * Changes made at another API address than the account's now are dropped, with a line for each
   * kind: the service there has other ids, and may not be the one they were meant for.
   */
  function dropMoved(value: Kept, now: string | undefined) {
    if (now === undefined || value.origin === now) return;
    const at = clock.now();
    const lines: OutboxDropped[] = [];
    for (const { kind, ids = [1], username } of value.origin === undefined ? [] : value.entries.splice(0)) {
      const line = lines.find((each) => each.kind === kind && each.username === username);
      if (line) line.count += ids.length;
      else lines.push({ kind, why: 'moved', count: ids.length, username, at });
    }
    value.dropped.push(...lines);
    value.origin = now;
  }

  const forgetMoved = async () => {
    const now = await origin();
    const { origin: was, entries } = await kept.getValue();
    if (now !== undefined && was !== undefined && was !== now && entries.length > 0)
      await edit((value) => dropMoved(value, now));
  };

  const flush = oneAtATime(async () => {
    for (;;) {
      await forgetMoved();
      const [entry] = (await kept.getValue()).entries;
      if (!entry || firstAttempts.has(entry.key) || signal?.aborted) return;
      const why = stale(entry, clock.now());
      if (why) await remove(entry.key, why);
      else {
        try {
          const api = await client();
          if (signal?.aborted) return;
          await sent(entry.key, await sendEntry(api, entry));
        } catch (error) {
          if ((await settle(entry.key, error)) === 'later') return;
        }
      }
    }
  });

  // A runtime stopped (its account removed) keeps nothing more.
  const keep = async (entry: OutboxEntry, madeAt: Promise<string | undefined>) => {
    const at = await madeAt;
    return (
      signal?.aborted ||
      edit((value) => {
        const { entries, dropped } = value;
        // An unmute of a mute sent since it was asked for removes what the service made.
        if (entry.mute) entry.mute = muteIdOf(entry.mute);
        if (entries.length === 0) value.origin = at;
        else dropMoved(value, at);
        const over = entries.push(entry) - OUTBOX_LIMIT;
        if (over <= 0) return;
        entries.splice(0, over);
        const last = dropped.at(-1);
        if (last?.why === 'overflow') last.count += over;
        else dropped.push({ kind: entry.kind, why: 'overflow', count: over, at: clock.now() });
      })
    );
  };

  // A change kept before the worker stopped goes as soon as the service answers a check again.
  accountStatusItem(account).watch((status) => {
    if (status.kind === 'ok') void flush();
  }, signal ?? new AbortController().signal);

  return {
    async attempt(change, send) {
      const entry: OutboxEntry = { ...change, key: crypto.randomUUID(), madeAt: clock.now() };
      const { key } = entry;
      const held = { key, answer: null };
      // Where the change is sent, known before it goes: the account's address may change meanwhile.
      const madeAt = origin();
      if ((await kept.getValue()).entries.length > 0) {
        await keep(entry, madeAt);
        void flush();
        return held;
      }
      firstAttempts.add(key);
      const sending = send(key);
      let timer: unknown;
      try {
        const first = await Promise.race([
          sending.then((answer) => ({ key, answer })),
          new Promise<typeof held>((resolve) => {
            timer = clock.setTimeout(() => resolve(held), FIRST_ANSWER_MS);
          }),
        ]);
        if (first !== held) return first;
      } catch (error) {
        if (!keepsOnFailure(error)) throw error;
        await keep(entry, madeAt);
        return held;
      } finally {
        clock.clearTimeout(timer);
        firstAttempts.delete(key);
      }
      // No answer yet: kept, and the answer that comes settles it.
      firstAttempts.add(key);
      await keep(entry, madeAt);
      sending.then(
        async (answer) => {
          firstAttempts.delete(key);
          await sent(key, answer);
          // What was kept behind it may go now.
          void flush();
        },
        async (error: unknown) => {
          firstAttempts.delete(key);
          await settle(key, error);
          void flush();
        },
      );
      return held;
    },
    flush,
    take: (key) => remove(key),
    entries: async () => (await kept.getValue()).entries,
    clear: (all) =>
      edit((value) => {
        if (all) value.entries = [];
        value.dropped = [];
      }),
  };
}

/** What the popup shows of the accounts' outboxes: how many wait, which notifications, what was not sent. */
export async function outboxState(accounts: readonly string[]): Promise<OutboxState> {
  const state: OutboxState = { count: 0, ids: [], dropped: [] };
  for (const account of accounts) {
    const { entries, dropped } = await outboxItem(account).getValue();
    state.count += entries.length;
    for (const entry of entries) state.ids.push(...(entry.ids ?? []));
    for (const line of dropped) state.dropped.push({ ...line, account });
  }
  return state;
}
