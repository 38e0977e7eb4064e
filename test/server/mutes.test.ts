import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mute, Notification } from '../../lib/api/contract';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../support/service';
import { until } from '../support/until';
import { newTicket, openLive, openWithTicket } from './support/live';
import { problemOf } from './support/problem';

const hoursAhead = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
/**
 * How far behind real time the service's clock runs while a test waits for a mute to end: a mute
 * must end at least 60 s ahead by that clock, and ends by the database's, 2 s after it is made.
 */
const END_SOON_SKEW_MS = -58_500;
const soon = () => new Date(Date.now() + 2_000).toISOString();

async function json<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`Expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

function api(service: TestService, user: TestUser) {
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    service.request(path, {
      method,
      token: user.token,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    send,
    mute: (body: unknown) => send('POST', '/inbox/mutes', body),
    mutes: async () => (await json<{ data: Mute[] }>(await send('GET', '/inbox/mutes'), 200)).data,
    unmute: (id: string) => send('DELETE', `/inbox/mutes/${id}`),
    policy: (strangers: string) => send('PUT', '/inbox/policy', { strangers }),
    texts: async (query = '') => {
      const page = await json<{ data: Notification[] }>(await send('GET', `/inbox/fetch?limit=100&${query}`), 200);
      return page.data.map((n) => n.text);
    },
    count: () => user.client.inbox.countByType(),
  };
}

describe.each(BACKENDS)('mutes on %s', (backend) => {
  let service: TestService;
  let skew = 0;

  beforeAll(async () => {
    service = await startTestService({ backend, now: () => Date.now() + skew });
  });
  afterAll(() => service?.close());

  async function inboxWithNoise() {
    const me = await service.newUser('muter');
    const noisy = await service.newUser('noisy', { displayName: 'Noisy Nora' });
    const quiet = await service.newUser('quiet');
    const deliver = (actor: string | null, text: string, url: string | null = null) =>
      service.deliver({ username: me.username, type: actor ? 'mention' : 'system', actor, text, url });
    await deliver(noisy.username, 'noisy one');
    await deliver(quiet.username, 'quiet one');
    await deliver(noisy.username, 'noisy two');
    return { me, noisy, quiet, deliver, my: api(service, me) };
  }

  it('takes a muted actor’s notifications out of the inbox and the counts, those there and those to come', async () => {
    const { me, noisy, deliver, my } = await inboxWithNoise();
    const response = await my.mute({ actor: noisy.username });
    expect(response.status).toBe(201);
    const mute = await json<Mute>(response, 201);
    expect(mute).toEqual({
      id: expect.any(String),
      actor: noisy.username,
      url: null,
      until: null,
      createdAt: expect.any(String),
    });
    expect(await my.texts()).toEqual(['quiet one']);
    expect(await my.count()).toMatchObject({ mention: 1 });
    expect(await me.client.inbox.count()).toBe(1);

    await deliver(noisy.username, 'noisy three');
    expect(await my.texts()).toEqual(['quiet one']);
    expect(await me.client.inbox.count()).toBe(1);
    expect(await my.texts('muted=true')).toEqual(['noisy three', 'noisy two', 'noisy one']);
    expect(await my.texts('muted=true&unreadOnly=true&types=mention')).toHaveLength(3);
    expect(await my.mutes()).toEqual([mute]);

    // Following, the profile's counts and reports are not a mute's business.
    const profile = await me.client.user(noisy.username);
    expect(profile).toMatchObject({ following: false, followersCount: 0 });
  });

  it('brings notifications back as they were when the mute is removed, read state kept and nothing announced', async () => {
    const { me, noisy, my } = await inboxWithNoise();
    const [, , noisyOne] = (await me.client.inbox.fetch()).data;
    await me.client.inbox.markRead([noisyOne?.id as string]);
    const mute = await json<Mute>(await my.mute({ actor: noisy.username }), 201);
    const channel = await openLive(service, me.token);
    await channel.countOf(1);
    expect((await my.unmute(mute.id)).status).toBe(204);
    await channel.countOf(2);
    expect(await my.texts()).toEqual(['noisy two', 'quiet one', 'noisy one']);
    expect((await me.client.inbox.fetch()).data.map((n) => n.read)).toEqual([false, false, true]);
    expect(await my.mutes()).toEqual([]);
    expect(channel.pending.filter((frame) => frame.type === 'notification')).toEqual([]);
    expect((await problemOf(await my.unmute(mute.id))).code).toBe('mute_not_found');
    channel.close();
  });

  it('mutes a thread by its URL, and muting it again moves its end', async () => {
    const { me, noisy, quiet, deliver, my } = await inboxWithNoise();
    const thread = `${service.origin}/@${me.username}/posts/7`;
    await deliver(noisy.username, 'reply in the thread', thread);
    await deliver(quiet.username, 'like in the thread', thread);
    await deliver(null, 'elsewhere', 'https://example.org/posts/7');
    const inAnHour = hoursAhead(1);
    const first = await json<Mute>(await my.mute({ url: thread, until: inAnHour }), 201);
    expect(first).toMatchObject({ actor: null, url: thread, until: inAnHour });
    expect(await my.texts()).toEqual(['elsewhere', 'noisy two', 'quiet one', 'noisy one']);
    expect(await my.texts('muted=true')).toEqual(['like in the thread', 'reply in the thread']);

    const again = await my.mute({ url: thread, until: null });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ ...first, until: null });
    const other = await json<Mute>(await my.mute({ url: 'https://example.org/posts/7' }), 201);
    expect(await my.texts()).toEqual(['noisy two', 'quiet one', 'noisy one']);
    expect((await my.mutes()).map((m) => m.id)).toEqual([other.id, first.id]);
  });

  it('leaves muted notifications alone when all are marked read or deleted', async () => {
    const { me, noisy, my } = await inboxWithNoise();
    await my.mute({ actor: noisy.username });
    expect(await me.client.inbox.markRead('all')).toMatchObject({ count: 1 });
    expect(await me.client.inbox.delete('all')).toMatchObject({ count: 1 });
    const [muted] = await my.mutes();
    await my.unmute(muted?.id as string);
    expect(await my.texts('unreadOnly=true')).toEqual(['noisy two', 'noisy one']);
    expect(await me.client.inbox.count()).toBe(2);
  });

  it('lists a snoozed notification of a muted person with the muted snoozed ones, and keeps it muted when it wakes', async () => {
    const { me, noisy, my } = await inboxWithNoise();
    const [noisyTwo] = (await me.client.inbox.fetch()).data;
    await me.client.inbox.snooze([noisyTwo?.id as string], hoursAhead(2));
    const mute = await json<Mute>(await my.mute({ actor: noisy.username }), 201);
    expect(await my.texts('snoozed=true')).toEqual([]);
    expect(await my.texts('snoozed=true&muted=true')).toEqual(['noisy two']);
    expect(await my.texts('muted=true')).toEqual(['noisy one']);
    await me.client.inbox.unsnooze([noisyTwo?.id as string]);
    expect(await my.texts('muted=true')).toEqual(['noisy two', 'noisy one']);
    expect(await me.client.inbox.count()).toBe(1);
    await my.unmute(mute.id);
    expect(await me.client.inbox.count()).toBe(3);
  });

  it('refuses what is not a mute with a problem, and changes nothing', async () => {
    const { me, noisy, my } = await inboxWithNoise();
    const bodies: [string, unknown][] = [
      ['neither', {}],
      ['both', { actor: noisy.username, url: 'https://example.org/' }],
      ['a bad username', { actor: 'no such!' }],
      ['a URL that is not http(s)', { url: 'javascript:alert(1)' }],
      ['a URL that is too long', { url: `https://example.org/${'a'.repeat(2000)}` }],
      ['an end too soon', { actor: noisy.username, until: new Date(Date.now() + 10_000).toISOString() }],
      ['an end too late', { actor: noisy.username, until: hoursAhead(366 * 24) }],
      ['an end without offset', { actor: noisy.username, until: '2030-01-01T00:00:00' }],
      ['another field', { actor: noisy.username, reason: 'loud' }],
      ['yourself', { actor: me.username }],
      ['an array', [{ actor: noisy.username }]],
    ];
    for (const [label, body] of bodies) {
      const response = await my.mute(body);
      expect(response.status, label).toBe(400);
      expect((await problemOf(response)).code, label).toBe('invalid_mute');
    }
    const unknown = await my.mute({ actor: 'nobody_here_at_all' });
    expect(unknown.status).toBe(404);
    expect((await problemOf(unknown)).code).toBe('user_not_found');
    const unlabelled = await service.request('/inbox/mutes', {
      method: 'POST',
      token: me.token,
      body: '{}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(unlabelled.status).toBe(415);
    const anonymous = await service.request('/inbox/mutes', {
      method: 'POST',
      body: JSON.stringify({ actor: noisy.username }),
    });
    expect((await problemOf(anonymous)).code).toBe('unauthenticated');
    expect((await problemOf(await my.unmute('not-a-uuid'))).code).toBe('mute_not_found');
    expect(await my.mutes()).toEqual([]);
    expect(await me.client.inbox.count()).toBe(3);
  });

  it('keeps each user’s mutes their own', async () => {
    const { noisy, my } = await inboxWithNoise();
    const mute = await json<Mute>(await my.mute({ actor: noisy.username }), 201);
    const other = api(service, await service.newUser('other'));
    expect(await other.mutes()).toEqual([]);
    const refused = await other.unmute(mute.id);
    expect(refused.status).toBe(404);
    expect((await problemOf(refused)).code).toBe('mute_not_found');
    expect(await my.mutes()).toEqual([mute]);
  });

  it('holds at most 1,000 mutes per user', async () => {
    const { me, noisy, my } = await inboxWithNoise();
    await service.server.database.query(
      `INSERT INTO mutes (user_id, path)
       SELECT u.id, 'https://example.org/' || g FROM users u, generate_series(1, 999) g WHERE u.username = $1`,
      [me.username],
    );
    expect((await my.mute({ url: 'https://example.org/last' })).status).toBe(201);
    const over = await my.mute({ actor: noisy.username });
    expect(over.status).toBe(400);
    expect((await problemOf(over)).code).toBe('too_many_mutes');
    // Muting one already muted again is no new mute.
    expect((await my.mute({ url: 'https://example.org/last', until: hoursAhead(2) })).status).toBe(200);
    expect(await my.texts()).toHaveLength(3);
  });

  it('replays a repeated Idempotency-Key: one mute, the first answer again', async () => {
    const { noisy, my } = await inboxWithNoise();
    const key = randomBytes(12).toString('hex');
    const send = () =>
      my.send('POST', '/inbox/mutes', { actor: noisy.username, until: null }, { 'idempotency-key': key });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const mute = await first.json();
    expect(await again.json()).toEqual(mute);
    expect(await my.mutes()).toEqual([mute]);
    const removed = await my.send('DELETE', `/inbox/mutes/${mute.id}`, undefined, { 'idempotency-key': `${key}-d` });
    expect(removed.status).toBe(204);
    const removedAgain = await my.send('DELETE', `/inbox/mutes/${mute.id}`, undefined, {
      'idempotency-key': `${key}-d`,
    });
    expect(removedAgain.status).toBe(204);
    expect(removedAgain.headers.get('idempotent-replayed')).toBe('true');
  });

  it('sends no notification frame for a muted arrival, and moves the count of live channels', async () => {
    const { me, noisy, quiet, deliver, my } = await inboxWithNoise();
    const channel = await openLive(service, me.token);
    await channel.countOf(3);
    await my.mute({ actor: noisy.username });
    const counted = await channel.next('count');
    expect(counted).toMatchObject({ count: 1, byType: expect.objectContaining({ mention: 1 }) });
    await deliver(noisy.username, 'noisy again');
    const heard = await deliver(quiet.username, 'quiet again');
    // The count and the notification are two frames whose order the channel does not promise:
    // each is waited for without taking the other.
    const frames = () => channel.pending;
    await until(() => frames().some((frame) => frame.type === 'count' && frame.count === 2));
    await until(() => frames().some((frame) => frame.type === 'notification'));
    expect(frames().filter((frame) => frame.type === 'notification')).toEqual([
      { type: 'notification', notification: heard },
    ]);
    channel.close();
  });

  it('ends a mute at its time: the notifications come back and the live count rises then', async () => {
    const { me, noisy, my } = await inboxWithNoise();
    const channel = await openLive(service, me.token);
    await channel.countOf(3);
    skew = END_SOON_SKEW_MS;
    try {
      expect((await my.mute({ actor: noisy.username, until: soon() })).status).toBe(201);
    } finally {
      skew = 0;
    }
    await channel.countOf(1);
    await channel.countOf(3);
    expect(await my.texts()).toEqual(['noisy two', 'quiet one', 'noisy one']);
    expect(await my.mutes()).toEqual([]);
    channel.close();
  });

  describe('the strangers policy', () => {
    it('is accept until changed, and refuses anything but accept or mute', async () => {
      const { my } = await inboxWithNoise();
      expect(await json(await my.send('GET', '/inbox/policy'), 200)).toEqual({ strangers: 'accept' });
      for (const body of [{ strangers: 'MUTE' }, {}, { strangers: 'mute', more: 1 }, 'mute']) {
        const response = await my.send('PUT', '/inbox/policy', body);
        expect(response.status).toBe(400);
        expect((await problemOf(response)).code).toBe('invalid_body');
      }
      expect(await json(await my.policy('mute'), 200)).toEqual({ strangers: 'mute' });
      expect(await json(await my.send('GET', '/inbox/policy'), 200)).toEqual({ strangers: 'mute' });
    });

    it('mutes people the user does not follow, never system notifications, and following brings theirs back', async () => {
      const { me, noisy, quiet, deliver, my } = await inboxWithNoise();
      await deliver(null, 'system news');
      await me.client.user(quiet.username).follow();
      const channel = await openLive(service, me.token);
      await channel.countOf(4);
      await my.policy('mute');
      await channel.countOf(2);
      expect(await my.texts()).toEqual(['system news', 'quiet one']);
      expect(await my.texts('muted=true')).toEqual(['noisy two', 'noisy one']);

      await deliver(noisy.username, 'noisy while muted');
      await me.client.user(noisy.username).follow();
      await channel.countOf(5);
      expect(await my.texts()).toEqual(['noisy while muted', 'system news', 'noisy two', 'quiet one', 'noisy one']);
      await me.client.user(noisy.username).unfollow();
      await channel.countOf(2);

      // A mute of someone followed holds whatever the policy.
      await my.mute({ actor: quiet.username });
      await my.policy('accept');
      await channel.countOf(4);
      expect(await my.texts()).toEqual(['noisy while muted', 'system news', 'noisy two', 'noisy one']);
      expect(channel.pending.filter((frame) => frame.type === 'notification')).toEqual([]);
      channel.close();
    });
  });
});

