import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationType } from '../../lib/api';
import type { Queryable } from '../../server/db/database';
import { deleteNotifications, markRead } from '../../server/store/notifications';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../support/service';

const TYPES: NotificationType[] = ['mention', 'like', 'reply', 'follow', 'system'];

describe.each(BACKENDS)('bulk triage on %s', (backend) => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ backend });
  });
  afterAll(() => service?.close());

  const userIdOf = async (user: TestUser) => {
    const { rows } = await service.server.database.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [
      user.username,
    ]);
    return rows[0]?.id as number;
  };

  /** Rows of `notifications` updated so far and not yet in the shared statistics, and how many of them in place (HOT). */
  const updatesIn = async (tx: Queryable) => {
    const { rows } = await tx.query<{ updated: string; in_place: string }>(
      `SELECT n_tup_upd AS updated, n_tup_hot_upd AS in_place FROM pg_stat_xact_user_tables
       WHERE relid = 'notifications'::regclass`,
    );
    return { updated: Number(rows[0]?.updated), inPlace: Number(rows[0]?.in_place) };
  };

  it('marks all read and deletes all by rewriting each row in place, with no new index entry', async () => {
    const marking = await service.newUser('marking');
    const deleting = await service.newUser('deleting');
    await service.fillInbox(marking.username, 300);
    await service.fillInbox(deleting.username, 300);
    const { database } = service.server;
    const [markingId, deletingId] = [await userIdOf(marking), await userIdOf(deleting)];
    const stamp = () => ({ operationId: crypto.randomUUID(), at: new Date() });
    /** What `change` updated, read from the counts before and after it in its transaction. */
    const measured = (change: (tx: Queryable) => Promise<number>) =>
      database.transaction(async (tx) => {
        const before = await updatesIn(tx);
        const count = await change(tx);
        const after = await updatesIn(tx);
        return { count, updated: after.updated - before.updated, inPlace: after.inPlace - before.inPlace };
      });
    const marked = await measured((tx) => markRead(tx, markingId, 'all', stamp()));
    expect(marked).toEqual({ count: 300, updated: 300, inPlace: 300 });
    const deleted = await measured((tx) => deleteNotifications(tx, deletingId, 'all', stamp()));
    expect(deleted).toEqual({ count: 300, updated: 300, inPlace: 300 });
    expect(await marking.client.inbox.count()).toBe(0);
    expect((await marking.client.inbox.fetch({ unreadOnly: true })).data).toEqual([]);
    expect((await marking.client.inbox.fetch({ limit: 3 })).data).toHaveLength(3);
    expect((await deleting.client.inbox.fetch()).data).toEqual([]);
  });

  it('lists the inbox and its unread part, of every type and of some, as the rows say after every kind of change', async () => {
    const user = await service.newUser('listed');
    const loud = await service.newUser('loud');
    const ids = await service.notify(
      user.username,
      Array.from({ length: 40 }, (_, i) => ({
        type: TYPES[i % TYPES.length] as NotificationType,
        text: `n${i}`,
        actor: i % 3 === 0 ? loud.username : undefined,
        read: i % 4 === 0,
        createdAt: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
      })),
    );
    const userId = await userIdOf(user);
    const { inbox } = user.client;

    /** Each listing as the API pages it, and as the notifications' own columns say it should be. */
    const check = async (step: string) => {
      for (const unreadOnly of [false, true]) {
        for (const types of [undefined, ['like', 'reply'] as NotificationType[]]) {
          const listed: string[] = [];
          for await (const n of inbox.items({ limit: 7, unreadOnly, types })) listed.push(n.id);
          const { rows } = await service.server.database.query<{ id: string }>(
            `SELECT id FROM notifications
             WHERE user_id = $1 AND deleted_at IS NULL AND snoozed_until IS NULL AND NOT muted
               AND (NOT read OR NOT $2) AND ($3::text[] IS NULL OR type = ANY($3))
             ORDER BY sorted_at DESC, id DESC`,
            [userId, unreadOnly, types ?? null],
          );
          expect(listed, `${step}, unread only ${unreadOnly}, types ${types}`).toEqual(rows.map((row) => row.id));
        }
      }
    };

    await check('as they came');
    const read = await inbox.markRead(ids.slice(0, 10));
    await check('some marked read');
    await inbox.snooze(ids.slice(5, 15), new Date(Date.now() + 3_600_000).toISOString());
    await check('some snoozed');
    const mute = await inbox.mutes.add({ actor: loud.username });
    await check('an actor muted');
    const deleted = await inbox.delete(ids.slice(12, 25));
    await check('some deleted, snoozed and muted among them');
    await inbox.undo(deleted.undo ?? '');
    await check('the delete undone');
    await inbox.undo(read.undo ?? '');
    await check('the marking undone');
    await inbox.mutes.remove(mute.id);
    await check('the mute removed');
    await inbox.unsnooze(ids.slice(5, 10));
    await check('some woken');
    const all = await inbox.markRead('all');
    await check('all marked read');
    await inbox.markUnread(ids.slice(20, 22));
    await check('two marked unread');
    await inbox.undo(all.undo ?? '');
    await check('mark all read undone');
    const gone = await inbox.delete('all');
    await check('all deleted');
    await inbox.undo(gone.undo ?? '');
    await check('delete all undone');
    expect(await inbox.count()).toBe(
      Number(
        (
          await service.server.database.query<{ n: string }>(
            `SELECT count(*) AS n FROM notifications
             WHERE user_id = $1 AND NOT read AND deleted_at IS NULL AND snoozed_until IS NULL AND NOT muted`,
            [userId],
          )
        ).rows[0]?.n,
      ),
    );
  });
});
