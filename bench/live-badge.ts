/**
 * Live updates, on the extension's side. In Chromium with the built extension: from an operator
 * call making a notification to the toolbar badge changing, against the polling baseline of the
 * same run (a notification waits for the next check, uniformly within the poll interval). In
 * Node against the real service: what an idle hour costs live and polling, computed from the
 * bytes one ping, one check of the count and one channel opening measured on the wire.
 */
import type { Socket } from 'node:net';
import * as v from 'valibot';
import { WebSocket } from 'ws';
import { createClient, LiveTicketSchema } from '../lib/api';
import { LIVE_SAFETY_NET_SECONDS, PING_MAX_MS, PING_MIN_MS, regularInterval } from '../lib/poll-schedule';
import { startServer } from '../server/index';
import type { Product } from '../test/e2e/support/product';
import type { Figure, Section } from './support/report';
import { median, percentile } from './support/stats';

export interface LiveBadgeOptions {
  /** Notifications made through the operator API, one at a time. */
  arrivals: number;
}

export const LIVE_BADGE_DEFAULTS: LiveBadgeOptions = { arrivals: 50 };

const HOUR_MS = 3_600_000;
/** The extension's default poll interval (`DEFAULT_SETTINGS.pollIntervalSeconds`), which the product signs in with. */
const POLL_SECONDS = 60;

declare global {
  var __inboxBenchLiveBadge: Promise<number> | undefined;
}

function watchBadge(product: Product) {
  return product.worker.evaluate(() => {
    globalThis.__inboxBenchLiveBadge = (async () => {
      const before = await chrome.action.getBadgeText({});
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        if ((await chrome.action.getBadgeText({})) !== before) return performance.timeOrigin + performance.now();
      }
      return Number.NaN;
    })();
  });
}

async function waitUntilLive(product: Product): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await product.badgeTitle()).includes('Live:')) {
    if (Date.now() > deadline) throw new Error(`The badge did not go live: ${await product.badgeTitle()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Operator call → badge text changed, in Chromium, with no alarm fired. */
export async function measureLiveBadge(
  product: Product,
  options: LiveBadgeOptions = LIVE_BADGE_DEFAULTS,
): Promise<Section> {
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
    if (!Number.isFinite(changedAt)) throw new Error('The badge did not change after an operator call.');
    samples.push((changedAt as number) - sentAt);
  }
  // Polling: a notification waits from its arrival, uniform in the interval, to the next check.
  const interval = regularInterval({ intervalSeconds: POLL_SECONDS, hintSeconds: null }) * 1000;
  const how = `${options.arrivals} arrivals`;
  const figures: Figure[] = [
    { name: 'operator call → badge, live', value: median(samples), unit: 'ms', how: `median of ${how}` },
    {
      name: 'operator call → badge p99, live',
      value: percentile(samples, 99),
      unit: 'ms',
      how: `p99 of ${how}`,
      target: 1000,
    },
    { name: 'operator call → badge, polling', value: interval / 2, unit: 'ms', how: `median, ${POLL_SECONDS} s poll` },
    {
      name: 'operator call → badge p99, polling',
      value: interval * 0.99,
      unit: 'ms',
      how: `p99, ${POLL_SECONDS} s poll`,
    },
    { name: 'polling ÷ live, median', value: interval / 2 / median(samples), unit: 'ratio', how: 'same run' },
  ];
  return { id: 'liveBadge', title: 'Live badge', figures, details: { ...options, samples, pollIntervalMs: interval } };
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
export async function measureLiveIdleHour(): Promise<Section> {
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
    return { id: 'liveIdle', title: 'Live against polling, idle hour', figures, details };
  } finally {
    await server.close();
  }
}
