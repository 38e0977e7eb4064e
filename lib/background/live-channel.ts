/**
 * The live channel in the background: opened while signed in (a new ticket each time), kept
 * alive with a ping every 20–25 s, and the badge set from its count frames at once. While it is
 * healthy the poll alarm is only a five-minute safety net; when it drops, it reconnects with
 * exponential backoff and jitter and the poller checks as usual meanwhile; a ticket refused with
 * Retry-After (too many channels, too many tickets, a full service) is asked for again no sooner.
 * An account has one channel at a time: no attempt starts while one is open or opening, and an
 * attempt overtaken by a sign-out or another token closes what it opened before the next starts.
 * A refused token (a 401 ticket answer or close code 4401) leaves the badge in the same state a
 * refused poll does: the token is kept, and the person is asked to sign in again.
 */
import { browser } from 'wxt/browser';
import {
  type ApiError,
  LIVE_CLOSE_CODES,
  type LiveChannel,
  type Notification,
  reviveError,
  UnauthenticatedError,
} from '../api';
import { retryAfter } from '../failure';
import { broadcast, type ConnectionStatus } from '../messaging';
import { oneAtATime } from '../one-at-a-time';
import { hasApiPermission } from '../permissions';
import { PING_MAX_MS, PING_MIN_MS, reconnectDelay } from '../poll-schedule';
import type { Session } from './api-session';
import { type Clock, realClock } from './clock';
import type { Notifier } from './notifier';
import type { Poller } from './poller';
import { statusWriter } from './status-writer';
import { unreadByTypeItem } from './stored-items';

/** Wakes the worker for a reconnection should the browser stop it while it waits. */
export const LIVE_ALARM_PREFIX = 'live-reconnect:';
export const liveAlarmName = (accountId: string) => `${LIVE_ALARM_PREFIX}${accountId}`;
/** A ping not answered within this is a channel the network lost without telling. */
export const PONG_TIMEOUT_MS = 10_000;

/**
 * The channel needs a WebSocket class, and a background that lives while it is open: Chrome's
 * worker does while its WebSocket talks, and Firefox's MV2 background page always does.
 */
export function canHoldChannel(WebSocket: unknown = globalThis.WebSocket): boolean {
  return typeof WebSocket === 'function';
}

export interface LiveOptions {
  session: Session;
  poller: Poller;
  notifier: Notifier;
  clock?: Clock;
  random?: () => number;
  /** Whether this background can hold the channel; see `canHoldChannel`. */
  supported: boolean;
  /** Aborting it closes the channel for good: no attempt, no reconnection follows. */
  signal?: AbortSignal;
}

export interface LiveUpdates {
  /** True while the channel is open and its count is on the badge. */
  isLive(): boolean;
  /** Follows a check's outcome: opens the channel when signed in, closes it when not. */
  follow(status: ConnectionStatus): void;
  /** Opens the channel if it should be open and is not, as when the worker starts. */
  connect(): Promise<void>;
  /** The reconnection alarm fired. */
  onAlarm(): void;
}

/**
 * Milliseconds before reconnection attempt `failures + 1`: the backoff, and when the service
 * asked for a wait, that wait plus up to half of it again, so that the clients it told the same
 * do not all come back at one moment.
 */
function reconnectWait(failures: number, retryAfterSeconds: number | null, random: () => number): number {
  const backoff = reconnectDelay(failures, random);
  if (!retryAfterSeconds || retryAfterSeconds <= 0) return backoff;
  const asked = retryAfterSeconds * 1000;
  return Math.max(backoff, Math.round(asked + (random() * asked) / 2));
}

const accountKey = (apiBaseUrl: string, token: string) => `${apiBaseUrl} ${token}`;

/** A status in which no channel should be open: nobody to open it for, or a token refused. */
const STOPPED: ReadonlySet<ConnectionStatus['kind']> = new Set(['signedOut', 'unauthorized', 'noPermission']);

