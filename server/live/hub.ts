/**
 * The live channels open on this service instance, by user. The database's events (see
 * `events.ts`) arrive here and become frames: counts, coalesced to one per user per 100 ms with
 * the last value always sent; notifications, fetched once per arrival, to the channels whose
 * first count did not hold them already; and closes for tokens that ended. Client frames are
 * pings; anything else, too large or too frequent closes that channel only.
 */
import * as v from 'valibot';
import type { WebSocket } from 'ws';
import {
  type ByType,
  LIMITS,
  LIVE_CLOSE_CODES,
  LiveClientFrameSchema,
  type LiveServerFrame,
} from '../../lib/api/contract';
import { toWireNotification } from '../api/wire';
import type { Database } from '../db/database';
import { type LiveTicketOwner, liveChannelState } from '../store/live-tickets';
import { findNotification, NO_UNREAD, type UnreadCounts } from '../store/notifications';
import type { LiveEvent } from './events';
import { parseSnapshot, type Snapshot, sawTransaction } from './snapshot';

/** Count frames for one user are at most this often; the last change still goes out after it. */
export const COUNT_COALESCE_MS = 100;
/** Idle channels are looked for this often, so one silent for the limit is gone within it. */
const SWEEP_EVERY_MS = 5_000;
const IDLE_AFTER_MS = LIMITS.liveIdleSeconds * 1000 - SWEEP_EVERY_MS;
/** Client frames allowed per window: a ping every 20 s needs one, a reconnecting client a few. */
const FRAMES_PER_WINDOW = 10;
const FRAME_WINDOW_MS = 10_000;
/** A client that reads nothing while this much waits for it is not coming back. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** A close handshake the client does not finish in this time ends with the socket cut. */
const CLOSE_GRACE_MS = 2_000;
/** What a snapshot that could not be read counts as: it saw nothing, so every arrival is news. */
const SAW_NOTHING: Snapshot = { xmin: 0n, xmax: 0n, running: new Set() };

interface Channel {
  ws: WebSocket;
  owner: LiveTicketOwner;
  lastHeard: number;
  windowStart: number;
  framesInWindow: number;
  /** The snapshot of the channel's first count; null until it is read. */
  counted: Snapshot | null;
  /** A count event was heard before then: the first count may be older than the user's latest. */
  countHeard: boolean;
  /** Arrivals heard before then, with their transaction, kept until it is known whether it held them. */
  held: { xid: bigint; frame: LiveServerFrame }[];
}

interface UserChannels {
  channels: Set<Channel>;
  latest: UnreadCounts;
  /** The transaction that committed `latest`; null when its event named none. */
  latestXid: bigint | null;
  dirty: boolean;
  timer: NodeJS.Timeout | null;
}

export interface LiveHubOptions {
  db: Database;
  /** The site origin, for notification URLs. */
  origin: () => string;
  /** Milliseconds now; tests pass a clock of their own to make a channel idle at once. */
  now?: () => number;
}

export type LiveHub = ReturnType<typeof createLiveHub>;

