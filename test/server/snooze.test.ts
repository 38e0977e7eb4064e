import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, InvalidUntilError, type Notification, type NotificationType } from '../../lib/api';
import { BACKENDS, sharedStore, startTestService, type TestService, type TestUser } from '../support/service';
import { until as eventually } from '../support/until';
import { openLive } from './support/live';
import { problemOf } from './support/problem';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const hoursAhead = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const NONE = { follow: 0, mention: 0, reply: 0, like: 0, system: 0 };

/**
 * How far behind real time the services' clock runs while a test waits for a real wake: a
 * snooze must end at least 60 s ahead by that clock, and wakes by the database's, so a snooze
 * made this way wakes 2 s later.
 */
const WAKE_SOON_SKEW_MS = -58_500;
/**
 * A wake time just over 60 s ahead by a clock `WAKE_SOON_SKEW_MS` behind: `leadMs` from now
 * (2 s by default). It stays a valid snooze for `leadMs` less 1.5 s.
 */
const soon = (leadMs = 2_000) => new Date(Date.now() + leadMs).toISOString();

/** Every id a listing (`query`, as sent) shows the user, page after page. */
async function idsOf(service: TestService, user: TestUser, query = ''): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const after = cursor ? `&cursor=${cursor}` : '';
    const response = await service.request(`/inbox/fetch?limit=2&${query}${after}`, { token: user.token });
    const page = (await response.json()) as { data: Notification[]; cursor: string | null };
    ids.push(...page.data.map((n) => n.id));
    cursor = page.cursor;
  } while (cursor !== null);
  return ids;
}

/** A user whose inbox holds one notification of each type given, the first the newest. */
async function userWith(service: TestService, prefix: string, types: readonly NotificationType[], read = false) {
  const user = await service.newUser(prefix);
  const ids = await service.notify(
    user.username,
    types.map((type, i) => ({ type, text: `n${i}`, read, createdAt: minutesAgo(i + 1) })),
  );
  return { user, ids };
}

