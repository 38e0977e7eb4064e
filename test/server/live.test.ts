import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, LIVE_CLOSE_CODES, LiveTicketSchema } from '../../lib/api/contract';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../support/service';
import { newTicket, openLive, openWithTicket, refusal } from './support/live';

describe.each(BACKENDS)('the live channel on %s', (backend) => {
  let service: TestService;
  let clock = Date.now();
  const lines: string[] = [];

  beforeAll(async () => {
    service = await startTestService({ backend, now: () => clock, log: (line) => lines.push(line) });
  });
  afterAll(() => service?.close());

  const mention = (user: TestUser, text = 'You were mentioned') =>
    service.deliver({ username: user.username, type: 'mention', text });

  describe('the ticket', () => {
    it('is given to a signed-in caller, with a minute to use it', async () => {
      const user = await service.newUser('ticket');
      const response = await service.request('/inbox/live/ticket', { method: 'POST', token: user.token });
      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const ticket = v.parse(LiveTicketSchema, await response.json());
      const left = Date.parse(ticket.expiresAt) - Date.now();
      expect(left).toBeGreaterThan((LIMITS.liveTicketSeconds - 15) * 1000);
      expect(left).toBeLessThanOrEqual((LIMITS.liveTicketSeconds + 15) * 1000);
      expect(ticket.ticket).not.toContain(user.token);
    });

    it('is refused without a valid token', async () => {
      const response = await service.request('/inbox/live/ticket', { method: 'POST' });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'unauthenticated' });
    });

    it('opens one channel only: a used, unknown, missing or expired ticket is a 401 problem before any upgrade', async () => {
      const user = await service.newUser('replay');
      const ticket = await newTicket(service, user.token);
      const channel = await openWithTicket(service, ticket);
      await channel.next('count');
      const problem = { status: 401, body: expect.objectContaining({ code: 'unauthenticated', status: 401 }) };
      expect(await refusal(service, ticket)).toEqual(problem);
      expect(await refusal(service, randomBytes(32).toString('base64url'))).toEqual(problem);
      expect(await refusal(service, '')).toEqual(problem);
      expect(await refusal(service, 'x'.repeat(5000))).toEqual(problem);

      const expiring = await newTicket(service, user.token);
      await service.server.database.query(
        "UPDATE live_tickets SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE username = $1)",
        [user.username],
      );
      expect(await refusal(service, expiring)).toEqual(problem);
      channel.close();
    });

    it('dies with the token it was asked with', async () => {
      const user = await service.newUser('ticketrevoked');
      const ticket = await newTicket(service, user.token);
      await service.server.admin.revokeToken(user.token);
      expect((await refusal(service, ticket)).status).toBe(401);
    });
  });

  it('logs one line per upgrade answered, without the ticket', async () => {
    const user = await service.newUser('logged');
    const ticket = await newTicket(service, user.token);
    lines.length = 0;
    const channel = await openWithTicket(service, ticket);
    await refusal(service, ticket);
    expect(lines).toEqual([
      expect.stringMatching(/^GET \/api\/inbox\/live 101 \d+(\.\d+)?ms$/),
      expect.stringMatching(/^GET \/api\/inbox\/live 401 /),
    ]);
    expect(lines.join('\n')).not.toContain(ticket);
    channel.close();
  });

  it('answers a plain GET with 426 upgrade_required', async () => {
    const response = await service.request('/inbox/live?ticket=abc');
    expect(response.status).toBe(426);
    expect(response.headers.get('upgrade')).toBe('websocket');
    expect(await response.json()).toMatchObject({ code: 'upgrade_required', status: 426 });
  });

  it('answers a WebSocket upgrade elsewhere as if none was asked for', async () => {
    const user = await service.newUser('elsewhere');
    const { WebSocket } = await import('ws');
    const ws = new WebSocket(`${service.apiBaseUrl.replace(/^http/, 'ws')}/inbox/count`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    const status = await new Promise<number>((resolve) => {
      ws.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      ws.on('error', () => resolve(-1));
    });
    expect(status).toBe(200);
  });

  it('sends the count at once, then each new notification and every change of the count from any client', async () => {
    const user = await service.newUser('flow');
    await service.fillInbox(user.username, 3);
    const channel = await openLive(service, user.token);
    expect(await channel.next()).toEqual({
      type: 'count',
      count: 3,
      byType: { follow: 0, mention: 0, reply: 0, like: 0, system: 3 },
    });

    const delivered = await mention(user, 'Hello there');
    const frames = [await channel.next(), await channel.next()];
    expect(frames).toContainEqual({ type: 'notification', notification: delivered });
    expect(frames).toContainEqual({
      type: 'count',
      count: 4,
      byType: { follow: 0, mention: 1, reply: 0, like: 0, system: 3 },
    });

    await user.client.inbox.markRead([delivered.id]);
    await channel.countOf(3);
    await user.client.inbox.delete('all');
    await channel.countOf(0);
    channel.close();
  });

  it('answers a ping with a pong', async () => {
    const user = await service.newUser('ping');
    const channel = await openLive(service, user.token);
    await channel.next('count');
    channel.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await channel.next()).toEqual({ type: 'pong' });
    channel.close();
  });

  it('always ends on the last count when changes come faster than frames', async () => {
    const user = await service.newUser('burst');
    const channel = await openLive(service, user.token);
    await channel.countOf(0);
    await Promise.all(Array.from({ length: 15 }, (_, i) => mention(user, `burst ${i}`)));
    await channel.countOf(15);
    await user.client.inbox.markRead('all');
    await channel.countOf(0);
    channel.close();
  });

  it('sends one user’s news to that user’s channels only', async () => {
    const alice = await service.newUser('alice');
    const bob = await service.newUser('bob');
    const aliceChannel = await openLive(service, alice.token);
    const bobChannel = await openLive(service, bob.token);
    await aliceChannel.countOf(0);
    await bobChannel.countOf(0);
    await mention(alice, 'for alice');
    await aliceChannel.countOf(1);
    const forBob = await mention(bob, 'for bob');
    const bobFrames = [await bobChannel.next(), await bobChannel.next()];
    expect(bobFrames).toContainEqual({ type: 'notification', notification: forBob });
    expect(bobFrames).toContainEqual(expect.objectContaining({ type: 'count', count: 1 }));
    aliceChannel.close();
    bobChannel.close();
  });

  describe('closes the channel, and only that one,', () => {
    async function twoChannels(prefix: string) {
      const user = await service.newUser(prefix);
      const bad = await openLive(service, user.token);
      const good = await openLive(service, user.token);
      await bad.next('count');
      await good.next('count');
      return { user, bad, good };
    }

    async function stillLive(user: TestUser, good: Awaited<ReturnType<typeof twoChannels>>['good']) {
      const delivered = await mention(user);
      await good.countOf(1);
      expect(delivered.text).toBe('You were mentioned');
      good.close();
    }

    it.each([
      ['text that is not JSON', 'hello'],
      ['JSON that is not a ping', JSON.stringify({ type: 'subscribe', user: 'someone' })],
      ['a JSON array', '[1,2]'],
      ['a binary frame', Buffer.from(JSON.stringify({ type: 'ping' }))],
    ])('with 1008 for %s', async (_, frame) => {
      const { user, bad, good } = await twoChannels('badframe');
      bad.ws.send(frame);
      expect((await bad.closed).code).toBe(LIVE_CLOSE_CODES.policyViolation);
      await stillLive(user, good);
    });

    it('with 1009 for a frame over 1 KiB', async () => {
      const { user, bad, good } = await twoChannels('bigframe');
      bad.ws.send(JSON.stringify({ type: 'ping', padding: 'x'.repeat(LIMITS.liveFrameMaxBytes) }));
      expect((await bad.closed).code).toBe(LIVE_CLOSE_CODES.tooBig);
      await stillLive(user, good);
    });

    it('with 1008 for frames far more often than a ping every 20 s', async () => {
      const { user, bad, good } = await twoChannels('flood');
      for (let i = 0; i < 30; i++) bad.ws.send(JSON.stringify({ type: 'ping' }));
      expect((await bad.closed).code).toBe(LIVE_CLOSE_CODES.policyViolation);
      await stillLive(user, good);
    });

    it('when it stayed silent for 75 s, keeping one that pinged', async () => {
      const { bad: silent, good: pinging } = await twoChannels('idle');
      clock += 60_000;
      pinging.ws.send(JSON.stringify({ type: 'ping' }));
      await pinging.next('pong');
      clock += LIMITS.liveIdleSeconds * 1000 - 60_000;
      expect(service.server.live.sweepIdle()).toBeGreaterThanOrEqual(1);
      expect((await silent.closed).code).toBe(LIVE_CLOSE_CODES.goingAway);
      pinging.ws.send(JSON.stringify({ type: 'ping' }));
      expect(await pinging.next()).toEqual({ type: 'pong' });
      pinging.close();
    });

    it('with 4401 when its token is revoked through the operator API', async () => {
      const user = await service.newUser('revoked');
      const otherToken = await service.server.admin.issueToken(user.username);
      const revoked = await openLive(service, user.token);
      const other = await openLive(service, otherToken);
      await revoked.next('count');
      await other.next('count');
      const response = await service.request('/operator/tokens/revoke', {
        method: 'POST',
        token: await service.operatorToken(),
        body: JSON.stringify({ token: user.token }),
      });
      expect(await response.json()).toEqual({ revoked: true });
      expect((await revoked.closed).code).toBe(LIVE_CLOSE_CODES.unauthenticated);
      await mention(user);
      await other.countOf(1);
      other.close();
    });
  });

  it('closes every channel of a deleted user with 4401', async () => {
    const user = await service.newUser('deleted');
    const first = await openLive(service, user.token);
    const second = await openLive(service, await service.server.admin.issueToken(user.username));
    await first.next('count');
    await second.next('count');
    await service.server.database.query('DELETE FROM users WHERE username = $1', [user.username]);
    expect((await first.closed).code).toBe(LIVE_CLOSE_CODES.unauthenticated);
    expect((await second.closed).code).toBe(LIVE_CLOSE_CODES.unauthenticated);
  });

  it('closes its channels with 1001 when the service stops', async () => {
    const extra = await startTestService({ backend });
    const user = await extra.newUser('stopping');
    const channel = await openLive(extra, user.token);
    await channel.next('count');
    await extra.close();
    expect((await channel.closed).code).toBe(LIVE_CLOSE_CODES.goingAway);
  });
});

