import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../../support/service';

const SLOW_CONNECTIONS = 50;
const REQUESTS_MEANWHILE = 40;

interface SlowClient {
  socket: Socket;
  /** Everything the service wrote back. */
  received(): string;
  /** Resolves when the service has closed the connection. */
  closed: Promise<void>;
}

/** A client that sends part of a request and then nothing more, holding its connection open. */
async function slowClient(port: number, part: string): Promise<SlowClient> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk;
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  await new Promise<void>((resolve) => socket.write(part, () => resolve()));
  return { socket, received: () => received, closed };
}

const stalledHead = 'GET /api/inbox/count HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer';
const stalledBody = (token: string) =>
  `POST /api/inbox/read HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n` +
  'content-type: application/json\r\ncontent-length: 5\r\n\r\n{"i';

describe.each(BACKENDS)('slow clients, on %s', (backend) => {
  let service: TestService;
  let user: TestUser;
  const lines: string[] = [];

  beforeAll(async () => {
    service = await startTestService({
      backend,
      log: (line) => lines.push(line),
      connections: {
        headersTimeoutMs: 1_000,
        requestTimeoutMs: 1_500,
        checkIntervalMs: 250,
        // Slow and patient clients alike come from 127.0.0.1 here: the timeouts are what is tested.
        maxConnectionsPerClient: SLOW_CONNECTIONS + REQUESTS_MEANWHILE,
      },
    });
    user = await service.newUser('patient');
    await service.fillInbox(user.username, 3);
  });
  afterAll(() => service?.close());

  it('answers other requests while slow connections are held, then drops the slow ones as too slow', async () => {
    const slow = await Promise.all(
      Array.from({ length: SLOW_CONNECTIONS }, (_, i) =>
        slowClient(service.server.port, i % 2 === 0 ? stalledHead : stalledBody(user.token)),
      ),
    );
    const counts = await Promise.all(Array.from({ length: REQUESTS_MEANWHILE }, () => user.client.inbox.count()));
    expect(counts).toEqual(Array(REQUESTS_MEANWHILE).fill(3));

    await Promise.all(slow.map((client) => client.closed));
    for (const client of slow) expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(lines.filter((line) => line.startsWith('client too slow:'))).toHaveLength(SLOW_CONNECTIONS);
    expect(lines.filter((line) => /database unavailable|50\d /.test(line))).toEqual([]);
    // The stalled bodies never reached the inbox.
    expect(await user.client.inbox.count()).toBe(3);
  });
});

describe('the connection cap', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({
      connections: { maxConnections: 3, headersTimeoutMs: 1_000, requestTimeoutMs: 1_000, checkIntervalMs: 250 },
    });
  });
  afterAll(() => service?.close());

  it('closes connections beyond the cap at once, and takes new ones when the slow ones are gone', async () => {
    const held = await Promise.all(Array.from({ length: 3 }, () => slowClient(service.server.port, stalledHead)));
    const refused = connect(service.server.port, '127.0.0.1');
    refused.on('error', () => {});
    let answered = '';
    refused.on('data', (chunk) => {
      answered += chunk;
    });
    refused.write('GET /api/openapi.json HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    await new Promise((resolve) => refused.on('close', resolve));
    expect(answered).toBe('');
    await Promise.all(held.map((client) => client.closed));
    const response = await service.request('/openapi.json');
    expect(response.status).toBe(200);
  });
});
