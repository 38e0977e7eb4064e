/**
 * What the database tells live channels, through LISTEN/NOTIFY: the triggers of migration 4 send
 * a small JSON payload when a user's unread count changes, a notification arrives, or a token
 * ends. An arrival names the transaction that made it (migration 15), so a channel can tell
 * whether its first count already held it. One listening connection per service instance; when
 * it drops (a PostgreSQL restart), the instance says so and listens again until the database is
 * back.
 */
import * as v from 'valibot';
import { type ByType, ByTypeSchema } from '../../lib/api/contract';
import type { Database, Unlisten } from '../db/database';
import { parseXid } from './snapshot';

export type LiveEvent =
  /** `xid` is the transaction that committed the count; none from a trigger older than migration 16. */
  | { kind: 'count'; user: number; count: number; byType: ByType; xid: bigint | null }
  /** `xid` is the arriving transaction's; none from a trigger older than migration 15. */
  | { kind: 'notification'; user: number; id: string; xid: bigint | null }
  | { kind: 'revoked'; user: number; token: string }
  /** A snooze was made that wakes at `at`: the wake loops look whether it is their soonest. */
  | { kind: 'snoozed'; at: string };

export interface LiveEventHandlers {
  onEvent(event: LiveEvent): void;
  /** The listening connection dropped: events may be missed until `onListening` comes again. */
  onLost(): void;
  onListening(): void;
}

const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 5_000;

/** A payload as the triggers send it, or null when it is none of theirs. */
export function parseEvent(payload: string): LiveEvent | null {
  try {
    const event = JSON.parse(payload) as Record<string, unknown>;
    if (event.kind === 'snoozed' && typeof event.at === 'string') return { kind: 'snoozed', at: event.at };
    if (!Number.isInteger(event.user)) return null;
    const user = event.user as number;
    // A malformed xid is read as none: a count or an alert sent twice is better than one lost.
    if (event.kind === 'count' && Number.isInteger(event.count) && v.is(ByTypeSchema, event.byType))
      return { kind: 'count', user, count: event.count as number, byType: event.byType, xid: parseXid(event.xid) };
    if (event.kind === 'notification' && typeof event.id === 'string')
      return { kind: 'notification', user, id: event.id, xid: parseXid(event.xid) };
    if (event.kind === 'revoked' && typeof event.token === 'string')
      return { kind: 'revoked', user, token: event.token };
  } catch {}
  return null;
}

/** Listens until the returned stop is called; resolves once the first LISTEN holds. */
export async function listenForLiveEvents(db: Database, handlers: LiveEventHandlers): Promise<() => Promise<void>> {
  const channel = (await db.query<{ channel: string }>('SELECT live_channel(current_schema()) AS channel')).rows[0]
    ?.channel as string;
  let stopped = false;
  let unlisten: Unlisten | null = null;
  let retry: NodeJS.Timeout | undefined;
  let delay = RETRY_MIN_MS;

  const onPayload = (payload: string) => {
    const event = parseEvent(payload);
    if (event) handlers.onEvent(event);
  };

  function onLost() {
    unlisten = null;
    if (stopped) return;
    handlers.onLost();
    schedule();
  }

  function schedule() {
    retry = setTimeout(async () => {
      if (stopped) return;
      try {
        const stop = await db.listen(channel, onPayload, onLost);
        if (stopped) return void (await stop());
        unlisten = stop;
        delay = RETRY_MIN_MS;
        handlers.onListening();
      } catch {
        delay = Math.min(delay * 2, RETRY_MAX_MS);
        schedule();
      }
    }, delay);
    retry.unref();
  }

  unlisten = await db.listen(channel, onPayload, onLost);
  handlers.onListening();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await unlisten?.();
  };
}
