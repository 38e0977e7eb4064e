import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, type Notification, UnauthenticatedError } from '../../lib/api';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../support/service';
import { expectInvalidIds, problemOf } from './support/problem';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** A triage answer for `count` changed notifications: an undo token exactly when something changed. */
const changed = (count: number) => ({ success: true, count, undo: count === 0 ? null : expect.any(String) });

async function walk(user: TestUser, options: { limit: number; unreadOnly?: boolean }, between?: () => Promise<void>) {
  const seen: Notification[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: { data: Notification[]; cursor: string | null } = await user.client.inbox.fetch({ ...options, cursor });
    seen.push(...page.data);
    cursor = page.cursor;
    pages += 1;
    if (between && cursor) await between();
  } while (cursor);
  return { seen, pages };
}

describe.each(BACKENDS)('inbox on %s', (backend) => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ backend, pollIntervalSeconds: 45 });
  });
  afterAll(() => service?.close());

  describe('authentication', () => {
    const endpoints: [string, RequestInit][] = [
      ['/inbox/fetch', {}],
      ['/inbox/count', {}],
      ['/inbox/read', { method: 'POST', body: '{"ids":"all"}' }],
      ['/inbox/delete', { method: 'POST', body: '{"ids":"all"}' }],
      ['/inbox/unread', { method: 'POST', body: '{"ids":[]}' }],
      ['/inbox/undo', { method: 'POST', body: '{"undo":"x.y"}' }],
    ];

    it.each(endpoints)('%s answers 401 with a Bearer challenge without a token', async (path, init) => {
      const response = await service.request(path, init);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      expect((await problemOf(response)).code).toBe('unauthenticated');
    });

    it('refuses unknown, malformed, altered and revoked tokens, and other schemes', async () => {
      const user = await service.newUser('auth');
      await service.notify(user.username, [{ type: 'system', text: 'hello' }]);
      const altered = `${user.token.slice(0, -1)}${user.token.endsWith('A') ? 'B' : 'A'}`;
      for (const header of [
        'Bearer nope',
        `Bearer ${altered}`,
        `Basic ${Buffer.from('a:b').toString('base64')}`,
        'Bearer',
        `Bearer ${user.token}x`,
      ]) {
        const response = await service.request('/inbox/count', { headers: { authorization: header } });
        expect(response.status, header).toBe(401);
        expect((await problemOf(response)).code).toBe('unauthenticated');
      }
      expect(await user.client.inbox.count()).toBe(1);
      expect(await service.server.admin.revokeToken(user.token)).toBe(true);
      await expect(user.client.inbox.count()).rejects.toBeInstanceOf(UnauthenticatedError);
    });

    it('accepts the scheme in any letter case', async () => {
      const user = await service.newUser('scheme');
      const response = await service.request('/inbox/count', { headers: { authorization: `bearer ${user.token}` } });
      expect(response.status).toBe(200);
    });
  });

  describe('fetch', () => {
    it('gives newest first, 20 by default, with every field of the contract', async () => {
      const user = await service.newUser('fetch');
      const actor = await service.newUser('actor', { displayName: 'Actor Name' });
      const ids = await service.notify(
        user.username,
        Array.from({ length: 25 }, (_, i) => ({
          type: i % 2 ? ('like' as const) : ('system' as const),
          actor: i % 2 ? actor.username : null,
          text: `n${i}`,
          createdAt: minutesAgo(100 - i),
        })),
      );
      const page = await user.client.inbox.fetch();
      expect(page.data).toHaveLength(20);
      expect(page.cursor).not.toBeNull();
      expect(page.data.map((n) => n.text)).toEqual(Array.from({ length: 20 }, (_, i) => `n${24 - i}`));
      const like = page.data.find((n) => n.type === 'like');
      expect(like).toMatchObject({
        read: false,
        actor: { username: actor.username, displayName: 'Actor Name' },
        url: `${service.origin}/@${actor.username}`,
      });
      expect(page.data.find((n) => n.type === 'system')).toMatchObject({ actor: null, url: null });
      expect(page.data[0]?.id).toBe(ids[24]);
    });

    it('breaks ties of the same moment by id, on every page', async () => {
      const user = await service.newUser('ties');
      const at = minutesAgo(5);
      await service.notify(
        user.username,
        Array.from({ length: 13 }, (_, i) => ({ type: 'system' as const, text: `t${i}`, createdAt: at })),
      );
      const { seen, pages } = await walk(user, { limit: 4 });
      expect(pages).toBe(4);
      const ids = seen.map((n) => n.id);
      expect(ids).toEqual([...ids].sort().reverse());
      expect(new Set(ids).size).toBe(13);
    });

    it('answers an empty inbox with no data and no cursor, and a full last page with no cursor', async () => {
      const user = await service.newUser('empty');
      expect(await user.client.inbox.fetch()).toEqual({ data: [], cursor: null });
      await service.fillInbox(user.username, 5);
      const page = await user.client.inbox.fetch({ limit: 5 });
      expect(page.data).toHaveLength(5);
      expect(page.cursor).toBeNull();
    });

    it('accepts limit 1 and 100 and refuses anything else with invalid_limit', async () => {
      const user = await service.newUser('limit');
      await service.fillInbox(user.username, 101);
      expect((await user.client.inbox.fetch({ limit: 1 })).data).toHaveLength(1);
      expect((await user.client.inbox.fetch({ limit: 100 })).data).toHaveLength(100);
      for (const limit of ['0', '101', '-1', '1.5', 'ten', '', ' 5', '1e2', '0x10', '5&limit=6']) {
        const response = await service.request(`/inbox/fetch?limit=${limit}`, { token: user.token });
        expect(response.status, limit).toBe(400);
        expect((await problemOf(response)).code, limit).toBe('invalid_limit');
      }
    });

    it('refuses an unreadOnly that is not true or false with invalid_parameter', async () => {
      const user = await service.newUser('unreadonly');
      for (const value of ['yes', 'TRUE', '1', '', 'true&unreadOnly=false']) {
        const response = await service.request(`/inbox/fetch?unreadOnly=${value}`, { token: user.token });
        expect(response.status, value).toBe(400);
        expect((await problemOf(response)).code).toBe('invalid_parameter');
      }
    });

    it('lists only unread notifications with unreadOnly', async () => {
      const user = await service.newUser('unread');
      await service.notify(user.username, [
        { type: 'system', text: 'read one', read: true, createdAt: minutesAgo(3) },
        { type: 'system', text: 'unread one', createdAt: minutesAgo(2) },
        { type: 'system', text: 'read two', read: true, createdAt: minutesAgo(1) },
      ]);
      const page = await user.client.inbox.fetch({ unreadOnly: true });
      expect(page.data.map((n) => n.text)).toEqual(['unread one']);
      expect((await user.client.inbox.fetch({ unreadOnly: false })).data).toHaveLength(3);
    });
  });

  describe('cursors', () => {
    it('walk the whole inbox with no duplicates or gaps while new notifications arrive', async () => {
      const user = await service.newUser('walk');
      const original = await service.notify(
        user.username,
        Array.from({ length: 47 }, (_, i) => ({
          type: 'mention' as const,
          text: `old ${i}`,
          createdAt: minutesAgo(60 + i),
        })),
      );
      let arrivals = 0;
      const { seen, pages } = await walk(user, { limit: 10 }, async () => {
        arrivals += 1;
        await service.notify(user.username, [{ type: 'like', text: `new ${arrivals}` }]);
      });
      expect(pages).toBe(5);
      expect(seen.map((n) => n.id)).toEqual(original);
      expect((await user.client.inbox.fetch({ limit: 100 })).data).toHaveLength(47 + arrivals);
    });

    it('walk the unread listing with no gaps while the walker marks each page read', async () => {
      const user = await service.newUser('unreadwalk');
      const ids = await service.notify(
        user.username,
        Array.from({ length: 30 }, (_, i) => ({ type: 'reply' as const, text: `r${i}`, createdAt: minutesAgo(i + 1) })),
      );
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { data: Notification[]; cursor: string | null } = await user.client.inbox.fetch({
          limit: 7,
          unreadOnly: true,
          cursor,
        });
        seen.push(...page.data.map((n) => n.id));
        await user.client.inbox.markRead(page.data.map((n) => n.id));
        cursor = page.cursor;
      } while (cursor);
      expect(seen).toEqual(ids);
      expect(await user.client.inbox.count()).toBe(0);
    });

    it('refuse forged, altered, cross-user and cross-listing cursors with invalid_cursor', async () => {
      const user = await service.newUser('cursor');
      const other = await service.newUser('cursorother');
      await service.fillInbox(user.username, 6);
      await service.fillInbox(other.username, 6);
      const { cursor } = await user.client.inbox.fetch({ limit: 2 });
      const unreadCursor = (await user.client.inbox.fetch({ limit: 2, unreadOnly: true })).cursor;
      expect(cursor).toBeTypeOf('string');
      const valid = cursor as string;
      const [payload = '', signature = ''] = valid.split('.');
      const first = (await user.client.inbox.fetch({ limit: 2 })).data[0] as Notification;
      const forgedPayload = Buffer.from(`${first.createdAt}|${first.id}`).toString('base64url');
      const flip = (text: string, at: number) =>
        `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
      const bad = {
        garbage: 'not-a-cursor',
        forged: `${forgedPayload}.${signature}`,
        unsigned: payload,
        'altered payload': `${flip(payload, 3)}.${signature}`,
        'altered signature': `${payload}.${flip(signature, 5)}`,
        'extra part': `${valid}.x`,
        'signature with padding': `${valid}=`,
        'signature with a character base64 skips': `${payload}.${signature.slice(0, 4)}!${signature.slice(4)}`,
        'very long': `${valid}${'A'.repeat(5000)}`,
        ...Object.fromEntries(
          [
            '9999-99-99T99:99:99.999Z',
            '0000-01-01T00:00:00.000Z',
            '2026-13-01T00:00:00.000Z',
            '2026-02-30T00:00:00.000Z',
          ].map((at) => [
            `no such time ${at}`,
            `${Buffer.from(`${at}|${first.id}`).toString('base64url')}.${signature}`,
          ]),
        ),
      };
      for (const [name, value] of Object.entries(bad)) {
        const error = await user.client.inbox.fetch({ limit: 2, cursor: value }).catch((e) => e);
        expect(error, name).toBeInstanceOf(BadRequestError);
        expect(error.code, name).toBe('invalid_cursor');
      }
      await expect(other.client.inbox.fetch({ limit: 2, cursor: valid })).rejects.toMatchObject({
        code: 'invalid_cursor',
      });
      await expect(user.client.inbox.fetch({ limit: 2, cursor: valid, unreadOnly: true })).rejects.toMatchObject({
        code: 'invalid_cursor',
      });
      await expect(user.client.inbox.fetch({ limit: 2, cursor: unreadCursor })).rejects.toMatchObject({
        code: 'invalid_cursor',
      });
      expect((await user.client.inbox.fetch({ limit: 2, cursor: valid })).data).toHaveLength(2);
      const repeated = await service.request(`/inbox/fetch?cursor=${valid}&cursor=${valid}`, { token: user.token });
      expect((await problemOf(repeated)).code).toBe('invalid_cursor');
    });

    it('stay valid with another page size', async () => {
      const user = await service.newUser('resize');
      await service.fillInbox(user.username, 9);
      const first = await user.client.inbox.fetch({ limit: 3 });
      const rest = await user.client.inbox.fetch({ limit: 100, cursor: first.cursor });
      expect(rest.data).toHaveLength(6);
      expect(rest.cursor).toBeNull();
    });
  });

  describe('count', () => {
    it('counts unread notifications, with an ETag, 304 while unchanged and the poll interval', async () => {
      const user = await service.newUser('count');
      await service.notify(user.username, [
        { type: 'system', text: 'a' },
        { type: 'system', text: 'b' },
        { type: 'system', text: 'c', read: true },
      ]);
      const first = await service.request('/inbox/count', { token: user.token });
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ count: 2, byType: { follow: 0, mention: 0, reply: 0, like: 0, system: 2 } });
      expect(first.headers.get('x-poll-interval')).toBe('45');
      const etag = first.headers.get('etag') as string;
      expect(etag).toMatch(/^"[^"]+"$/);

      const same = await service.request('/inbox/count', { token: user.token, headers: { 'if-none-match': etag } });
      expect(same.status).toBe(304);
      expect(await same.text()).toBe('');
      expect(same.headers.get('etag')).toBe(etag);
      expect(same.headers.get('x-poll-interval')).toBe('45');
      const listed = await service.request('/inbox/count', {
        token: user.token,
        headers: { 'if-none-match': `"other", W/${etag}` },
      });
      expect(listed.status).toBe(304);

      await service.notify(user.username, [{ type: 'system', text: 'd' }]);
      const changed = await user.client.inbox.checkCount(etag);
      expect(changed).toMatchObject({ changed: true, count: 3, pollInterval: 45 });
      expect(changed.etag).not.toBe(etag);
      expect(await user.client.inbox.checkCount(changed.etag)).toMatchObject({ changed: false, pollInterval: 45 });
    });

    it('stays equal to the unread notifications through every kind of change', async () => {
      const user = await service.newUser('tally');
      const other = await service.newUser('tallyother');
      const unreadInInbox = async () => {
        const all = [];
        for await (const n of user.client.inbox.items({ limit: 100 })) all.push(n);
        return all.filter((n) => !n.read).length;
      };
      const steps: [string, () => Promise<unknown>][] = [
        ['fill', () => service.fillInbox(user.username, 40)],
        ['fill read', () => service.fillInbox(user.username, 10, { read: true, newest: minutesAgo(900) })],
        ['follow', () => other.client.user(user.username).follow()],
        [
          'mark some',
          async () => user.client.inbox.markRead((await user.client.inbox.fetch({ limit: 7 })).data.map((n) => n.id)),
        ],
        [
          'delete mixed',
          async () => {
            const page = await user.client.inbox.fetch({ limit: 100 });
            await user.client.inbox.delete(page.data.filter((_, i) => i % 3 === 0).map((n) => n.id));
          },
        ],
        ['mark all', () => user.client.inbox.markRead('all')],
        ['new ones', () => service.fillInbox(user.username, 5)],
        ['delete all', () => user.client.inbox.delete('all')],
        ['after', () => service.notify(user.username, [{ type: 'system', text: 'again' }])],
      ];
      for (const [name, step] of steps) {
        await step();
        expect(await user.client.inbox.count(), name).toBe(await unreadInInbox());
      }
      expect(await user.client.inbox.count()).toBe(1);
    });

    it('does not share an ETag between users with the same count', async () => {
      const a = await service.newUser('etaga');
      const b = await service.newUser('etagb');
      const tagA = (await service.request('/inbox/count', { token: a.token })).headers.get('etag') as string;
      const answer = await service.request('/inbox/count', { token: b.token, headers: { 'if-none-match': tagA } });
      expect(answer.status).toBe(200);
    });
  });

  describe.each(['markRead', 'delete'] as const)('%s', (operation) => {
    const remaining = async (user: TestUser) =>
      (await user.client.inbox.fetch({ limit: 100 })).data.filter((n) => (operation === 'markRead' ? !n.read : true));

    it('acts on the given ids, counting each changed notification once', async () => {
      const user = await service.newUser(operation);
      const ids = await service.notify(
        user.username,
        Array.from({ length: 6 }, (_, i) => ({ type: 'system' as const, text: `x${i}`, read: i === 5 })),
      );
      const [a = '', b = '', , , , alreadyRead = ''] = ids;
      const result = await user.client.inbox[operation]([a, b.toUpperCase(), a, alreadyRead]);
      expect(result).toEqual(changed(operation === 'markRead' ? 2 : 3));
      const left = (await remaining(user)).map((n) => n.id);
      expect(left).not.toContain(a);
      expect(left).not.toContain(b);
      expect(await user.client.inbox[operation]([a, b])).toEqual(changed(0));
      expect(await user.client.inbox[operation]([])).toEqual(changed(0));
    });

    it("skips another user's ids without counting them or touching them", async () => {
      const user = await service.newUser(`${operation}me`);
      const other = await service.newUser(`${operation}other`);
      const [mine = ''] = await service.notify(user.username, [{ type: 'system', text: 'mine' }]);
      const theirs = await service.notify(other.username, [
        { type: 'system', text: 'theirs 1' },
        { type: 'system', text: 'theirs 2' },
      ]);
      expect(await user.client.inbox[operation]([...theirs, mine])).toEqual(changed(1));
      expect(await user.client.inbox[operation](theirs)).toEqual(changed(0));
      const otherInbox = (await other.client.inbox.fetch()).data;
      expect(otherInbox).toHaveLength(2);
      expect(otherInbox.every((n) => !n.read)).toBe(true);
      expect(await other.client.inbox.count()).toBe(2);
    });

    it('acts on the whole inbox with "all", and on no one else\'s', async () => {
      const user = await service.newUser(`${operation}all`);
      const other = await service.newUser(`${operation}bystander`);
      await service.fillInbox(user.username, 30);
      await service.fillInbox(user.username, 5, { read: true, newest: minutesAgo(600) });
      await service.fillInbox(other.username, 4);
      expect(await user.client.inbox[operation]('all')).toEqual(changed(operation === 'markRead' ? 30 : 35));
      expect(await user.client.inbox.count()).toBe(0);
      expect(await remaining(user)).toEqual([]);
      expect(await other.client.inbox.count()).toBe(4);
      expect(await user.client.inbox[operation]('all')).toEqual(changed(0));
    });

    it('accepts 500 ids and refuses everything that is not ids or "all" with invalid_ids', async () => {
      const user = await service.newUser(`${operation}ids`);
      const uuids = (n: number) => Array.from({ length: n }, () => crypto.randomUUID());
      expect(await user.client.inbox[operation](uuids(500))).toEqual(changed(0));
      const path = operation === 'markRead' ? '/inbox/read' : '/inbox/delete';
      const bodies: [string, string | undefined][] = [
        ['no body', undefined],
        ['empty body', ''],
        ['not JSON', 'ids=all'],
        ['"ALL"', '{"ids":"ALL"}'],
        ['"All"', '{"ids":"All"}'],
        ['a number', '{"ids":5}'],
        ['null', '{"ids":null}'],
        ['no ids', '{}'],
        ['a bare array', JSON.stringify(uuids(1))],
        ['a non-UUID', '{"ids":["not-a-uuid"]}'],
        ['a UUID with braces', `{"ids":["{${crypto.randomUUID()}}"]}`],
        ['a number in the list', `{"ids":["${crypto.randomUUID()}", 7]}`],
        ['501 ids', JSON.stringify({ ids: uuids(501) })],
        ['a string body', '"all"'],
      ];
      await expectInvalidIds(service, user.token, path, bodies);
    });
  });
});