describe.skipIf(!BACKENDS.includes('postgres'))('mutes across services on one PostgreSQL database', () => {
  const schema = `test_mutes_${randomBytes(5).toString('hex')}`;
  let a: TestService;
  let b: TestService;
  let skew = 0;

  beforeAll(async () => {
    a = await startTestService({ backend: 'postgres', schema, now: () => Date.now() + skew });
    b = await startTestService({ backend: 'postgres', schema });
  });
  afterAll(async () => {
    await b?.close();
    await a?.server.database.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await a?.close();
  });

  it('mutes a notification that arrives while the mute is being made', async () => {
    const me = await a.newUser('racing');
    const noisy = await a.newUser('noisy');
    let muting: Promise<Response> | undefined;
    await a.server.database.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO notifications (user_id, type, actor_id, text)
         SELECT u.id, 'mention', n.id, 'arriving' FROM users u, users n WHERE u.username = $1 AND n.username = $2`,
        [me.username, noisy.username],
      );
      muting = api(b, me).mute({ actor: noisy.username });
      // The mute waits for the arrival to commit, or (were they not to take turns) is done without it.
      const waiting = async () =>
        (await a.server.database.query('SELECT 1 FROM pg_locks WHERE locktype = $1 AND NOT granted', ['advisory']))
          .rowCount > 0;
      await Promise.race([muting, until(waiting)]);
    });
    expect((await muting)?.status).toBe(201);
    expect(await api(a, me).texts()).toEqual([]);
    expect(await me.client.inbox.count()).toBe(0);
  });

  it('moves the count on the other instance’s channels when a mute is made there, and when it ends', async () => {
    const me = await a.newUser('twice');
    const noisy = await a.newUser('noisy');
    await a.deliver({ username: me.username, type: 'like', actor: noisy.username, text: 'liked' });
    await a.deliver({ username: me.username, type: 'system', text: 'system' });
    const channel = await openWithTicket(b, await newTicket(a, me.token));
    await channel.countOf(2);
    skew = END_SOON_SKEW_MS;
    try {
      const made = await api(a, me).mute({ actor: noisy.username, until: soon() });
      expect(made.status).toBe(201);
    } finally {
      skew = 0;
    }
    await channel.countOf(1);
    await channel.countOf(2);
    channel.close();
  });
});
