import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../lib/api';
import { BACKENDS, startTestService, type TestService, type TestUser, uniqueUsername } from '../support/service';
import { startTwoInstances } from './support/instances';
import { problemOf } from './support/problem';
import { holdTableLock } from './support/table-lock';

const REPLAYED = 'idempotent-replayed';

describe.each(BACKENDS)('Idempotency-Key on %s', (backend) => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ backend });
  });
  afterAll(() => service?.close());

  function send(user: TestUser, path: string, key: string | null, init: { method?: string; body?: unknown } = {}) {
    return service.request(path, {
      method: init.method ?? 'POST',
      token: user.token,
      headers: key === null ? {} : { 'idempotency-key': key },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  }

  async function followNotices(user: TestUser): Promise<number> {
    return (await user.client.inbox.fetch({ types: ['follow'] })).data.length;
  }

  async function reportsBy(user: TestUser): Promise<number> {
    const found = await service.server.database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM reports r JOIN users u ON u.id = r.reporter_id WHERE u.username = $1',
      [user.username],
    );
    return found.rows[0]?.n ?? 0;
  }

  const report = { reason: 'spam', comment: 'the same report' };

  it('answers a repeated follow with the first answer and follows once', async () => {
    const [me, them] = [await service.newUser('fan'), await service.newUser('idol')];
    const key = randomUUID();
    const first = await send(me, `/user/${them.username}/follow`, key);
    expect(first.status).toBe(204);
    expect(first.headers.get(REPLAYED)).toBeNull();
    const again = await send(me, `/user/${them.username}/follow`, key);
    expect(again.status).toBe(204);
    expect(again.headers.get(REPLAYED)).toBe('true');
    expect(await followNotices(them)).toBe(1);

    // Without a key a repeat acts as it always did.
    const plain = await send(me, `/user/${them.username}/follow`, null);
    expect((await problemOf(plain)).code).toBe('already_following');
    expect(plain.headers.get(REPLAYED)).toBeNull();
  });

  it('answers a repeated report with the same report, made once', async () => {
    const [me, them] = [await service.newUser('reporter'), await service.newUser('reported')];
    const key = randomUUID();
    const first = await send(me, `/user/${them.username}/report`, key, { body: report });
    const again = await send(me, `/user/${them.username}/report`, key, { body: report });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get(REPLAYED)).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await again.text()).toBe(await first.text());
    expect(await reportsBy(me)).toBe(1);
  });

  it('gives one undo token for a repeated delete of everything', async () => {
    const me = await service.newUser('deleter');
    await service.fillInbox(me.username, 3);
    const key = randomUUID();
    const first = await send(me, '/inbox/delete', key, { body: { ids: 'all' } });
    const again = await send(me, '/inbox/delete', key, { body: { ids: 'all' } });
    const [one, two] = [await first.json(), await again.json()];
    expect(one).toMatchObject({ success: true, count: 3 });
    expect(two).toEqual(one);
    expect(again.headers.get(REPLAYED)).toBe('true');
    expect(await me.client.inbox.undo(one.undo)).toMatchObject({ count: 3 });
  });

  it('refuses a key used for a different body or path with 422, doing nothing', async () => {
    const [me, them, other] = [
      await service.newUser('reuser'),
      await service.newUser('target'),
      await service.newUser('other'),
    ];
    const key = randomUUID();
    expect((await send(me, `/user/${them.username}/report`, key, { body: report })).status).toBe(201);
    const otherBody = await send(me, `/user/${them.username}/report`, key, { body: { ...report, comment: 'else' } });
    expect(otherBody.status).toBe(422);
    expect((await problemOf(otherBody)).code).toBe('idempotency_key_reused');
    const otherPath = await send(me, `/user/${other.username}/follow`, key);
    expect((await problemOf(otherPath)).code).toBe('idempotency_key_reused');
    expect(await reportsBy(me)).toBe(1);
    expect(await followNotices(other)).toBe(0);
  });

  it('acts once for the same key sent many times at once', async () => {
    const [me, them] = [await service.newUser('eager'), await service.newUser('calm')];
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => send(me, `/user/${them.username}/report`, key, { body: report })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses).toContain(201);
    for (const status of statuses) expect([201, 409]).toContain(status);
    expect(await reportsBy(me)).toBe(1);
  });

  it('replays a 404 but tries a 403, 401 or 429 afresh', async () => {
    const me = await service.newUser('tries');
    const missing = uniqueUsername('later');
    const key = randomUUID();
    expect((await send(me, `/user/${missing}/follow`, key)).status).toBe(404);
    await service.server.admin.createUser({ username: missing });
    const replayed = await send(me, `/user/${missing}/follow`, key);
    expect(replayed.status).toBe(404);
    expect(replayed.headers.get(REPLAYED)).toBe('true');
    expect((await problemOf(replayed)).code).toBe('user_not_found');

    // A user's token on the operator API is refused, and the key stays free for what comes next.
    const forbidden = randomUUID();
    const notice = { body: { username: me.username, type: 'system', text: 'hello' } };
    expect((await send(me, '/operator/notifications', forbidden, notice)).status).toBe(403);
    const refusedAgain = await send(me, '/operator/notifications', forbidden, notice);
    expect(refusedAgain.status).toBe(403);
    expect(refusedAgain.headers.get(REPLAYED)).toBeNull();

    const unknown = await service.request(`/user/${missing}/follow`, {
      method: 'POST',
      token: 'AAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      headers: { 'idempotency-key': forbidden },
    });
    expect(unknown.status).toBe(401);

    const them = await service.newUser('limited');
    for (let i = 0; i < LIMITS.reportsPerHour; i++) {
      expect((await send(me, `/user/${them.username}/report`, null, { body: report })).status).toBe(201);
    }
    const limited = randomUUID();
    expect((await send(me, `/user/${them.username}/report`, limited, { body: report })).status).toBe(429);
    await service.server.database.query(
      "UPDATE reports SET created_at = created_at - interval '2 hours' WHERE reporter_id = (SELECT id FROM users WHERE username = $1)",
      [me.username],
    );
    const later = await send(me, `/user/${them.username}/report`, limited, { body: report });
    expect(later.status).toBe(201);
    expect(later.headers.get(REPLAYED)).toBeNull();
  });

  it('refuses a key that is too long or has a character that is not visible ASCII', async () => {
    const [me, them] = [await service.newUser('badkey'), await service.newUser('untouched')];
    for (const key of ['x'.repeat(256), 'two words', 'tab\there', 'caf\u00e9']) {
      const answer = await send(me, `/user/${them.username}/follow`, key);
      expect(answer.status).toBe(400);
      expect((await problemOf(answer)).code).toBe('invalid_parameter');
    }
    expect(await followNotices(them)).toBe(0);
    expect((await send(me, `/user/${them.username}/follow`, 'k'.repeat(255))).status).toBe(204);
  });

  it('keeps the keys of two users apart', async () => {
    const [alice, carol, bob] = [
      await service.newUser('alice'),
      await service.newUser('carol'),
      await service.newUser('bob'),
    ];
    const key = 'the-same-key';
    const fromAlice = await send(alice, `/user/${bob.username}/follow`, key);
    const fromCarol = await send(carol, `/user/${bob.username}/follow`, key);
    expect([fromAlice.status, fromCarol.status]).toEqual([204, 204]);
    expect(fromCarol.headers.get(REPLAYED)).toBeNull();
    expect(await followNotices(bob)).toBe(2);
  });

  it('forgets a key after 24 hours', async () => {
    const [me, them] = [await service.newUser('forgets'), await service.newUser('twice')];
    const key = randomUUID();
    expect((await send(me, `/user/${them.username}/report`, key, { body: report })).status).toBe(201);
    await service.server.database.query(
      "UPDATE idempotency_keys SET created_at = created_at - interval '23 hours' WHERE key = $1",
      [key],
    );
    expect((await send(me, `/user/${them.username}/report`, key, { body: { ...report, comment: 'new' } })).status).toBe(
      422,
    );
    await service.server.database.query(
      "UPDATE idempotency_keys SET created_at = created_at - interval '2 hours' WHERE key = $1",
      [key],
    );
    const fresh = await send(me, `/user/${them.username}/report`, key, { body: { ...report, comment: 'new' } });
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get(REPLAYED)).toBeNull();
    expect(await reportsBy(me)).toBe(2);

    await service.server.database.query(
      "UPDATE idempotency_keys SET created_at = created_at - interval '25 hours' WHERE key = $1",
      [key],
    );
    await service.server.admin.purgeExpired();
    const left = await service.server.database.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [key]);
    expect(left.rowCount).toBe(0);
  });
});