describe.each(BACKENDS)('snooze on %s', (backend) => {
  let service: TestService;
  let skew = 0;

  beforeAll(async () => {
    service = await startTestService({ backend, now: () => Date.now() + skew });
  });
  afterAll(() => service?.close());

  it('takes snoozed notifications out of the inbox and the counts, and lists them soonest to wake first', async () => {
    const { user, ids } = await userWith(service, 'snoozer', ['mention', 'reply', 'like', 'system']);
    const [mention = '', reply = '', like = '', system = ''] = ids;
    const later = hoursAhead(2);
    const sooner = hoursAhead(1);
    expect(await user.client.inbox.snooze([mention], later)).toMatchObject({ success: true, count: 1 });
    const both = await user.client.inbox.snooze([like, reply], sooner);
    expect(both.count).toBe(2);
    expect(both.undo).toEqual(expect.any(String));

    expect(await idsOf(service, user)).toEqual([system]);
    expect(await user.client.inbox.count()).toBe(1);
    expect(await user.client.inbox.countByType()).toEqual({ ...NONE, system: 1 });

    const snoozed = await user.client.inbox.fetch({ snoozed: true });
    expect(snoozed.data.map((n) => n.id)).toEqual([...[reply, like].sort(), mention]);
    expect(snoozed.data.map((n) => n.snoozedUntil)).toEqual([sooner, sooner, later]);
    expect(await idsOf(service, user, 'snoozed=true&types=mention')).toEqual([mention]);
    const [shown] = (await user.client.inbox.fetch()).data;
    expect(shown).toMatchObject({ id: system, snoozedUntil: null, sortedAt: shown?.createdAt });
  });

  it('moves the wake time of a snoozed notification, and each undo puts back the snooze state before it', async () => {
    const { user, ids } = await userWith(service, 'mover', ['mention', 'reply']);
    const [first = ''] = ids;
    const [inOneHour, inFiveHours] = [hoursAhead(1), hoursAhead(5)];
    const one = await user.client.inbox.snooze([first], inOneHour);
    const two = await user.client.inbox.snooze([first], inFiveHours);
    const snoozedUntil = async () => (await user.client.inbox.fetch({ snoozed: true })).data[0]?.snoozedUntil;
    expect(await snoozedUntil()).toBe(inFiveHours);

    expect(await user.client.inbox.undo(two.undo as string)).toEqual({ success: true, count: 1 });
    expect(await snoozedUntil()).toBe(inOneHour);
    expect(await user.client.inbox.count()).toBe(1);
    // The second snooze changed it since the first: the first's undo leaves it as it is.
    expect(await user.client.inbox.undo(one.undo as string)).toEqual({ success: true, count: 0 });
    expect(await snoozedUntil()).toBe(inOneHour);

    await user.client.inbox.unsnooze([first]);
    const again = await user.client.inbox.snooze(ids, inFiveHours);
    expect(await user.client.inbox.countByType()).toEqual(NONE);
    expect(await user.client.inbox.undo(again.undo as string)).toEqual({ success: true, count: 2 });
    expect(await snoozedUntil()).toBeUndefined();
    expect(await idsOf(service, user)).toEqual([first, ids[1]]);
    expect(await user.client.inbox.countByType()).toEqual({ ...NONE, mention: 1, reply: 1 });
  });

  it('unsnoozes: the notification comes back now, unread, at the top', async () => {
    const { user, ids } = await userWith(service, 'unsnoozer', ['reply', 'like', 'follow'], true);
    const oldest = ids[2] as string;
    await user.client.inbox.snooze([oldest], hoursAhead(3));
    expect(await user.client.inbox.count()).toBe(0);
    expect(await user.client.inbox.unsnooze([oldest, ids[0] as string])).toEqual({ success: true, count: 1 });
    const [top] = (await user.client.inbox.fetch()).data;
    expect(top).toMatchObject({ id: oldest, read: false, snoozedUntil: null });
    expect(Date.parse(top?.sortedAt as string)).toBeGreaterThan(Date.parse(top?.createdAt as string));
    expect(await user.client.inbox.countByType()).toEqual({ ...NONE, follow: 1 });
    expect(await user.client.inbox.unsnooze([oldest])).toEqual({ success: true, count: 0 });
    expect((await user.client.inbox.fetch({ snoozed: true })).data).toEqual([]);
  });

  it('refuses a bad until with invalid_until and bad ids with invalid_ids, and changes nothing', async () => {
    const { user, ids } = await userWith(service, 'refused', ['mention']);
    const snooze = (body: unknown) =>
      service.request('/inbox/snooze', { method: 'POST', token: user.token, body: JSON.stringify(body) });
    // Three hours ahead on the wall clock of UTC: two hours ahead at +01:00.
    const local = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 19);
    const badUntil = [
      minutesAgo(5),
      new Date(Date.now() + 30_000).toISOString(),
      new Date(Date.now() + 366 * 86_400_000).toISOString(),
      local,
      `${local}+25:00`,
      'tomorrow',
      '2027-02-30T09:00:00Z',
      '',
      3_600,
      null,
      undefined,
    ];
    for (const until of badUntil) {
      const response = await snooze({ ids, until });
      expect(response.status, String(until)).toBe(400);
      expect((await problemOf(response)).code, String(until)).toBe('invalid_until');
    }
    expect((await snooze({ ids, until: `${local}+01:00` })).status).toBe(200);
    await user.client.inbox.unsnooze(ids);
    const tooMany = Array.from({ length: 501 }, () => crypto.randomUUID());
    for (const idList of ['all', ['not-a-uuid'], tooMany, undefined, [ids[0], 5]]) {
      const response = await snooze({ ids: idList, until: hoursAhead(1) });
      expect(response.status).toBe(400);
      expect((await problemOf(response)).code).toBe('invalid_ids');
    }
    const unsnooze = await service.request('/inbox/unsnooze', {
      method: 'POST',
      token: user.token,
      body: JSON.stringify({ ids: 'all' }),
    });
    expect((await problemOf(unsnooze)).code).toBe('invalid_ids');
    expect(await idsOf(service, user)).toEqual(ids);

    const tooNear = new Date(Date.now() + 10_000);
    await expect(user.client.inbox.snooze(ids, tooNear)).rejects.toBeInstanceOf(InvalidUntilError);
    await expect(user.client.inbox.snooze(ids, 'tomorrow')).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(await user.client.inbox.count()).toBe(1);
  });

  it('leaves snoozed notifications out of "all": mark all read and delete all touch the inbox as listed', async () => {
    const { user, ids } = await userWith(service, 'allbut', ['mention', 'reply', 'like']);
    await user.client.inbox.snooze([ids[0] as string], hoursAhead(1));
    expect(await user.client.inbox.markRead('all')).toMatchObject({ count: 2 });
    expect(await user.client.inbox.delete('all')).toMatchObject({ count: 2 });
    const [snoozed] = (await user.client.inbox.fetch({ snoozed: true })).data;
    expect(snoozed).toMatchObject({ id: ids[0], read: false });
    await user.client.inbox.unsnooze([ids[0] as string]);
    expect(await idsOf(service, user)).toEqual([ids[0]]);
    expect(await user.client.inbox.countByType()).toEqual({ ...NONE, mention: 1 });
  });

  it('skips ids that are not the caller’s', async () => {
    const { user: alice, ids } = await userWith(service, 'alice', ['mention']);
    const bob = await service.newUser('bob');
    expect(await bob.client.inbox.snooze(ids, hoursAhead(1))).toEqual({ success: true, count: 0, undo: null });
    expect(await alice.client.inbox.count()).toBe(1);
    await alice.client.inbox.snooze(ids, hoursAhead(1));
    expect(await bob.client.inbox.unsnooze(ids)).toEqual({ success: true, count: 0 });
    expect(await alice.client.inbox.count()).toBe(0);
  });

  it('filters by type, pages across types in order, and binds each cursor to its listing', async () => {
    const types: NotificationType[] = ['mention', 'like', 'reply', 'like', 'follow', 'mention', 'like', 'reply'];
    const { user, ids } = await userWith(service, 'filter', [...types, ...types]);
    const wanted = ids.filter((_, i) => ['mention', 'reply'].includes(types[i % types.length] as string));
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Notification[]; cursor: string | null } = await user.client.inbox.fetch({
        limit: 3,
        cursor,
        types: ['reply', 'mention'],
      });
      for (const n of page.data) expect(['mention', 'reply']).toContain(n.type);
      paged.push(...page.data.map((n) => n.id));
      cursor = page.cursor;
    } while (cursor !== null);
    expect(paged).toEqual(wanted);
    expect(await idsOf(service, user, 'types=like')).toEqual(ids.filter((_, i) => types[i % types.length] === 'like'));

    const { cursor: bound } = await user.client.inbox.fetch({ limit: 2, types: ['mention', 'reply'] });
    const { cursor: snoozedCursor } = await user.client.inbox.fetch({ limit: 1, snoozed: true });
    expect(snoozedCursor).toBeNull();
    await user.client.inbox.snooze(ids.slice(0, 2), hoursAhead(1));
    const { cursor: ofSnoozed } = await user.client.inbox.fetch({ limit: 1, snoozed: true });
    for (const [query, given] of [
      ['types=mention', bound],
      ['', bound],
      ['types=reply,mention&unreadOnly=true', bound],
      ['snoozed=true&types=mention,reply', bound],
      ['', ofSnoozed],
      ['types=mention,reply', ofSnoozed],
    ] as const) {
      const response = await service.request(`/inbox/fetch?${query}&cursor=${given}`, { token: user.token });
      expect((await problemOf(response)).code, query).toBe('invalid_cursor');
    }
    const same = await service.request(`/inbox/fetch?types=reply,mention&cursor=${bound}`, { token: user.token });
    expect(same.status).toBe(200);
    const next = await service.request(`/inbox/fetch?snoozed=true&cursor=${ofSnoozed}`, { token: user.token });
    expect(((await next.json()) as { data: Notification[] }).data.map((n) => n.id)).toHaveLength(1);

    for (const query of ['types=mentions', 'types=mention,mention', 'types=', 'types=mention,', 'types=a&types=b']) {
      const response = await service.request(`/inbox/fetch?${query}`, { token: user.token });
      expect((await problemOf(response)).code, query).toBe('invalid_parameter');
    }
    for (const query of ['snoozed=yes', 'snoozed=true&snoozed=false']) {
      const response = await service.request(`/inbox/fetch?${query}`, { token: user.token });
      expect((await problemOf(response)).code, query).toBe('invalid_parameter');
    }
  });

  it('covers the counts by type with the ETag and live frames, even when the total stays the same', async () => {
    const { user, ids } = await userWith(service, 'etag', ['mention', 'like']);
    await user.client.inbox.markRead([ids[1] as string]);
    const first = await user.client.inbox.checkCount();
    expect(first).toMatchObject({ changed: true, count: 1, byType: { ...NONE, mention: 1 } });
    const channel = await openLive(service, user.token);
    await channel.countOf(1);
    await service.server.database.transaction(async (tx) => {
      await tx.query('UPDATE notifications SET read = true WHERE id = $1', [ids[0]]);
      await tx.query('UPDATE notifications SET read = false WHERE id = $1', [ids[1]]);
    });
    const second = await user.client.inbox.checkCount(first.etag);
    expect(second).toMatchObject({ changed: true, count: 1, byType: { ...NONE, like: 1 } });
    expect(await channel.next('count')).toEqual({ type: 'count', count: 1, byType: { ...NONE, like: 1 } });
    channel.close();
  });

  it('wakes a snooze at its time: the count rises and live channels hear it, with no request', async () => {
    const { user, ids } = await userWith(service, 'waker', ['reply', 'mention']);
    const channel = await openLive(service, user.token);
    await channel.countOf(2);
    skew = WAKE_SOON_SKEW_MS;
    const until = soon();
    const wokenBefore = service.server.snoozes.woken;
    try {
      await user.client.inbox.snooze([ids[1] as string], until);
    } finally {
      skew = 0;
    }
    await channel.countOf(1);
    const risen = await channel.next('count');
    expect(risen).toEqual({ type: 'count', count: 2, byType: { ...NONE, reply: 1, mention: 1 } });
    channel.close();
    // The channel can hear the commit before the waking instance has counted it.
    await eventually(() => service.server.snoozes.woken > wokenBefore);
    expect(service.server.snoozes.woken - wokenBefore).toBe(1);
    const [top] = (await user.client.inbox.fetch()).data;
    expect(top).toMatchObject({ id: ids[1], read: false, snoozedUntil: null });
    expect(Date.parse(top?.sortedAt as string)).toBeGreaterThanOrEqual(Date.parse(until));
  });
});

