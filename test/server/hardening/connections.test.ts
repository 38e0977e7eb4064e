import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/service';

// All of 127.0.0.0/8 is this machine: the attacker and the honest client are different addresses.
const HONEST = '127.0.0.1';
const ATTACKER = '127.0.0.2';
const PROXY = '127.0.0.3';

const partialHead = 'GET /api/inbox/count HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer';

const opened = new Set<Socket>();
afterEach(() => {
  for (const socket of opened) socket.destroy();
  opened.clear();
});

/**
 * A client that connects from `from`, maybe sends the start of a request, and then neither sends
 * nor reads anything more, and never closes its side.
 */
async function silentClient(port: number, from: string, part = ''): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from, allowHalfOpen: true });
  opened.add(socket);
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  if (part) await new Promise<void>((resolve) => socket.write(part, () => resolve()));
  socket.pause();
  return socket;
}

/** What the service writes to a paused socket from now until it ends its side. */
async function readToEnd(socket: Socket): Promise<string> {
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk;
  });
  socket.resume();
  await new Promise((resolve) => socket.once('end', resolve));
  return received;
}

/** Everything the service writes to a new connection from `from` that sends nothing, until it closes it. */
async function firstWords(port: number, from: string): Promise<string> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  opened.add(socket);
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk;
  });
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('close', resolve));
  return received;
}

/** One GET on a connection of its own from `from`: its status, or 0 when it failed. */
function get(port: number, from: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ port, host: '127.0.0.1', localAddress: from, path: '/api/openapi.json', agent: false });
    req.setTimeout(timeoutMs, () => req.destroy());
    req.on('error', () => resolve(0));
    req.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(0));
    });
    req.end();
  });
}

/** Asks, as a client that tries again when its connection is refused, until `withinMs` has passed. */
async function answeredWithin(port: number, from: string, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    if ((await get(port, from, left)) === 200) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function openConnections(service: TestService): Promise<number> {
  return new Promise((resolve, reject) =>
    service.server.httpServer.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

async function until(check: () => Promise<boolean>, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe('connections that send nothing, or part of a request, and never read', () => {
  const HEADERS_TIMEOUT_MS = 1_000;
  const CHECK_INTERVAL_MS = 250;
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({
      connections: {
        maxConnections: 30,
        headersTimeoutMs: HEADERS_TIMEOUT_MS,
        requestTimeoutMs: HEADERS_TIMEOUT_MS,
        checkIntervalMs: CHECK_INTERVAL_MS,
      },
    });
  });
  afterAll(() => service?.close());

  it('cannot keep the service from another client once the header timeout has passed', {
    timeout: 30_000,
  }, async () => {
    const port = service.server.port;
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => silentClient(port, ATTACKER, i % 2 === 0 ? '' : partialHead)),
    );
    expect(await until(async () => (await openConnections(service)) === 30, 5_000)).toBe(true);
    expect(await get(port, HONEST, 1_000)).toBe(0);

    await new Promise((resolve) => setTimeout(resolve, HEADERS_TIMEOUT_MS + 2 * CHECK_INTERVAL_MS));
    const answered = await Promise.all(Array.from({ length: 10 }, () => answeredWithin(port, HONEST, 3_000)));
    expect(answered.filter(Boolean).length).toBeGreaterThanOrEqual(9);
  });

  it('closes a connection whose client leaves its side open and never reads the 408', {
    timeout: 30_000,
  }, async () => {
    const socket = await silentClient(service.server.port, ATTACKER, partialHead);
    expect(await until(async () => (await openConnections(service)) === 1, 5_000)).toBe(true);
    // The service's side is gone: not only ended, while the client's side stays open.
    expect(await until(async () => (await openConnections(service)) === 0, HEADERS_TIMEOUT_MS + 5_000)).toBe(true);
    expect(socket.destroyed).toBe(false);
    const received = await readToEnd(socket);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection whose body was too large, when its client never reads the 413', {
    timeout: 30_000,
  }, async () => {
    const head =
      'POST /api/inbox/read HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
      'content-length: 1000000\r\n\r\n{"ids":';
    const socket = await silentClient(service.server.port, ATTACKER, head);
    expect(await until(async () => (await openConnections(service)) === 0, HEADERS_TIMEOUT_MS + 5_000)).toBe(true);
    expect(socket.destroyed).toBe(false);
    const received = await readToEnd(socket);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
  });
});

describe('the cap on connections from one address', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ trustProxy: [PROXY] });
  });
  afterAll(() => service?.close());

  it('refuses the 65th connection from one address with 429, while another address is served', async () => {
    const port = service.server.port;
    const held = await Promise.all(Array.from({ length: 64 }, () => silentClient(port, ATTACKER)));
    expect(await until(async () => (await openConnections(service)) === 64, 5_000)).toBe(true);

    const refused = await firstWords(port, ATTACKER);
    expect(refused).toMatch(/^HTTP\/1\.1 429 /);
    expect(refused).toMatch(/\r\nretry-after: \d+\r\n/i);
    expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))).toMatchObject({
      status: 429,
      code: 'rate_limited',
    });
    expect(await get(port, HONEST, 5_000)).toBe(200);

    held[0]?.destroy();
    expect(await until(async () => (await get(port, ATTACKER, 5_000)) === 200, 5_000)).toBe(true);
  });

  it('does not cap a proxy named as trusted', async () => {
    const port = service.server.port;
    await Promise.all(Array.from({ length: 70 }, () => silentClient(port, PROXY)));
    expect(await until(async () => (await openConnections(service)) >= 70, 5_000)).toBe(true);
    expect(await get(port, PROXY, 5_000)).toBe(200);
  });
});
