/**
 * Live updates, on the service's side: idle live channels on one service process (resident
 * memory per channel), the time from one operator call to the count frame on every channel of
 * that user, and one change of many users' counts fanned out to a channel of each.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { createInterface, type Interface } from 'node:readline';
import * as v from 'valibot';
import WebSocket from 'ws';
import { createClient } from '../lib/api';
import { LiveServerFrameSchema, LiveTicketSchema } from '../lib/api/contract';
import { LIVE_SAFETY_NET_SECONDS, PING_MAX_MS, PING_MIN_MS, regularInterval } from '../lib/poll-schedule';
import { startServer } from '../server/index';
import type { E2EProduct } from '../test/e2e/support/product';
import { BACKEND_NAMES, type Backend, benchBackends } from './support/backends';
import type { Figure, Section } from './support/report';
import { median, percentile } from './support/stats';

export interface LiveServiceOptions {
  /** Idle channels held open at once. */
  channels: number;
  /** Users they belong to, round robin; also the channels a broadcast reaches. */
  users: number;
  /** Operator calls timed to every channel of one user. */
  arrivals: number;
}

export const LIVE_SERVICE_DEFAULTS: LiveServiceOptions = { channels: 10_000, users: 1_000, arrivals: 50 };

/** A fan-out that takes longer than this has lost a frame: the run stops rather than hangs. */
const FAN_OUT_LIMIT_MS = 30_000;
/** Channels opened at once while the bench builds up its idle channels. */
const OPENING_CONCURRENCY = 50;

interface LiveProcess {
  apiBaseUrl: string;
  operatorToken: string;
  tokens: string[];
  ask<T>(command: string): Promise<T>;
  stop(): Promise<void>;
}

async function startLiveProcess(backend: Backend, users: number): Promise<LiveProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/support/live-process.ts', backend, String(users)],
    { stdio: ['pipe', 'pipe', 'inherit'], env: process.env },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines: Interface = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const answers: ((line: string) => void)[] = [];
  const first = new Promise<string>((resolve, reject) => {
    answers.push(resolve);
    child.once('exit', (code) => reject(new Error(`The service process stopped (${code}) before it served.`)));
  });
  lines.on('line', (line) => answers.shift()?.(line));
  const ready = JSON.parse(await first) as Pick<LiveProcess, 'apiBaseUrl' | 'operatorToken' | 'tokens'>;
  return {
    ...ready,
    ask<T>(command: string) {
      const answer = new Promise<T>((resolve) => answers.push((line) => resolve(JSON.parse(line) as T)));
      child.stdin?.write(`${command}\n`);
      return answer;
    },
    async stop() {
      child.stdin?.end();
      await exited;
    },
  };
}

/** One open channel that keeps the last count it heard and wakes whoever waits for a change. */
interface Channel {
  ws: WebSocket;
  count: number;
  waiters: ((count: number) => void)[];
}

