/**
 * Live updates, on the service's side: idle live channels on one service process (resident
 * memory per channel), the time from one operator call to the count frame on every channel of
 * that user, and one change of many users' counts fanned out to a channel of each.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import * as v from 'valibot';
import WebSocket from 'ws';
import { LiveServerFrameSchema, LiveTicketSchema } from '../lib/api/contract';
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

export async function measureLiveService(options: LiveServiceOptions = LIVE_SERVICE_DEFAULTS) {
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

export async function measureLive(): Promise<Section> {
  const service = await measureLiveService();
  return { id: 'live', title: 'Live updates', figures: service.figures, details: { service: service.details } };
}
