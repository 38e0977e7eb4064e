/**
 * The reference service of the Inbox API, as a library: `startServer` opens the database,
 * applies migrations, seeds demo data into an empty one, and serves the API under `/api` and
 * the web site beside it.
 *
 * ```ts
 * const service = await startServer({ port: 0, database: { memory: true } });
 * const token = service.demoTokens?.demo ?? (await service.admin.issueToken('demo'));
 * // … talk to service.apiBaseUrl …
 * await service.close();
 * ```
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createAdmin, type ServiceAdmin } from './admin';
import { createCursors } from './api/cursor';
import { createUndoTokens } from './api/undo-token';
import { API_PREFIX, createApp } from './app';
import { parseTrustProxy } from './client-address';
import { capConnectionsPerClient } from './connections';
import type { Database } from './db/database';
import { migrate } from './db/migrations';
import { type DatabaseOption, describeDatabase, openDatabase } from './db/open';
import { listenForLiveEvents } from './live/events';
import { createLiveHub } from './live/hub';
import { createLiveLimiter, DEFAULT_LIVE_LIMITS, type LiveLimits } from './live/limits';
import { createLiveUpgrade } from './live/upgrade';
import { startWakeLoop, type WakeLoop } from './live/wake-loop';
import { answerUnparsable, answerUnroutable, requireUsableHead } from './malformed';
import { createFormTokens } from './oauth/form-token';
import { type DemoActivity, startDemoActivity } from './seed/demo-activity';
import { seedDemoData, setDemoPasswords } from './seed/seed';
import { serviceKey } from './store/keys';
import type { SignInLimits } from './store/sign-in';

export type { NotificationInput, ServiceAdmin } from './admin';
export type { Database } from './db/database';
export type { DatabaseOption } from './db/open';
export { DEFAULT_LIVE_LIMITS, type LiveLimits } from './live/limits';
export { DEMO_PASSWORD, DEMO_USERNAME } from './seed/demo-data';

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_POLL_INTERVAL_SECONDS = 30;
/** How long `close()` lets requests in flight finish before it cuts their connections. */
const CLOSE_GRACE_MS = 10_000;
/** How often each instance removes what has outlived its undo window. */
const CLEAN_UP_INTERVAL_MS = 15_000;

/** How long a client may take to send its request, and how many connections the service holds. */
export interface ConnectionLimits {
  /** Milliseconds for the request line and headers. */
  headersTimeoutMs: number;
  /** Milliseconds for the whole request, body included; a client that stops sending is cut off then. */
  requestTimeoutMs: number;
  /** Milliseconds an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** How often the timeouts above are checked; a slow client is dropped at most this much late. */
  checkIntervalMs: number;
  /** Open connections at most; further ones are closed as they arrive. */
  maxConnections: number;
  /**
   * Open connections from one client address at most (an IPv6 client's /64); the next one is
   * answered 429 and closed as it arrives. Proxies named in `trustProxy` are not capped.
   */
  maxConnectionsPerClient: number;
}