describe.runIf(BACKENDS.includes('postgres'))('Idempotency-Key across instances on postgres', () => {
  it('answers 409 with Retry-After while the first request still runs', async () => {
    const service = await startTestService({ backend: 'postgres' });
    try {
      const [me, them] = [await service.newUser('slow'), await service.newUser('waits')];
      const key = randomUUID();
      const send = () =>
        service.request(`/user/${them.username}/report`, {
          method: 'POST',
          token: me.token,
          headers: { 'idempotency-key': key },
          body: JSON.stringify({ reason: 'spam', comment: 'held' }),
        });
      const lock = await holdTableLock(service.server.database, 'reports', 'EXCLUSIVE');
      const first = send();
      for (;;) {
        const waiting = await service.server.database.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'reports'::regclass AND NOT granted",
        );
        if ((waiting.rows[0]?.n ?? 0) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const during = await send();
      expect(during.status).toBe(409);
      expect(during.headers.get('retry-after')).toBe('1');
      expect((await problemOf(during)).code).toBe('request_in_progress');
      await lock.release();
      const done = await first;
      expect(done.status).toBe(201);
      const after = await send();
      expect(after.status).toBe(201);
      expect(after.headers.get(REPLAYED)).toBe('true');
      expect(await after.json()).toEqual(await done.json());
    } finally {
      await service.close();
    }
  });

  it('acts once when two instances get the same key at the same moment', async () => {
    const { a, b, close } = await startTwoInstances('idem');
    try {
      const them = await a.newUser('popular');
      for (let round = 0; round < 5; round++) {
        const me = await a.newUser(`racer${round}`);
        const key = randomUUID();
        const follow = (service: TestService) =>
          service.request(`/user/${them.username}/follow`, {
            method: 'POST',
            token: me.token,
            headers: { 'idempotency-key': key },
          });
        const answers = await Promise.all([follow(a), follow(b), follow(a), follow(b)]);
        for (const answer of answers) expect([204, 409]).toContain(answer.status);
        expect(answers.map((answer) => answer.status)).toContain(204);
      }
      const notices = await a.server.database.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.username = $1 AND n.type = 'follow'",
        [them.username],
      );
      expect(notices.rows[0]?.n).toBe(5);
    } finally {
      await close();
    }
  });
});
