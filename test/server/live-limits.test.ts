import { type IncomingHttpHeaders, request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../lib/api/contract';
import { BACKENDS, startTestService, type TestService } from '../support/service';
import { until } from '../support/until';
import { type LiveClient, newTicket, openWithTicket } from './support/live';

interface Refusal {
  status: number;
  retryAfter: string | null;
  contentType: string | null;
  body: { code?: string; detail?: string; status?: number };
}

/** What the service answers an upgrade with this ticket: the channel, or the refusal and its headers. */
async function upgrade(service: TestService, ticket: string): Promise<LiveClient | Refusal> {
  try {
    return await openWithTicket(service, ticket);
  } catch (error) {
    const { status, headers, body } = error as { status?: number; headers?: IncomingHttpHeaders; body?: string };
    if (status === undefined) throw error;
    const header = (name: string) => String(headers?.[name] ?? '') || null;
    return {
      status,
      retryAfter: header('retry-after'),
      contentType: header('content-type'),
      body: body ? JSON.parse(body) : {},
    };
  }
}

const isRefusal = (answer: LiveClient | Refusal): answer is Refusal => 'status' in answer;

async function askTicket(service: TestService, token: string) {
  const response = await service.request('/inbox/live/ticket', { method: 'POST', token });
  const body = (await response.json()) as { ticket?: string; code?: string; detail?: string };
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    contentType: response.headers.get('content-type'),
    body,
  };
}

/** A request on a connection of its own, closed after the answer, as from a client that shares none with the channels. */
function onNewConnection(
  service: TestService,
  method: 'GET' | 'POST',
  path: string,
  token: string,
): Promise<{ status: number; body: { ticket?: string; code?: string } }> {
  return new Promise((resolve, reject) => {
    const options = { method, agent: false, headers: { authorization: `Bearer ${token}` } };
    request(`${service.apiBaseUrl}${path}`, options, (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(body) }));
    })
      .on('error', reject)
      .end();
  });
}