/**
 * What a deployment behind no proxy would set: a request of this API is at most 64 KB, which
 * arrives in far less than 15 s on any working connection; Node's own defaults (300 s for a
 * request, checked every 30 s) let a few hundred stalled sockets hold the service for minutes.
 * A browser keeps about six connections to one site, a household or an office behind one
 * address a few dozen; one client holding 64 cannot hold the other 936.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
  maxConnections: 1_000,
  maxConnectionsPerClient: 64,
};

export interface ServerOptions {
  /** TCP port; 0 picks a free one. Default 8787. */
  port?: number;
  /** Address to listen on. Default 127.0.0.1. */
  host?: string;
  /** Where the data lives. Default PGlite in memory. */
  database?: DatabaseOption;
  /** Seed demo data into an empty database. Default true. */
  seed?: boolean;
  /** Seconds sent as `X-Poll-Interval` on `/inbox/count`. Default 30. */
  pollIntervalSeconds?: number;
  /** One line per request: true logs to stdout, a function receives the lines. Default off. */
  log?: boolean | ((line: string) => void);
  /** The origin people reach the service at, when not `http://{host}:{port}` (behind a proxy). */
  publicOrigin?: string;
  /** Timeouts and the connection cap; each left out keeps `DEFAULT_CONNECTION_LIMITS`. */
  connections?: Partial<ConnectionLimits>;
  /**
   * Live channels and tickets per user on this instance; each left out keeps `DEFAULT_LIVE_LIMITS`.
   * Channels together hold at most `CHANNEL_SHARE_OF_CONNECTIONS` of `connections.maxConnections` whatever these say.
   */
  live?: Partial<LiveLimits>;
  /**
   * The password seeded users sign in with on the site; default `demo`. Given, it is also set for
   * the demo people of data seeded before.
   */
  demoPassword?: string;
  /** Seeded users mention, reply to, like and follow `demo` about once every this many seconds. */
  demoActivitySeconds?: number;
  /**
   * Milliseconds now, for undo windows, the bounds of a snooze's `until` and the live channels'
   * idle and rate limits. Default `Date.now`; tests pass a clock they move. Snoozes wake by the
   * database's clock, which every instance shares.
   */
  now?: () => number;
  /**
   * Proxies in front of the service (addresses or blocks such as `10.0.0.0/8`): their own
   * connections are not capped per client, and the client they name in `X-Forwarded-For` is the
   * one the per-client limits count. Default none: the header is never believed.
   */
  trustProxy?: readonly string[];
  /** The sign-in form's limits where they differ from `DEFAULT_SIGN_IN_LIMITS` (`server/store/sign-in.ts`). */
  signIn?: Partial<SignInLimits>;
  /** Milliseconds the database has to answer `GET /health` before the instance reports itself unavailable. */
  healthTimeoutMs?: number;
}

export interface Snoozes {
  /** Notifications this instance has woken since it started. */
  readonly woken: number;
}

export interface LiveChannels {
  /** Live channels open on this instance. */
  readonly channels: number;
  /** Closes the channels silent for the idle limit now, rather than at the next regular look. */
  sweepIdle(): number;
}

export interface RunningServer {
  /** The web site's origin, such as `http://127.0.0.1:8787`; profile pages are `{origin}/@{username}`. */
  origin: string;
  /** The API base URL, `{origin}/api`. */
  apiBaseUrl: string;
  port: number;
  host: string;
  /** How the data is kept, for people: "PGlite in memory", "PostgreSQL at …". */
  databaseDescription: string;
  /** `{ username: token }` for every demo user, when this start seeded the database; else null. */
  demoTokens: Record<string, string> | null;
  /** Users, tokens and notifications, beside the API. */
  admin: ServiceAdmin;
  /** The database itself, for tests that need to look underneath. */
  database: Database;
  /** The Node HTTP server, for tools that watch connections and requests. */
  httpServer: Server;
  /** The live channels open on this instance. */
  live: LiveChannels;
  /** This instance's share of waking snoozed notifications. */
  snoozes: Snoozes;
  /** Stops accepting connections, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
}

/** A command a person can paste to see the API answer for the user of `token`. */
export const curlExample = (apiBaseUrl: string, token: string) =>
  `curl -H 'Authorization: Bearer ${token}' ${apiBaseUrl}/inbox/count`;

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Requests the app is handling, and a way to wait until there are none. */
function requestsInFlight() {
  let count = 0;
  let idle: (() => void) | undefined;
  return {
    started() {
      count++;
    },
    ended() {
      count--;
      if (count === 0) idle?.();
    },
    /** Resolves once no request is being handled, or after `ms`. */
    async settled(ms: number): Promise<void> {
      if (count === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        idle = resolve;
        timer = setTimeout(resolve, ms);
      });
      clearTimeout(timer);
    },
  };
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  const databaseOption = options.database ?? { memory: true };
  const log =
    options.log === true ? (line: string) => console.log(line) : options.log === false ? undefined : options.log;