async function openChannel(service: LiveProcess, token: string): Promise<Channel> {
  const response = await fetch(`${service.apiBaseUrl}/inbox/live/ticket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const { ticket } = v.parse(LiveTicketSchema, await response.json());
  const ws = new WebSocket(`${service.apiBaseUrl.replace(/^http/, 'ws')}/inbox/live?ticket=${ticket}`);
  const channel: Channel = { ws, count: -1, waiters: [] };
  // Held open as the extension holds it: a ping every 20–25 s, or the service drops it as idle.
  const keepAlive = setInterval(() => ws.send('{"type":"ping"}'), 20_000 + Math.random() * 5_000);
  ws.once('close', () => clearInterval(keepAlive));
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      const frame = v.parse(LiveServerFrameSchema, JSON.parse(String(data)));
      if (frame.type !== 'count') return;
      channel.count = frame.count;
      if (channel.waiters.length > 0) for (const wake of channel.waiters.splice(0)) wake(frame.count);
      resolve();
    });
    ws.once('error', reject);
  });
  return channel;
}

/** `count` channels, the `from`-th on, round robin over the first `users` tokens, a batch at a time. */
async function openChannels(service: LiveProcess, from: number, count: number, users: number): Promise<Channel[]> {
  const channels: Channel[] = [];
  for (let start = 0; start < count; start += OPENING_CONCURRENCY) {
    const batch = Array.from({ length: Math.min(OPENING_CONCURRENCY, count - start) }, (_, i) =>
      openChannel(service, service.tokens[(from + start + i) % users] as string),
    );
    channels.push(...(await Promise.all(batch)));
  }
  return channels;
}

interface Memory {
  rss: number;
  heap: number;
  channels: number;
}

const nextCount = (channel: Channel) => new Promise<number>((resolve) => channel.waiters.push(resolve));

/** Milliseconds from `act` until every channel heard a new count. */
async function fanOut(channels: readonly Channel[], act: () => Promise<unknown>): Promise<number> {
  const heard = Promise.all(channels.map(nextCount));
  const started = performance.now();
  await act();
  let giveUp: NodeJS.Timeout | undefined;
  const tooLate = new Promise<never>((_, reject) => {
    giveUp = setTimeout(
      () => reject(new Error(`Not every channel heard the change in ${FAN_OUT_LIMIT_MS} ms.`)),
      FAN_OUT_LIMIT_MS,
    );
  });
  await Promise.race([heard, tooLate]).finally(() => clearTimeout(giveUp));
  return performance.now() - started;
}

async function measureOn(backend: Backend, options: LiveServiceOptions) {
  const service = await startLiveProcess(backend, options.users);
  const channels: Channel[] = [];
  try {
    // Memory is read at half the channels and at all of them: the slope between the two leaves
    // out what the process allocated (or gave back) once, which at the start dwarfs a channel.
    const half = Math.floor(options.channels / 2);
    channels.push(...(await openChannels(service, 0, half, options.users)));
    const before = await service.ask<Memory>('memory');
    channels.push(...(await openChannels(service, half, options.channels - half, options.users)));
    const after = await service.ask<Memory>('memory');
    if (after.channels !== options.channels) {
      throw new Error(`${after.channels} channels open on the service; expected ${options.channels}.`);
    }

    const firstUser = channels.filter((_, index) => index % options.users === 0);
    const arrivals: number[] = [];
    for (let i = 0; i < options.arrivals; i++) {
      arrivals.push(
        await fanOut(firstUser, () =>
          fetch(`${service.apiBaseUrl}/operator/notifications`, {
            method: 'POST',
            headers: { authorization: `Bearer ${service.operatorToken}`, 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'live_1', type: 'mention', text: `Arrival ${i}` }),
          }).then((response) => response.arrayBuffer()),
        ),
      );
      // Apart by more than the coalescing window, so each arrival is its own count frame.
      await new Promise((resolve) => setTimeout(resolve, 150));
    }

    const onePerUser = channels.slice(0, options.users);
    const broadcast = await fanOut(onePerUser, () => service.ask('broadcast'));

    return {
      memoryPerChannel: (after.rss - before.rss) / (options.channels - half),
      heapPerChannel: (after.heap - before.heap) / (options.channels - half),
      arrivals,
      broadcast,
      memory: { before, after },
      channelsOfFirstUser: firstUser.length,
    };
  } finally {
    for (const channel of channels) channel.ws.terminate();
    await service.stop();
  }
}

/** Figures of one part of the live area, merged into its section. */
export interface LivePart {
  figures: Figure[];
  details: Record<string, unknown>;
}

export async function measureLiveService(options: LiveServiceOptions = LIVE_SERVICE_DEFAULTS): Promise<LivePart> {
  const figures: Figure[] = [];
  const details: Record<string, unknown> = { ...options };
  for (const backend of benchBackends()) {
    const result = await measureOn(backend, options);
    const name = BACKEND_NAMES[backend];
    const perUser = result.channelsOfFirstUser;
    figures.push(
      {
        name: `${name}: resident memory per idle channel`,
        value: Math.round(result.memoryPerChannel),
        unit: 'bytes',
        how: `growth of the service's RSS (after GC) from ${(options.channels / 2).toLocaleString('en-US')} to ${options.channels.toLocaleString('en-US')} channels`,
      },
      {
        name: `${name}: JS heap and buffers per idle channel`,
        value: Math.round(result.heapPerChannel),
        unit: 'bytes',
        how: 'heapUsed + external, the same channels',
      },
      {
        name: `${name}: operator call → count on all ${perUser} channels of its user, median`,
        value: median(result.arrivals),
        unit: 'ms',
        how: `${options.arrivals} calls, ${options.channels.toLocaleString('en-US')} channels open`,
      },
      {
        name: `${name}: operator call → count on all ${perUser} channels of its user, p99`,
        value: percentile(result.arrivals, 99),
        unit: 'ms',
        target: 1000,
        how: `${options.arrivals} calls, ${options.channels.toLocaleString('en-US')} channels open`,
      },
      {
        name: `${name}: one change → count on ${options.users.toLocaleString('en-US')} channels of as many users`,
        value: result.broadcast,
        unit: 'ms',
        target: 1000,
        how: 'one statement notifies every user',
      },
    );
    details[backend] = result;
  }
  return { figures, details };
}

