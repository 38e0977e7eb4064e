import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidUndoError, type Notification, UndoExpiredError } from '../../lib/api';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../support/service';
import { openLive } from './support/live';
import { expectInvalidIds, problemOf } from './support/problem';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** The whole inbox as the user sees it: id → read. */
async function inboxOf(user: TestUser): Promise<Map<string, boolean>> {
  const seen = new Map<string, boolean>();
  for await (const n of user.client.inbox.items({ limit: 100 })) seen.set(n.id, n.read);
  return seen;
}

describe.each(BACKENDS)('undo and mark unread on %s', (backend) => {
  let service: TestService;
  /** The service's clock: tests move it instead of waiting. */
  let clock = Date.now();

  beforeAll(async () => {
    service = await startTestService({ backend, now: () => clock });
  });
  afterAll(() => service?.close());

  async function userWith(prefix: string, items: { read?: boolean }[]) {
    const user = await service.newUser(prefix);
    const ids = await service.notify(
      user.username,
      items.map((item, i) => ({
        type: 'system' as const,
        text: `n${i}`,
        read: item.read,
        createdAt: minutesAgo(i + 1),
      })),
    );
    return { user, ids };
  }

  const undoRequest = (token: string, body: string) =>
    service.request('/inbox/undo', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json' },
      body,
    });

  describe('mark unread', () => {
    it('marks read notifications unread, counting each changed one once, with an undo', async () => {
      const { user, ids } = await userWith('unread', [{ read: true }, { read: true }, { read: false }]);
      const [a = '', b = '', c = ''] = ids;
      const result = await user.client.inbox.markUnread([a, a.toUpperCase(), b, c]);
      expect(result).toEqual({ success: true, count: 2, undo: expect.any(String) });
      expect(await user.client.inbox.count()).toBe(3);
      expect(await user.client.inbox.markUnread([a, b])).toEqual({ success: true, count: 0, undo: null });
      expect(await user.client.inbox.markUnread([])).toEqual({ success: true, count: 0, undo: null });
    });

    it("skips another user's ids without counting or touching them", async () => {
      const { user } = await userWith('unreadme', []);
      const { user: other, ids: theirs } = await userWith('unreadother', [{ read: true }]);
      expect(await user.client.inbox.markUnread(theirs)).toEqual({ success: true, count: 0, undo: null });
      expect(await other.client.inbox.count()).toBe(0);
    });

    it('refuses "all" and everything that is not a list of ids with invalid_ids', async () => {
      const { user } = await userWith('unreadids', []);
      const uuids = (n: number) => Array.from({ length: n }, () => crypto.randomUUID());
      expect((await user.client.inbox.markUnread(uuids(500))).count).toBe(0);
      const bodies = [
        '{"ids":"all"}',
        '{"ids":"ALL"}',
        '',
        'ids=1',
        '{"ids":5}',
        '{}',
        '{"ids":["nope"]}',
        JSON.stringify({ ids: uuids(501) }),
      ];
      await expectInvalidIds(
        service,
        user.token,
        '/inbox/unread',
        bodies.map((body) => [body, body] as const),
      );
    });
  });

  describe('undo', () => {
    it('puts back what mark read changed, and only that', async () => {
      const { user, ids } = await userWith('undoread', [{}, {}, { read: true }, {}]);
      const [a = '', b = '', c = ''] = ids;
      const before = await inboxOf(user);
      const { count, undo } = await user.client.inbox.markRead([a, b, c]);
      expect(count).toBe(2);
      expect(await user.client.inbox.count()).toBe(1);
      expect(await user.client.inbox.undo(undo as string)).toEqual({ success: true, count: 2 });
      expect(await inboxOf(user)).toEqual(before);
      expect(await user.client.inbox.count()).toBe(3);
    });

    it('puts back what mark unread changed', async () => {
      const { user, ids } = await userWith('undounread', [{ read: true }, {}]);
      const before = await inboxOf(user);
      const { undo } = await user.client.inbox.markUnread(ids);
      expect(await user.client.inbox.count()).toBe(2);
      expect(await user.client.inbox.undo(undo as string)).toEqual({ success: true, count: 1 });
      expect(await inboxOf(user)).toEqual(before);
      expect(await user.client.inbox.count()).toBe(1);
    });

    it('takes deleted notifications out of fetch and count at once, and puts them back with their read state', async () => {
      const { user, ids } = await userWith('undodelete', [{}, { read: true }, {}, { read: true }]);
      const before = await inboxOf(user);
      const { count, undo } = await user.client.inbox.delete(ids.slice(0, 3));
      expect(count).toBe(3);
      expect([...(await inboxOf(user)).keys()]).toEqual([ids[3]]);
      expect(await user.client.inbox.count()).toBe(0);
      expect((await user.client.inbox.fetch({ unreadOnly: true })).data).toEqual([]);
      // Deleted notifications take part in nothing else while they wait.
      expect((await user.client.inbox.markRead(ids)).count).toBe(0);
      expect((await user.client.inbox.markUnread(ids)).count).toBe(1);
      expect((await user.client.inbox.delete(ids.slice(0, 3))).count).toBe(0);
      expect(await user.client.inbox.undo(undo as string)).toEqual({ success: true, count: 3 });
      const after = await inboxOf(user);
      expect(after).toEqual(new Map([...before, [ids[3] as string, false]]));
      expect(await user.client.inbox.count()).toBe(3);
    });

    it('puts back a delete-all and a mark-all-read whole, leaving other users alone', async () => {
      const { user } = await userWith('undoall', []);
      const { user: bystander } = await userWith('bystander', [{}, {}]);
      await service.fillInbox(user.username, 40);
      await service.fillInbox(user.username, 10, { read: true, newest: minutesAgo(600) });
      const before = await inboxOf(user);
      const marked = await user.client.inbox.markRead('all');
      expect(marked.count).toBe(40);
      expect(await user.client.inbox.undo(marked.undo as string)).toEqual({ success: true, count: 40 });
      expect(await inboxOf(user)).toEqual(before);
      const deleted = await user.client.inbox.delete('all');
      expect(deleted.count).toBe(50);
      expect(await user.client.inbox.count()).toBe(0);
      expect(await user.client.inbox.undo(deleted.undo as string)).toEqual({ success: true, count: 50 });
      expect(await inboxOf(user)).toEqual(before);
      expect(await user.client.inbox.count()).toBe(40);
      expect(await bystander.client.inbox.count()).toBe(2);
    });

    it('leaves a notification changed since by another operation as it is now, and does not count it', async () => {
      const { user, ids } = await userWith('since', [{}, {}, {}]);
      const [a = '', b = '', c = ''] = ids;
      const first = await user.client.inbox.markRead([a, b, c]);
      await user.client.inbox.delete([b]);
      await user.client.inbox.markUnread([c]);
      await user.client.inbox.markRead([c]);
      expect(await user.client.inbox.undo(first.undo as string)).toEqual({ success: true, count: 1 });
      expect(await inboxOf(user)).toEqual(
        new Map([
          [a, false],
          [c, true],
        ]),
      );
      expect(await user.client.inbox.count()).toBe(1);
    });

    it('tells live channels the count each undo brings back', async () => {
      const { user, ids } = await userWith('undolive', [{}, {}, { read: true }]);
      const channel = await openLive(service, user.token);
      try {
        await channel.countOf(2);
        const deleted = await user.client.inbox.delete(ids);
        await channel.countOf(0);
        await user.client.inbox.undo(deleted.undo as string);
        await channel.countOf(2);
        const unread = await user.client.inbox.markUnread(ids);
        await channel.countOf(3);
        await user.client.inbox.undo(unread.undo as string);
        await channel.countOf(2);
      } finally {
        channel.close();
      }
    });

    it('works once: a second undo is undo_expired and changes nothing', async () => {
      const { user, ids } = await userWith('once', [{}, {}]);
      const { undo } = await user.client.inbox.markRead(ids);
      await user.client.inbox.undo(undo as string);
      await user.client.inbox.markRead([ids[0] as string]);
      const again = await undoRequest(user.token, JSON.stringify({ undo }));
      expect(again.status).toBe(410);
      expect((await problemOf(again)).code).toBe('undo_expired');
      await expect(user.client.inbox.undo(undo as string)).rejects.toBeInstanceOf(UndoExpiredError);
      expect(await user.client.inbox.count()).toBe(1);
    });

    it('lets only one of two undos sent at once through', async () => {
      const { user, ids } = await userWith('race', [{}, {}, {}]);
      const { undo } = await user.client.inbox.delete(ids);
      const answers = await Promise.all([0, 1, 2].map(() => undoRequest(user.token, JSON.stringify({ undo }))));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410, 410]);
      expect(await user.client.inbox.count()).toBe(3);
    });

    it('is valid for 60 seconds by the service clock, then undo_expired', async () => {
      const { user, ids } = await userWith('expiry', [{}, {}]);
      const start = clock;
      try {
        const early = await user.client.inbox.markRead([ids[0] as string]);
        const late = await user.client.inbox.delete([ids[1] as string]);
        clock = start + 59_900;
        expect(await user.client.inbox.undo(early.undo as string)).toEqual({ success: true, count: 1 });
        clock = start + 60_000;
        await expect(user.client.inbox.undo(late.undo as string)).rejects.toBeInstanceOf(UndoExpiredError);
        expect([...(await inboxOf(user)).keys()]).toEqual([ids[0]]);
      } finally {
        clock = start;
      }
    });

    it("refuses malformed, forged, unknown and other users' tokens alike with invalid_undo", async () => {
      const { user, ids } = await userWith('forged', [{}]);
      const { user: other, ids: theirs } = await userWith('victim', [{}]);
      const mine = (await user.client.inbox.markRead(ids)).undo as string;
      const their = (await other.client.inbox.markRead(theirs)).undo as string;
      const [payload = '', signature = ''] = mine.split('.');
      const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
      const otherPayload = Buffer.from(`${crypto.randomUUID()}|${Date.now() + 30_000}`).toString('base64url');
      const tokens = [
        their,
        `${payload}.${flipped}`,
        `${otherPayload}.${signature}`,
        `${payload}.${signature}.x`,
        payload,
        `${payload}.`,
        'x'.repeat(300),
        crypto.randomUUID(),
      ];
      const details = new Set<string>();
      for (const token of tokens) {
        const response = await undoRequest(user.token, JSON.stringify({ undo: token }));
        expect(response.status, token).toBe(400);
        const problem = await problemOf(response);
        expect(problem.code, token).toBe('invalid_undo');
        details.add(problem.detail);
      }
      expect(details.size).toBe(1);
      for (const body of ['', 'undo=1', '{}', '{"undo":5}', '{"undo":""}', '{"undo":null}', '"x"', '[]']) {
        const response = await undoRequest(user.token, body);
        expect(response.status, body).toBe(400);
        expect((await problemOf(response)).code, body).toBe('invalid_undo');
      }
      await expect(user.client.inbox.undo(their)).rejects.toBeInstanceOf(InvalidUndoError);
      // The owner's undo is still there, untouched by the attempts.
      expect(await other.client.inbox.undo(their)).toEqual({ success: true, count: 1 });
      expect(await other.client.inbox.count()).toBe(1);
      expect(await user.client.inbox.count()).toBe(0);
    });

    it('keeps working after a restart and on another instance sharing the database', async () => {
      if (backend !== 'postgres') return;
      const schema = `undo_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
      const first = await startTestService({ backend, schema });
      const second = await startTestService({ backend, schema });
      try {
        const user = await first.newUser('shared');
        await first.fillInbox(user.username, 5);
        const { undo } = await user.client.inbox.delete('all');
        const elsewhere = second.client(user.token);
        expect(await elsewhere.inbox.undo(undo as string)).toEqual({ success: true, count: 5 });
        expect(await user.client.inbox.count()).toBe(5);
      } finally {
        await second.close();
        await first.close();
        const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await admin.connect();
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.end();
      }
    });
  });

  describe('clean-up of deleted notifications', () => {
    const stored = async (username: string) =>
      (
        await service.server.database.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.username = $1',
          [username],
        )
      ).rows[0]?.n;

    const deletedRows = async () =>
      (
        await service.server.database.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM notifications WHERE deleted_at IS NOT NULL',
        )
      ).rows[0]?.n;

    it('keeps them while the undo is valid and removes them for good after, once', async () => {
      const { user, ids } = await userWith('purge', [{}, { read: true }, {}]);
      const start = clock;
      try {
        const { undo } = await user.client.inbox.delete(ids.slice(0, 2));
        await service.server.admin.purgeExpired();
        expect(await stored(user.username)).toBe(3);
        clock = start + 61_000;
        const waiting = await deletedRows();
        expect(waiting).toBeGreaterThanOrEqual(2);
        // Two clean-ups at once, as two instances would run them: every row removed, each once.
        const removed = await Promise.all([service.server.admin.purgeExpired(), service.server.admin.purgeExpired()]);
        expect(removed[0] + removed[1]).toBe(waiting);
        expect(await deletedRows()).toBe(0);
        expect(await stored(user.username)).toBe(1);
        await expect(user.client.inbox.undo(undo as string)).rejects.toBeInstanceOf(UndoExpiredError);
        expect(await user.client.inbox.count()).toBe(1);
        expect((await user.client.inbox.fetch()).data.map((n: Notification) => n.id)).toEqual([ids[2]]);
      } finally {
        clock = start;
      }
    });

    it('removes nothing that an undo has put back', async () => {
      const { user, ids } = await userWith('purgeundone', [{}, {}]);
      const start = clock;
      try {
        const { undo } = await user.client.inbox.delete(ids);
        await user.client.inbox.undo(undo as string);
        clock = start + 61_000;
        await service.server.admin.purgeExpired();
        expect(await stored(user.username)).toBe(2);
        expect(await user.client.inbox.count()).toBe(2);
      } finally {
        clock = start;
      }
    });
  });
});