export function createLiveUpdates(options: LiveOptions): LiveUpdates {
  const { session, poller, notifier } = options;
  const clock = options.clock ?? realClock;
  const random = options.random ?? Math.random;
  const LIVE_ALARM = liveAlarmName(session.accountId);
  const { get: getStatus, set: setStatus, showLiveCount, setLiveMode, getLiveMode } = statusWriter(session.accountId);
  let channel: LiveChannel | null = null;
  /** The address and token the channel was opened for: another sign-in needs another channel. */
  let openedFor: string | null = null;
  /** The attempt under way, if any, and the address and token it was made for once known. */
  let connecting: number | null = null;
  let connectingFor: string | null = null;
  /** Someone asked for a channel while an overtaken attempt was finishing: open one after it. */
  let reopen = false;
  let live = false;
  let failures = 0;
  /** Bumped on every close or stop, so that the answer to an older attempt is dropped. */
  let generation = 0;
  let reconnectAt: number | null = null;
  let reconnectTimer: unknown = null;
  let pingTimer: unknown = null;
  let pongTimer: unknown = null;
  const stopped = () => options.signal?.aborted ?? false;

  const clear = (timer: unknown) => {
    if (timer !== null) clock.clearTimeout(timer);
  };

  function clearTimers() {
    clear(pingTimer);
    clear(pongTimer);
    pingTimer = pongTimer = null;
  }

  function cancelReconnect() {
    reopen = false;
    clear(reconnectTimer);
    reconnectTimer = reconnectAt = null;
    void browser.alarms.clear(LIVE_ALARM);
  }

  /** Closes the channel, if any, and forgets it; a close event it sends later is not heard. */
  function disconnect() {
    generation += 1;
    clearTimers();
    const open = channel;
    channel = openedFor = null;
    live = false;
    open?.close();
  }

  function scheduleReconnect(retryAfterSeconds: number | null) {
    const delay = reconnectWait(failures, retryAfterSeconds, random);
    failures += 1;
    reconnectAt = clock.now() + delay;
    clear(reconnectTimer);
    reconnectTimer = clock.setTimeout(() => {
      reconnectTimer = reconnectAt = null;
      void connect();
    }, delay);
    // The timer is lost if the browser stops the worker while it waits; the alarm wakes it again.
    void browser.alarms.create(LIVE_ALARM, { when: reconnectAt });
  }

  /**
   * The channel dropped or could not open: try again later, and poll as before the channel
   * meanwhile. A channel that was carrying the count is replaced by a check at once (the poll
   * alarm was only a safety net); a failed attempt leaves the poller's own schedule as it is.
   * The next attempt is set before anything is awaited, so a check that succeeds meanwhile
   * finds it set and cannot start another sooner.
   */
  async function dropped(wasOpen: boolean, retryAfterSeconds: number | null = null) {
    live = false;
    scheduleReconnect(retryAfterSeconds);
    await setLiveMode('reconnecting');
    if (wasOpen) await poller.poll();
  }

  /** The token was refused: what a refused poll shows, and no new attempt until a check succeeds. */
  async function refused(error: ApiError) {
    disconnect();
    cancelReconnect();
    await setLiveMode('off');
    const { count, checkedAt } = await getStatus();
    await setStatus({ kind: 'unauthorized', count, checkedAt, nextCheckAt: null, detail: error.detail || null });
    await poller.poll();
  }

  function schedulePing(current: LiveChannel) {
    pingTimer = clock.setTimeout(
      () => {
        if (current !== channel) return;
        current.ping();
        pongTimer = clock.setTimeout(() => {
          if (current !== channel) return;
          disconnect();
          void dropped(true);
        }, PONG_TIMEOUT_MS);
      },
      PING_MIN_MS + random() * (PING_MAX_MS - PING_MIN_MS),
    );
  }

  /**
   * Counts that come while one is being put on show wait for it, and only the newest follows,
   * unless its channel has closed meanwhile. A count that only confirms the one on show, as the
   * frame after a triage action here does, writes nothing.
   */
  const onCount = oneAtATime(async (count: number, attempt: number) => {
    if (attempt !== generation) return;
    const becameLive = !live;
    live = true;
    const shown = await getStatus();
    if (!becameLive && shown.kind === 'ok' && shown.count === count) return;
    const nextCheckAt = becameLive ? await poller.slowDown() : shown.nextCheckAt;
    await setLiveMode('live');
    await showLiveCount({ kind: 'ok', count, checkedAt: clock.now(), nextCheckAt, detail: null });
  });

  async function onNotification(notification: Notification) {
    void broadcast('inbox.arrived', { ids: [notification.id] });
    await notifier.onArrival(notification, (await session.client()).settings).catch(() => undefined);
  }

  function attach(current: LiveChannel, attempt: number) {
    channel = current;
    current.on('count', (count) => {
      if (attempt === generation) void onCount(count, attempt);
    });
    current.on('countByType', (byType) => {
      if (attempt === generation) void unreadByTypeItem(session.accountId).setValue(byType);
    });
    current.on('notification', (notification) => {
      if (attempt === generation) void onNotification(notification);
    });
    current.on('pong', () => {
      if (attempt !== generation) return;
      // A pong proves the channel works end to end: the next drop starts the backoff afresh.
      failures = 0;
      clear(pongTimer);
      pongTimer = null;
      schedulePing(current);
    });
    current.on('close', ({ code, reason }) => {
      if (attempt !== generation) return;
      channel = null;
      clearTimers();
      if (code === LIVE_CLOSE_CODES.unauthenticated) {
        void refused(new UnauthenticatedError({ status: 401, code: 'unauthenticated', detail: reason }));
      } else {
        void dropped(true);
      }
    });
    schedulePing(current);
  }

  /** One attempt: attaches the channel it opens; its failure, or null when it opened or had nothing to do. */
  async function attempt(current: number): Promise<ApiError | null> {
    try {
      const { client, settings } = await session.client();
      const token = await session.token();
      if (!token || !(await hasApiPermission(settings))) return null;
      connectingFor = accountKey(settings.apiBaseUrl, token);
      const opened = await client.inbox.live();
      if (current !== generation || stopped()) {
        opened.close();
        return null;
      }
      attach(opened, current);
      openedFor = connectingFor;
      return null;
    } catch (caught) {
      return reviveError(caught);
    }
  }

  async function connect(): Promise<void> {
    if (stopped() || !options.supported || channel || reconnectTimer !== null) return;
    if (connecting !== null) {
      if (connecting !== generation) reopen = true;
      return;
    }
    const current = ++generation;
    connecting = current;
    const failure = await attempt(current);
    connecting = connectingFor = null;
    if (current !== generation) {
      // Overtaken while it opened: what it opened is closed, and a channel still wanted opens now.
      if (reopen) {
        reopen = false;
        await connect();
      }
      return;
    }
    if (failure instanceof UnauthenticatedError) await refused(failure);
    else if (failure) await dropped(false, retryAfter(failure));
  }

  async function follow(status: ConnectionStatus): Promise<void> {
    if (!options.supported) {
      await setLiveMode(STOPPED.has(status.kind) ? 'off' : 'unavailable');
      return;
    }
    if (STOPPED.has(status.kind)) {
      disconnect();
      cancelReconnect();
      await setLiveMode('off');
      return;
    }
    const current = channel;
    const madeFor = current ? openedFor : connectingFor;
    if (madeFor !== null) {
      const { settings } = await session.client();
      const token = await session.token();
      const key = token === null ? null : accountKey(settings.apiBaseUrl, token);
      // Another follow may have replaced the channel meanwhile; only the one looked at is judged.
      if (current && current === channel && key !== openedFor) disconnect();
      else if (!current && connecting !== null && connecting === generation && key !== connectingFor) generation += 1;
    }
    await connect();
  }

  options.signal?.addEventListener(
    'abort',
    () => {
      disconnect();
      cancelReconnect();
    },
    { once: true },
  );

  return {
    isLive: () => live,
    follow: (status) => void follow(status),
    async connect() {
      // The worker may have been stopped while live: until a channel is open again, it is not.
      if ((await getLiveMode()) === 'live') await setLiveMode('reconnecting');
      await connect();
    },
    onAlarm() {
      if (reconnectAt !== null && clock.now() < reconnectAt) return;
      clear(reconnectTimer);
      reconnectTimer = reconnectAt = null;
      void connect();
    },
  };
}