/*
 * The extension's side. In Chrome and in Firefox with the built extension: from an operator call
 * making a notification to the toolbar badge changing, against the polling baseline of the same
 * run (a notification waits for the next check, uniformly within the poll interval). In Node
 * against the real service: what an idle hour costs live and polling, computed from the bytes one
 * ping, one check of the count and one channel opening take on the wire.
 */

export interface LiveBadgeOptions {
  /** Notifications made through the operator API, one at a time. */
  arrivals: number;
}

export const LIVE_BADGE_DEFAULTS: LiveBadgeOptions = { arrivals: 50 };

/** The browsers the badge is timed in, as the table names them. */
export type BadgeBrowser = 'Chrome' | 'Firefox';

/** One browser's arrivals on the badge. */
export interface LiveBadgePart {
  browser: BadgeBrowser;
  samples: number[];
}

const HOUR_MS = 3_600_000;
/** The extension's default poll interval (`DEFAULT_SETTINGS.pollIntervalSeconds`), which the product signs in with. */
const POLL_SECONDS = 60;

declare global {
  var __inboxBenchLiveBadge: Promise<number> | undefined;
}

/** Starts watching the badge where the extension's APIs are; Firefox's MV2 build names it `browserAction`. */
function watchBadge(product: E2EProduct) {
  return product.worker.evaluate(() => {
    const button = chrome.action ?? chrome.browserAction;
    globalThis.__inboxBenchLiveBadge = (async () => {
      const before = await button.getBadgeText({});
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        if ((await button.getBadgeText({})) !== before) return performance.timeOrigin + performance.now();
      }
      return Number.NaN;
    })();
  });
}

async function waitUntilLive(product: E2EProduct): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await product.badgeTitle()).includes('Live:')) {
    if (Date.now() > deadline) throw new Error(`The badge did not go live: ${await product.badgeTitle()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Operator call → badge text changed, in the product's browser, with no alarm fired. */
export async function measureLiveBadge(
  product: E2EProduct,
  browser: BadgeBrowser,
  options: LiveBadgeOptions = LIVE_BADGE_DEFAULTS,
): Promise<LiveBadgePart> {
  await waitUntilLive(product);
  const operator = await product.service.server.admin.issueOperatorToken();
  const samples: number[] = [];
  for (let i = 0; i < options.arrivals; i++) {
    await watchBadge(product);
    const sentAt = performance.timeOrigin + performance.now();
    const answer = await fetch(`${product.service.apiBaseUrl}/operator/notifications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', type: 'mention', text: `Arrival ${i}`, actor: 'alice' }),
    });
    if (answer.status !== 201) throw new Error(`The operator call answered ${answer.status}.`);
    const changedAt = await product.worker.evaluate(() => globalThis.__inboxBenchLiveBadge);
    if (!Number.isFinite(changedAt)) throw new Error(`The badge did not change after an operator call in ${browser}.`);
    samples.push((changedAt as number) - sentAt);
  }
  return { browser, samples };
}

/**
 * The arrivals of every browser measured, side by side (each browser's median, then each one's
 * p99), and the polling baseline against the first.
 */
function badgeFigures(parts: readonly LiveBadgePart[]): Figure[] {
  const first = parts[0];
  if (!first) return [];
  const how = (part: LiveBadgePart) => `${part.samples.length} arrivals`;
  const interval = regularInterval({ intervalSeconds: POLL_SECONDS, hintSeconds: null }) * 1000;
  return [
    ...parts.map(
      (part): Figure => ({
        name: `arrival → badge, ${part.browser}, live`,
        value: median(part.samples),
        unit: 'ms',
        how: `median of ${how(part)}`,
      }),
    ),
    ...parts.map(
      (part): Figure => ({
        name: `arrival → badge p99, ${part.browser}, live`,
        value: percentile(part.samples, 99),
        unit: 'ms',
        how: `p99 of ${how(part)}`,
        target: 1000,
      }),
    ),
    // Polling: a notification waits from its arrival, uniform in the interval, to the next check.
    { name: 'arrival → badge, polling', value: interval / 2, unit: 'ms', how: `median, ${POLL_SECONDS} s poll` },
    { name: 'arrival → badge p99, polling', value: interval * 0.99, unit: 'ms', how: `p99, ${POLL_SECONDS} s poll` },
    {
      name: `polling ÷ live, median, ${first.browser}`,
      value: interval / 2 / median(first.samples),
      unit: 'ratio',
      how: 'same run',
    },
  ];
}

