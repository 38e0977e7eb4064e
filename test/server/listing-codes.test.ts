import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { NotificationType } from '../../lib/api';
import { MIGRATIONS, migrate } from '../../server/db/migrations';
import { openPglite } from '../../server/db/pglite';
import { listNotifications, wakeDueNotifications } from '../../server/store/notifications';
import { BACKENDS } from '../support/service';
import { emptyDatabases, migrateAsReleased } from './support/released-migrations';

const TYPES: NotificationType[] = ['mention', 'like', 'reply', 'follow', 'system'];

describe.each(BACKENDS)('an inbox kept by migration 12, migrated now, on %s', (backend) => {
  const open = emptyDatabases(backend);

  it('lists every notification as before, and keeps the order of those that arrive or wake after', async () => {
    const db = await open();
    await migrateAsReleased(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 12),
    );
    const { rows: users } = await db.query<{ id: number }>(
      "INSERT INTO users (username, display_name) VALUES ('reader', 'Reader'), ('other', 'Other') RETURNING id",
    );
    const [reader, other] = users.map((user) => user.id) as [number, number];
    // Of every type, some read, deleted, snoozed or woken, for two users.
    await db.query(
      `INSERT INTO notifications (user_id, type, text, read, created_at, deleted_at, snoozed_until, woken_at)
       SELECT CASE WHEN g % 7 = 0 THEN $2::int ELSE $1::int END, ($3::text[])[1 + g % 5], 'n' || g, g % 3 = 0,
         now() - make_interval(mins => g),
         CASE WHEN g % 11 = 0 THEN now() END,
         CASE WHEN g % 13 = 0 THEN now() + interval '1 hour' END,
         CASE WHEN g % 17 = 0 THEN now() - make_interval(secs => g) END
       FROM generate_series(1, 120) AS g`,
      [reader, other, TYPES],
    );
    const listing = (userId: number, unreadOnly: boolean, types: NotificationType[] | null) =>
      listNotifications(db, userId, { unreadOnly, snoozed: false, types, limit: 200, after: null });
    const expected = async (userId: number, unreadOnly: boolean, types: NotificationType[] | null) => {
      const { rows } = await db.query<{ id: string; sorted_at: Date }>(
        `SELECT id, sorted_at FROM notifications
         WHERE user_id = $1 AND deleted_at IS NULL AND snoozed_until IS NULL AND NOT muted
           AND (NOT read OR NOT $2) AND ($3::text[] IS NULL OR type = ANY($3))
         ORDER BY sorted_at DESC, id DESC`,
        [userId, unreadOnly, types],
      );
      return rows.map((row) => ({ id: row.id, sortedAt: new Date(row.sorted_at).toISOString() }));
    };
    const before = await expected(reader, false, null);
    expect(before.length).toBeGreaterThan(50);

    expect(await migrate(db)).toEqual(MIGRATIONS.filter(({ version }) => version > 12).map(({ version }) => version));

    expect(await expected(reader, false, null)).toEqual(before);
    for (const userId of [reader, other]) {
      for (const unreadOnly of [false, true]) {
        for (const types of [null, ['like', 'reply'] as NotificationType[], ['system'] as NotificationType[]]) {
          const listed = (await listing(userId, unreadOnly, types)).map((n) => ({ id: n.id, sortedAt: n.sortedAt }));
          expect(listed, `user ${userId}, unread only ${unreadOnly}, types ${types}`).toEqual(
            await expected(userId, unreadOnly, types),
          );
        }
      }
    }

    // One arriving without its order, as the operator API writes it, and the snoozed ones waking.
    const { rows: arrived } = await db.query<{ id: string; created_at: Date; sorted_at: Date }>(
      "INSERT INTO notifications (user_id, type, text) VALUES ($1, 'like', 'late') RETURNING id, created_at, sorted_at",
      [reader],
    );
    expect(arrived[0]?.sorted_at).toEqual(arrived[0]?.created_at);
    await db.query(
      "UPDATE notifications SET snoozed_until = now() - interval '1 second' WHERE snoozed_until IS NOT NULL",
    );
    expect(await wakeDueNotifications(db)).toBeGreaterThan(0);
    const { rows: woken } = await db.query<{ wrong: number }>(
      'SELECT count(*)::int AS wrong FROM notifications WHERE sorted_at <> greatest(created_at, woken_at)',
    );
    expect(woken[0]?.wrong).toBe(0);
    const now = await listing(reader, true, null);
    expect(now.map((n) => n.id)).toEqual((await expected(reader, true, null)).map((n) => n.id));
    expect(now.map((n) => n.id)).toContain(arrived[0]?.id);
  }, 60_000);
});

// PGlite alone keeps the listings unlogged; the run through the pooler has PostgreSQL only.
describe.skipIf(!BACKENDS.includes('pglite'))('a PGlite data folder whose service was killed', () => {
  const root = resolve(import.meta.dirname, '../..');
  const dir = mkdtempSync(join(tmpdir(), 'inbox-crash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the inbox again at the next start, though a crash empties the unlogged listings', async () => {
    // A service that fills an inbox and dies without closing its database.
    const script = join(dir, 'killed.mts');
    writeFileSync(
      script,
      `import { openPglite } from ${JSON.stringify(join(root, 'server/db/pglite.ts'))};
       import { migrate } from ${JSON.stringify(join(root, 'server/db/migrations.ts'))};
       const db = await openPglite(${JSON.stringify(join(dir, 'data'))});
       await migrate(db);
       const { rows } = await db.query("INSERT INTO users (username, display_name) VALUES ('crash', 'Crash') RETURNING id");
       await db.query("INSERT INTO notifications (user_id, type, text, read) SELECT $1, 'like', 'n' || g, g % 2 = 0 FROM generate_series(1, 30) g", [rows[0].id]);
       process.kill(process.pid, 'SIGKILL');`,
    );
    // tsx runs the script in a process of its own and answers its death by a signal with 128 + its number.
    await expect(
      promisify(execFile)(join(root, 'node_modules/.bin/tsx'), [script], { cwd: root }),
    ).rejects.toMatchObject({ code: 137 });

    const db = await openPglite(join(dir, 'data'));
    try {
      const entries = async () =>
        (
          await db.query<{ n: number }>(
            'SELECT (SELECT count(*) FROM inbox_listed) + (SELECT count(*) FROM inbox_unread) AS n',
          )
        ).rows[0]?.n;
      expect(Number(await entries())).toBe(0);
      await migrate(db);
      expect(Number(await entries())).toBe(45);
      const { rows } = await db.query<{ id: number }>("SELECT id FROM users WHERE username = 'crash'");
      const page = await listNotifications(db, rows[0]?.id as number, {
        unreadOnly: true,
        snoozed: false,
        types: ['like'],
        limit: 50,
        after: null,
      });
      expect(page).toHaveLength(15);
    } finally {
      await db.close();
    }
  }, 60_000);
});