const skewed = () => Date.now() + WAKE_SOON_SKEW_MS;

describe.each(BACKENDS)('waking across restarts on %s', (backend) => {
  const store = sharedStore(backend, 'snooze');
  afterAll(() => store.cleanUp());

  it('wakes, at its start, what came due while the service was down', async () => {
    const first = await startTestService({ backend, now: skewed, ...store.options });
    const { user, ids } = await userWith(first, 'sleeper', ['mention', 'like']);
    const until = soon();
    await user.client.inbox.snooze([ids[0] as string], until);
    expect(await user.client.inbox.count()).toBe(1);
    await first.close();
    // The service is down at the wake time.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(until) - Date.now() + 50)));

    const second = await startTestService({ backend, ...store.options });
    try {
      const client = second.client(user.token);
      expect(await client.inbox.countByType()).toEqual({ ...NONE, mention: 1, like: 1 });
      expect(second.server.snoozes.woken).toBe(1);
      expect((await client.inbox.fetch()).data[0]).toMatchObject({ id: ids[0], read: false, snoozedUntil: null });
    } finally {
      await second.close();
    }
  });
});

describe.runIf(process.env.DATABASE_URL)('two instances on one PostgreSQL database', () => {
  const schema = `test_wake_${process.pid}_${Date.now()}`;
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    a = await startTestService({ backend: 'postgres', schema, now: skewed });
    b = await startTestService({ backend: 'postgres', schema, now: skewed });
  });
  afterAll(async () => {
    await b?.close();
    await a?.server.database.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await a?.close();
  });

  it('wake each snooze once, and the channels on both hear it', async () => {
    // Everyone is set up first, so the snoozes' time need cover only the four snoozes at once.
    const users = [];
    for (let i = 0; i < 4; i++) {
      const service = i % 2 === 0 ? a : b;
      const { user, ids } = await userWith(service, `shared${i}`, ['mention', 'reply', 'like', 'follow', 'system']);
      users.push({ user, ids, channel: await openLive(i % 2 === 0 ? b : a, user.token) });
    }
    const until = soon(3_000);
    await Promise.all(users.map(({ user, ids }) => user.client.inbox.snooze(ids, until)));
    const before = a.server.snoozes.woken + b.server.snoozes.woken;
    for (const { channel } of users) {
      await channel.countOf(0);
      await channel.countOf(5);
      channel.close();
    }
    const woken = () => a.server.snoozes.woken + b.server.snoozes.woken - before;
    await eventually(() => woken() >= 20);
    expect(woken()).toBe(20);
    for (const { user } of users) {
      expect(await a.client(user.token).inbox.countByType()).toEqual({
        follow: 1,
        mention: 1,
        reply: 1,
        like: 1,
        system: 1,
      });
    }
  });
});