export function createLiveHub(options: LiveHubOptions) {
  const { db } = options;
  const now = options.now ?? Date.now;
  const users = new Map<number, UserChannels>();
  let channelCount = 0;

  function send(channel: Channel, frame: LiveServerFrame) {
    const { ws } = channel;
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.terminate();
      return;
    }
    ws.send(JSON.stringify(frame));
  }

  function close(channel: Channel, code: number, reason: string) {
    const { ws } = channel;
    if (ws.readyState === ws.CLOSED) return;
    if (ws.readyState !== ws.CLOSING) ws.close(code, reason);
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  const countFrame = ({ unread, byType }: UnreadCounts): LiveServerFrame => ({ type: 'count', count: unread, byType });

  /**
   * Whether a channel's first count held what transaction `xid` committed. The news of a change
   * committed before that count was read can still reach this instance after the channel
   * registered. An event naming no transaction is news.
   */
  const countHeld = (channel: Channel, xid: bigint | null) =>
    xid !== null && channel.counted !== null && sawTransaction(channel.counted, xid);

  const sameCounts = (a: UnreadCounts, b: UnreadCounts) =>
    a.unread === b.unread &&
    (Object.keys(a.byType) as (keyof ByType)[]).every((type) => a.byType[type] === b.byType[type]);

  /**
   * The user's latest count, to each channel whose first count is out and did not already hold
   * it. Events come in the order their transactions committed, so once one is news to a channel
   * every later one is too.
   */
  function sendCount(entry: UserChannels) {
    for (const channel of entry.channels) {
      if (channel.counted !== null && !countHeld(channel, entry.latestXid)) send(channel, countFrame(entry.latest));
    }
  }

  function countChanged(userId: number, counts: UnreadCounts, xid: bigint | null) {
    const entry = users.get(userId);
    if (!entry) return;
    entry.latest = counts;
    entry.latestXid = xid;
    for (const channel of entry.channels) if (channel.counted === null) channel.countHeard = true;
    if (entry.timer) {
      entry.dirty = true;
      return;
    }
    sendCount(entry);
    const tick = () => {
      if (!entry.dirty) {
        entry.timer = null;
        return;
      }
      entry.dirty = false;
      sendCount(entry);
      entry.timer = setTimeout(tick, COUNT_COALESCE_MS);
    };
    entry.timer = setTimeout(tick, COUNT_COALESCE_MS);
  }

  async function notificationArrived(userId: number, id: string, xid: bigint | null) {
    const before = users.get(userId);
    if (!before || [...before.channels].every((channel) => countHeld(channel, xid))) return;
    const notification = await findNotification(db, userId, id).catch(() => null);
    const entry = users.get(userId);
    if (!notification || !entry) return;
    const frame: LiveServerFrame = {
      type: 'notification',
      notification: toWireNotification(notification, options.origin()),
    };
    for (const channel of entry.channels) {
      if (xid !== null && channel.counted === null) channel.held.push({ xid, frame });
      else if (!countHeld(channel, xid)) send(channel, frame);
    }
  }

  function tokenEnded(userId: number, tokenId: string) {
    for (const channel of users.get(userId)?.channels ?? []) {
      if (channel.owner.tokenId === tokenId) {
        close(channel, LIVE_CLOSE_CODES.unauthenticated, 'The token was revoked.');
      }
    }
  }

  function onEvent(event: LiveEvent) {
    if (event.kind === 'count') countChanged(event.user, { unread: event.count, byType: event.byType }, event.xid);
    else if (event.kind === 'notification') void notificationArrived(event.user, event.id, event.xid);
    else if (event.kind === 'revoked') tokenEnded(event.user, event.token);
  }

  function heard(channel: Channel, data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) {
    const at = now();
    if (at - channel.windowStart >= FRAME_WINDOW_MS) {
      channel.windowStart = at;
      channel.framesInWindow = 0;
    }
    channel.framesInWindow += 1;
    if (channel.framesInWindow > FRAMES_PER_WINDOW) {
      close(channel, LIVE_CLOSE_CODES.policyViolation, 'Too many frames; ping every 20 to 25 seconds.');
      return;
    }
    let frame: unknown;
    try {
      frame = isBinary ? undefined : JSON.parse(String(data));
    } catch {}
    if (!v.is(LiveClientFrameSchema, frame)) {
      close(channel, LIVE_CLOSE_CODES.policyViolation, 'The only client frame is {"type":"ping"}.');
      return;
    }
    channel.lastHeard = at;
    send(channel, { type: 'pong' });
  }

  function forget(channel: Channel) {
    const entry = users.get(channel.owner.userId);
    if (!entry?.channels.delete(channel)) return;
    channelCount -= 1;
    if (entry.channels.size === 0) {
      if (entry.timer) clearTimeout(entry.timer);
      users.delete(channel.owner.userId);
    }
  }

  /** Takes an upgraded socket for a redeemed ticket: the count at once, then every change. */
  function open(ws: WebSocket, owner: LiveTicketOwner) {
    const at = now();
    const channel: Channel = {
      ws,
      owner,
      lastHeard: at,
      windowStart: at,
      framesInWindow: 0,
      counted: null,
      countHeard: false,
      held: [],
    };
    let entry = users.get(owner.userId);
    if (!entry) {
      entry = { channels: new Set(), latest: NO_UNREAD, latestXid: null, dirty: false, timer: null };
      users.set(owner.userId, entry);
    }
    entry.channels.add(channel);
    channelCount += 1;
    ws.on('message', (data, isBinary) => heard(channel, data, isBinary));
    ws.on('close', () => forget(channel));
    // Oversize frames: ws closes with 1009 itself and reports the error here.
    ws.on('error', () => {});
    // Registered before this read, so a change committed meanwhile is heard as an event, and a
    // token revoked meanwhile is seen here. Arrivals heard until the read is back wait for it.
    liveChannelState(db, owner).then(
      ({ counts, tokenValid, snapshot }) => {
        const held = channel.held.splice(0);
        if (!tokenValid) {
          close(channel, LIVE_CLOSE_CODES.unauthenticated, 'The token was revoked.');
          return;
        }
        channel.counted = parseSnapshot(snapshot) ?? SAW_NOTHING;
        send(channel, countFrame(counts));
        // A count committed after this read was heard meanwhile: it is the newer one.
        const latest = users.get(owner.userId);
        if (channel.countHeard && latest && !countHeld(channel, latest.latestXid) && !sameCounts(latest.latest, counts))
          send(channel, countFrame(latest.latest));
        for (const { xid, frame } of held) if (!countHeld(channel, xid)) send(channel, frame);
      },
      () => {
        channel.held = [];
        close(channel, LIVE_CLOSE_CODES.tryAgainLater, 'The service cannot reach its database.');
      },
    );
  }

  function each(action: (channel: Channel) => void) {
    for (const entry of users.values()) for (const channel of entry.channels) action(channel);
  }

  /** Closes every channel silent for the idle limit; the number closed. */
  function sweepIdle(): number {
    const at = now();
    let closed = 0;
    each((channel) => {
      if (at - channel.lastHeard >= IDLE_AFTER_MS) {
        closed += 1;
        close(channel, LIVE_CLOSE_CODES.goingAway, `No frame for ${LIMITS.liveIdleSeconds} s.`);
      }
    });
    return closed;
  }
  const sweeper = setInterval(sweepIdle, SWEEP_EVERY_MS);
  sweeper.unref();

  /** The database connection that carries events dropped: channels would miss changes. */
  function lost() {
    each((channel) => close(channel, LIVE_CLOSE_CODES.tryAgainLater, 'The service lost its database; reconnect.'));
  }

  /** Closes every channel for a stop, waiting a moment for the clients to answer. */
  async function closeAll(): Promise<void> {
    clearInterval(sweeper);
    const closed: Promise<void>[] = [];
    each((channel) => {
      closed.push(new Promise((resolve) => channel.ws.once('close', () => resolve())));
      close(channel, LIVE_CLOSE_CODES.goingAway, 'The service is stopping.');
    });
    await Promise.all(closed);
  }

  return {
    open,
    onEvent,
    lost,
    sweepIdle,
    closeAll,
    /** Live channels open on this instance. */
    get channels() {
      return channelCount;
    },
    /** Live channels of one user open on this instance. */
    channelsOf: (userId: number) => users.get(userId)?.channels.size ?? 0,
  };
}