  const now = options.now ?? Date.now;
  const trustProxy = parseTrustProxy(options.trustProxy ?? []);
  const db = await openDatabase(databaseOption);
  let demoTokens: Record<string, string> | null = null;
  let origin = '';
  let closing: Promise<void> | undefined;
  let server: Server;
  // A handler goes on after its client hangs up; close() waits for it before closing the database.
  const handling = requestsInFlight();
  let listening = false;
  const hub = createLiveHub({ db, origin: () => origin, now: options.now });
  let stopListening = async () => {};
  let liveUpgrade: ReturnType<typeof createLiveUpgrade>;
  let activity: DemoActivity | null = null;
  let wake: WakeLoop | null = null;
  try {
    await migrate(db);
    const cursors = createCursors(await serviceKey(db, 'cursor'));
    const undoTokens = createUndoTokens(await serviceKey(db, 'undo'));
    const formTokens = createFormTokens(await serviceKey(db, 'authorize-form'));
    if (options.seed ?? true) demoTokens = await seedDemoData(db, Date.now(), options.demoPassword);
    if (options.demoPassword !== undefined && demoTokens === null) await setDemoPasswords(db, options.demoPassword);
    stopListening = await listenForLiveEvents(db, {
      onEvent(event) {
        if (event.kind === 'snoozed') void wake?.look();
        else hub.onEvent(event);
      },
      onLost() {
        listening = false;
        hub.lost();
      },
      onListening() {
        listening = true;
        // Snoozes made while this instance heard nothing may wake sooner than it thinks.
        void wake?.look();
      },
    });
    // After listening starts, so a snooze made meanwhile is heard; the first look wakes what
    // came due while no instance ran, before this one answers anything.
    wake = startWakeLoop(db, log);
    await wake.look();
    const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connections };
    const liveLimiter = createLiveLimiter({
      limits: { ...DEFAULT_LIVE_LIMITS, ...options.live },
      maxConnections: limits.maxConnections,
      channels: hub,
      now,
    });
    const app = createApp({
      db,
      cursors,
      undoTokens,
      formTokens,
      now,
      origin: () => origin,
      pollIntervalSeconds: options.pollIntervalSeconds ?? DEFAULT_POLL_INTERVAL_SECONDS,
      trustProxy,
      liveLimiter,
      signIn: options.signIn,
      log,
      closing: () => closing !== undefined,
      healthTimeoutMs: options.healthTimeoutMs,
      handling,
    });
    const listener = requireUsableHead(getRequestListener(app.fetch, { errorHandler: answerUnroutable }));
    server = createServer(
      {
        requireHostHeader: false,
        headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
        requestTimeout: limits.requestTimeoutMs,
        keepAliveTimeout: limits.keepAliveTimeoutMs,
        connectionsCheckingInterval: limits.checkIntervalMs,
      },
      listener,
    );
    server.maxConnections = limits.maxConnections;
    capConnectionsPerClient(server, { max: limits.maxConnectionsPerClient, trustProxy, log });
    server.on('clientError', answerUnparsable(log));
    liveUpgrade = createLiveUpgrade({
      db,
      hub,
      limiter: liveLimiter,
      path: `${API_PREFIX}/inbox/live`,
      listening: () => listening && closing === undefined,
      listener,
      log,
    });
    server.on('upgrade', liveUpgrade.upgrade);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? DEFAULT_PORT, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    if (options.demoActivitySeconds) activity = startDemoActivity(db, options.demoActivitySeconds);
  } catch (error) {
    await wake?.stop();
    await stopListening().catch(() => {});
    await hub.closeAll();
    await db.close().catch(() => {});
    throw error;
  }

  const port = (server.address() as AddressInfo).port;
  origin = (options.publicOrigin ?? `http://${urlHost(host)}:${port}`).replace(/\/$/, '');
  const admin = createAdmin(db, now);

  let cleaning: Promise<unknown> | null = null;
  const cleanUp = setInterval(() => {
    cleaning ??= admin
      .purgeExpired()
      .catch((error) => log?.(`clean-up failed: ${(error as Error).message}`))
      .finally(() => {
        cleaning = null;
      });
  }, CLEAN_UP_INTERVAL_MS);
  cleanUp.unref();

  function close(): Promise<void> {
    closing ??= (async () => {
      clearInterval(cleanUp);
      activity?.stop();
      await hub.closeAll();
      await liveUpgrade.close();
      await stopListening();
      await wake?.stop();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.closeAllConnections();
        }, CLOSE_GRACE_MS);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      await handling.settled(CLOSE_GRACE_MS);
      await cleaning;
      await db.close();
    })();
    return closing;
  }

  return {
    origin,
    apiBaseUrl: `${origin}${API_PREFIX}`,
    port,
    host,
    databaseDescription: describeDatabase(databaseOption),
    demoTokens,
    admin,
    database: db,
    httpServer: server,
    live: {
      get channels() {
        return hub.channels;
      },
      sweepIdle: hub.sweepIdle,
    },
    snoozes: {
      get woken() {
        return wake?.woken ?? 0;
      },
    },
    close,
  };
}