describe.skipIf(!BACKENDS.includes('postgres'))('live channels of several services on one PostgreSQL database', () => {
  const schema = `test_live_${randomBytes(5).toString('hex')}`;
  let a: TestService;
  let b: TestService;
  let elsewhere: TestService;

  beforeAll(async () => {
    a = await startTestService({ backend: 'postgres', schema });
    b = await startTestService({ backend: 'postgres', schema });
    elsewhere = await startTestService({ backend: 'postgres' });
  });
  afterAll(async () => {
    await b?.close();
    await a?.server.database.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await a?.close();
    await elsewhere?.close();
  });

  it('takes a ticket from one instance at another, and carries a change made through one to a channel on the other', async () => {
    const user = await a.newUser('twoinstances');
    const channel = await openWithTicket(b, await newTicket(a, user.token));
    await channel.countOf(0);
    const delivered = await a.deliver({ username: user.username, type: 'reply', text: 'Through A' });
    const frames = [await channel.next(), await channel.next()];
    expect(frames).toContainEqual({ type: 'notification', notification: delivered });
    expect(frames).toContainEqual(expect.objectContaining({ type: 'count', count: 1 }));
    await a.client(user.token).inbox.markRead('all');
    await channel.countOf(0);

    const response = await a.request('/operator/tokens/revoke', {
      method: 'POST',
      token: await a.operatorToken(),
      body: JSON.stringify({ token: user.token }),
    });
    expect(await response.json()).toEqual({ revoked: true });
    expect((await channel.closed).code).toBe(LIVE_CLOSE_CODES.unauthenticated);
  });

  it('keeps services in other schemas apart, though their users have the same ids', async () => {
    const here = await a.newUser('schemahere');
    const id = (
      await a.server.database.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [here.username])
    ).rows[0]?.id;
    await elsewhere.server.database.query(
      "INSERT INTO users (id, username, display_name) OVERRIDING SYSTEM VALUE VALUES ($1, 'twin', 'Twin')",
      [id],
    );
    const channel = await openLive(elsewhere, await elsewhere.server.admin.issueToken('twin'));
    await channel.countOf(0);
    await a.fillInbox(here.username, 5);
    await a.deliver({ username: here.username, type: 'system', text: 'Not for the other schema' });
    const own = await elsewhere.deliver({ username: 'twin', type: 'system', text: 'For this schema' });
    const frames = [await channel.next(), await channel.next()];
    expect(frames).toContainEqual({ type: 'notification', notification: own });
    expect(frames).toContainEqual(expect.objectContaining({ type: 'count', count: 1 }));
    channel.close();
  });

  it('closes channels when the database connection that carries events drops, and listens again', async () => {
    const user = await b.newUser('relisten');
    const channel = await openLive(b, user.token);
    await channel.countOf(0);
    const listeners = await b.server.database.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN ' || live_channel(current_schema())
       AND pid <> pg_backend_pid()`,
    );
    expect(listeners.rows.length).toBeGreaterThanOrEqual(2);
    await b.server.database.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [
      listeners.rows.map((row) => row.pid),
    ]);
    expect((await channel.closed).code).toBe(LIVE_CLOSE_CODES.tryAgainLater);

    let reopened: Awaited<ReturnType<typeof openLive>> | null = null;
    while (!reopened) {
      reopened = await openLive(b, user.token).catch(async (error: { status?: number }) => {
        expect(error.status).toBe(503);
        await new Promise((resolve) => setTimeout(resolve, 100));
        return null;
      });
    }
    await reopened.countOf(0);
    await a.deliver({ username: user.username, type: 'like', text: 'After the drop' });
    await reopened.countOf(1);
    reopened.close();
  });
});