describe.each(BACKENDS)('live channels per user on %s', (backend) => {
  let service: TestService;
  let clock = Date.now();
  const open: LiveClient[] = [];

  beforeAll(async () => {
    service = await startTestService({ backend, now: () => clock });
  });
  afterEach(() => {
    for (const channel of open.splice(0)) channel.ws.terminate();
  });
  afterAll(() => service?.close());

  it(`gives one user's flood ${LIMITS.liveChannelsPerUser} channels, then 429 too_many_channels with Retry-After; another user still gets one`, async () => {
    const flooder = await service.newUser('flooder');
    const refusals = [];
    for (let i = 0; i < LIMITS.liveChannelsPerUser + 5; i++) {
      const answer = await askTicket(service, flooder.token);
      if (answer.status !== 201) {
        refusals.push(answer);
        continue;
      }
      const channel = await upgrade(service, answer.body.ticket as string);
      if (isRefusal(channel)) throw new Error(`an upgrade was refused with ${channel.status}`);
      open.push(channel);
    }
    expect(open).toHaveLength(LIMITS.liveChannelsPerUser);
    expect(refusals).toHaveLength(5);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(429);
      expect(refusal.contentType).toBe('application/problem+json');
      expect(Number(refusal.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(refusal.body.code).toBe('too_many_channels');
      expect(refusal.body.detail).toContain(`At most ${LIMITS.liveChannelsPerUser} live channels`);
    }

    const other = await service.newUser('bystander');
    const theirs = await upgrade(service, await newTicket(service, other.token));
    expect(isRefusal(theirs)).toBe(false);
    open.push(theirs as LiveClient);
    await (theirs as LiveClient).next('count');
  });

  it('refuses at the upgrade the channels past the cap of tickets taken before any was opened', async () => {
    const hoarder = await service.newUser('hoarder');
    const tickets: string[] = [];
    for (let i = 0; i < LIMITS.liveChannelsPerUser + 3; i++) tickets.push(await newTicket(service, hoarder.token));
    const answers = await Promise.all(tickets.map((ticket) => upgrade(service, ticket)));
    const refused = answers.filter(isRefusal);
    open.push(...(answers.filter((answer) => !isRefusal(answer)) as LiveClient[]));
    expect(open).toHaveLength(LIMITS.liveChannelsPerUser);
    expect(refused).toHaveLength(3);
    for (const refusal of refused) {
      expect(refusal).toMatchObject({
        status: 429,
        contentType: 'application/problem+json',
        body: { code: 'too_many_channels', status: 429 },
      });
      expect(Number(refusal.retryAfter)).toBeGreaterThanOrEqual(1);
    }
  });

  it('frees a slot when one of the channels closes', async () => {
    const user = await service.newUser('full');
    for (let i = 0; i < LIMITS.liveChannelsPerUser; i++) {
      open.push(await openWithTicket(service, await newTicket(service, user.token)));
    }
    expect((await askTicket(service, user.token)).status).toBe(429);
    const first = open.shift() as LiveClient;
    const before = service.server.live.channels;
    first.close();
    await first.closed;
    await until(() => service.server.live.channels === before - 1);
    const again = await askTicket(service, user.token);
    expect(again.status).toBe(201);
    const channel = await upgrade(service, again.body.ticket as string);
    expect(isRefusal(channel)).toBe(false);
    open.push(channel as LiveClient);
  });

  it(`gives one user ${LIMITS.liveTicketsPerMinute} tickets a minute, then 429 rate_limited until the minute has passed`, async () => {
    const user = await service.newUser('tickets');
    for (let i = 0; i < LIMITS.liveTicketsPerMinute; i++) {
      expect((await askTicket(service, user.token)).status).toBe(201);
    }
    const limited = await askTicket(service, user.token);
    expect(limited).toMatchObject({
      status: 429,
      contentType: 'application/problem+json',
      body: { code: 'rate_limited', detail: expect.stringContaining(`${LIMITS.liveTicketsPerMinute} live tickets`) },
    });
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(60);

    const other = await service.newUser('othertickets');
    expect((await askTicket(service, other.token)).status).toBe(201);

    clock += 60_000;
    expect((await askTicket(service, user.token)).status).toBe(201);
  });
});

describe.each(BACKENDS)('live channels within the connections on %s', (backend) => {
  let service: TestService;
  const open: LiveClient[] = [];

  beforeAll(async () => {
    service = await startTestService({ backend, connections: { maxConnections: 10 } });
  });
  afterAll(async () => {
    for (const channel of open) channel.ws.terminate();
    await service?.close();
  });

  it('keeps a fifth of the connections for requests: the ninth channel of ten connections is a 503', async () => {
    const user = await service.newUser('reserve');
    const tickets: string[] = [];
    for (let i = 0; i < 9; i++) {
      tickets.push((await onNewConnection(service, 'POST', '/inbox/live/ticket', user.token)).body.ticket as string);
    }
    for (const ticket of tickets.slice(0, 8)) open.push(await openWithTicket(service, ticket));
    expect(service.server.live.channels).toBe(8);

    const ninth = tickets[8] as string;
    const refused = await upgrade(service, ninth);
    expect(refused).toMatchObject({
      status: 503,
      contentType: 'application/problem+json',
      body: { code: 'service_unavailable' },
    });
    expect(Number((refused as Refusal).retryAfter)).toBeGreaterThanOrEqual(1);
    expect(service.server.live.channels).toBe(8);
    expect((await onNewConnection(service, 'GET', '/inbox/count', user.token)).status).toBe(200);
    expect((await onNewConnection(service, 'GET', '/inbox/count', user.token)).status).toBe(200);
    expect(await onNewConnection(service, 'POST', '/inbox/live/ticket', user.token)).toMatchObject({
      status: 503,
      body: { code: 'service_unavailable' },
    });

    // Refused before it was taken, the ticket opens a channel once one has closed.
    const first = open.shift() as LiveClient;
    first.close();
    await first.closed;
    await until(() => service.server.live.channels === 7);
    const channel = await upgrade(service, ninth);
    expect(isRefusal(channel)).toBe(false);
    open.push(channel as LiveClient);
  });
});
