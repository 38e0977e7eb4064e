/**
 * A small stand-in for the service's live channel, made with `ws`: it hands out tickets through
 * a fetch the client is given, accepts a WebSocket only with a ticket it issued (once), and lets
 * a test send frames, close channels or refuse everything, while it records what clients sent.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import type { WebSocketConstructor } from '../../lib/api';
import { json, problem } from './recording-fetch';

export interface FakeLiveService {
  apiBaseUrl: string;
  /**
   * Answers POST /inbox/live/ticket, GET /inbox/count and POST /inbox/read as the service would;
   * a mark read lowers the count by the ids it names and sends the new count on every channel.
   */
  fetch: typeof globalThis.fetch;
  /** `ws`, typed as the client library takes it. */
  WebSocket: WebSocketConstructor;
  /** Every request the fetch answered: `METHOD /path`. */
  requests: string[];
  /** Text frames each open channel received from its client, newest channel last. */
  received: string[][];
  /** The unread count, sent on open and by `setCount`. */
  count: number;
  /** When set, the ticket call answers with this problem. */
  refuse: { status: number; code: string } | null;
  /** When set, the ticket call alone answers with this problem, with Retry-After when given. */
  refuseTickets: { status: number; code: string; retryAfter?: number } | null;
  /** The token of each ticket call, in order. */
  ticketTokens: string[];
  /** The Idempotency-Key of each ticket call, in order: the client's retry of a call repeats its key. */
  ticketKeys: string[];
  /** The most channels that were open at once. */
  readonly mostOpen: number;
  /** Answer pings with pongs; off, as a connection the network lost without telling. */
  answerPings: boolean;
  /** Channels open now. */
  readonly open: number;
  /** Resolves once `n` channels have been opened in all. */
  opened(n: number): Promise<void>;
  setCount(count: number): void;
  send(frame: unknown): void;
  sendRaw(text: string): void;
  /** Closes every open channel with this code. */
  closeAll(code: number, reason?: string): Promise<void>;
  /** Drops every connection without a close frame, as a network failure would. */
  dropAll(): void;
  close(): Promise<void>;
}

export async function startFakeLiveService(): Promise<FakeLiveService> {
  const tickets = new Set<string>();
  const sockets = new Set<WebSocket>();
  const waiters: { n: number; resolve: () => void }[] = [];
  let total = 0;
  let mostOpen = 0;

  const server = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    verifyClient: ({ req }, done) => {
      const ticket = new URL(req.url ?? '/', 'http://x').searchParams.get('ticket') ?? '';
      const valid = tickets.delete(ticket);
      done(valid, valid ? undefined : 401);
    },
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const apiBaseUrl = `http://127.0.0.1:${port}/api`;

  const fake: FakeLiveService = {
    apiBaseUrl,
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    requests: [],
    received: [],
    count: 0,
    refuse: null,
    refuseTickets: null,
    ticketTokens: [],
    ticketKeys: [],
    answerPings: true,
    get open() {
      return [...sockets].filter((s) => s.readyState === WebSocket.OPEN).length;
    },
    get mostOpen() {
      return mostOpen;
    },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname.replace(/^\/api/, '');
      fake.requests.push(`${request.method} ${path}`);
      if (request.method === 'POST' && path === '/inbox/live/ticket') {
        fake.ticketKeys.push(request.headers.get('idempotency-key') ?? '');
      }
      if (fake.refuse) return problem(fake.refuse.status, fake.refuse.code);
      if (request.method === 'POST' && path === '/inbox/live/ticket') {
        fake.ticketTokens.push(request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '');
        const refusal = fake.refuseTickets;
        if (refusal) {
          const wait: Record<string, string> = {};
          if (refusal.retryAfter !== undefined) wait['retry-after'] = String(refusal.retryAfter);
          return problem(refusal.status, refusal.code, wait);
        }
        const ticket = randomUUID();
        tickets.add(ticket);
        return json({ ticket, expiresAt: new Date(Date.now() + 60_000).toISOString() }, { status: 201 });
      }
      if (request.method === 'POST' && path === '/inbox/read') {
        const { ids } = (await request.json()) as { ids: string[] | 'all' };
        const read = ids === 'all' ? fake.count : Math.min(fake.count, ids.length);
        fake.setCount(fake.count - read);
        return json({ success: true, count: read, undo: randomUUID() });
      }
      if (request.method === 'GET' && path === '/inbox/count') {
        return json({ count: fake.count }, { headers: { etag: `"${fake.count}"` } });
      }
      return problem(404, 'not_found');
    },
    async opened(n) {
      if (total >= n) return;
      await new Promise<void>((resolve) => waiters.push({ n, resolve }));
    },
    setCount(count) {
      fake.count = count;
      fake.send({ type: 'count', count });
    },
    send(frame) {
      fake.sendRaw(JSON.stringify(frame));
    },
    sendRaw(text) {
      for (const socket of sockets) if (socket.readyState === WebSocket.OPEN) socket.send(text);
    },
    async closeAll(code, reason = '') {
      const closing = [...sockets].map(
        (socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()).close(code, reason)),
      );
      await Promise.all(closing);
    },
    dropAll() {
      for (const socket of sockets) socket.terminate();
    },
    async close() {
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  server.on('connection', (socket) => {
    sockets.add(socket);
    mostOpen = Math.max(mostOpen, fake.open);
    const frames: string[] = [];
    fake.received.push(frames);
    socket.on('close', () => sockets.delete(socket));
    socket.on('message', (data) => {
      const text = String(data);
      frames.push(text);
      if (fake.answerPings && text === JSON.stringify({ type: 'ping' })) socket.send(JSON.stringify({ type: 'pong' }));
    });
    socket.send(JSON.stringify({ type: 'count', count: fake.count }));
    total += 1;
    for (const waiter of waiters.splice(0)) {
      if (total >= waiter.n) waiter.resolve();
      else waiters.push(waiter);
    }
  });

  return fake;
}