const wire = (sockets: Set<Socket>) =>
  [...sockets].reduce((sum, socket) => sum + socket.bytesRead + socket.bytesWritten, 0);

/** Bytes both ways, request lines, headers and frames, of what `work` sends and receives. */
async function bytesOf(sockets: Set<Socket>, work: () => Promise<unknown>): Promise<number> {
  const before = wire(sockets);
  await work();
  // The server's socket counts what it wrote once the write is done; let it settle.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return wire(sockets) - before;
}

/** An idle hour, live against polling: requests and wire bytes from measured unit costs. */
export async function measureLiveIdleHour(): Promise<LivePart> {
  const server = await startServer({ port: 0, database: { memory: true }, seed: false });
  const sockets = new Set<Socket>();
  server.httpServer.on('connection', (socket: Socket) => sockets.add(socket));
  try {
    await server.admin.createUser({ username: 'bench', displayName: 'Bench' });
    await server.admin.fillInbox('bench', 12);
    const token = await server.admin.issueToken('bench');
    const client = createClient({ baseUrl: server.apiBaseUrl, token, retries: 0 });

    const first = await client.inbox.checkCount();
    const check = await bytesOf(sockets, () => client.inbox.checkCount(first.etag));

    let ws: WebSocket | undefined;
    const opening = await bytesOf(sockets, async () => {
      const answer = await fetch(`${server.apiBaseUrl}/inbox/live/ticket`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      const { ticket } = v.parse(LiveTicketSchema, await answer.json());
      const socket = new WebSocket(`${server.apiBaseUrl.replace(/^http/, 'ws')}/inbox/live?ticket=${ticket}`);
      ws = socket;
      // Open, and the count frame the service sends at once.
      await new Promise<void>((resolve, reject) => {
        socket.once('message', () => resolve());
        socket.once('error', reject);
      });
    });
    // Fewer than the service allows in its frame window (ten in 10 s), or it would close the channel.
    const pings = 8;
    const ping = await bytesOf(sockets, async () => {
      for (let i = 0; i < pings; i++) {
        const pong = new Promise<void>((resolve) => ws?.once('message', () => resolve()));
        ws?.send(JSON.stringify({ type: 'ping' }));
        await pong;
      }
    });
    ws?.close();

    const pollsPerHour = HOUR_MS / (regularInterval({ intervalSeconds: POLL_SECONDS, hintSeconds: null }) * 1000);
    const safetyNetPerHour = HOUR_MS / (LIVE_SAFETY_NET_SECONDS * 1000);
    const pingsPerHour = HOUR_MS / ((PING_MIN_MS + PING_MAX_MS) / 2);
    const perPing = ping / pings;
    // One channel held all hour: its opening (ticket and upgrade), the pings, and the safety-net checks.
    const live = { requests: 1 + safetyNetPerHour, bytes: opening + safetyNetPerHour * check + pingsPerHour * perPing };
    const polling = { requests: pollsPerHour, bytes: pollsPerHour * check };
    const how = 'idle hour, computed';
    const figures: Figure[] = [
      { name: 'HTTP requests per idle hour, live', value: live.requests, unit: 'count', how },
      { name: 'HTTP requests per idle hour, polling', value: polling.requests, unit: 'count', how },
      { name: 'wire bytes per idle hour, live', value: Math.round(live.bytes), unit: 'bytes', how },
      { name: 'wire bytes per idle hour, polling', value: Math.round(polling.bytes), unit: 'bytes', how },
      { name: 'live ÷ polling wire bytes', value: live.bytes / polling.bytes, unit: 'ratio', how: 'same run' },
    ];
    const details = {
      bytesPerUnchangedCheck: check,
      bytesPerChannelOpening: opening,
      bytesPerPingAndPong: perPing,
      pingsPerHour,
      safetyNetPerHour,
      pollsPerHour,
    };
    return { figures, details };
  } finally {
    await server.close();
  }
}

/**
 * The live area: the service's side, the idle hour, and the badge in Chromium when the run has
 * a browser (the product is gone by the time this area runs, so its part is measured earlier).
 */
export async function measureLive(badges: readonly LiveBadgePart[]): Promise<Section> {
  const service = await measureLiveService();
  const idle = await measureLiveIdleHour();
  return {
    id: 'live',
    title: 'Live updates',
    figures: [...badgeFigures(badges), ...idle.figures, ...service.figures],
    details: {
      badge: badges.length > 0 ? { ...LIVE_BADGE_DEFAULTS, browsers: badges } : 'not measured: no browser',
      idle: idle.details,
      service: service.details,
    },
  };
}
