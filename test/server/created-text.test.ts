/**
 * A notification keeps its `created_at` as the contract writes it (`created_text`), which a page
 * writes as `createdAt`, and as `sortedAt` while it never woke: the text must be the timestamp's,
 * for notifications stored before the column existed, those that arrive after, and one whose
 * `created_at` is changed.
 */
import { describe, expect, it } from 'vitest';
import type { Notification } from '../../lib/api/contract';
import { MIGRATIONS, migrate } from '../../server/db/migrations';
import { toIso } from '../../server/db/values';
import { pageOfNotificationsAs } from '../../server/store/notifications';
import { issueToken } from '../../server/store/tokens';
import { BACKENDS } from '../support/service';
import { emptyDatabases, migrateAsReleased } from './support/released-migrations';

/** The migration that adds the column, whatever its number. */
const STORED = MIGRATIONS.find((migration) =>
  migration.statements.some((statement) => statement.includes('ADD COLUMN created_text')),
);

/** Instants whose milliseconds a shorter writing would drop or cut: none, tens, hundreds, all three. */
const CREATED = [
  '2026-03-01T00:00:00.000Z',
  '2026-03-01T00:00:01.500Z',
  '2026-03-01T00:00:02.050Z',
  '2026-03-01T00:00:03.007Z',
  '2026-03-01T23:59:59.999Z',
  '1999-12-31T23:59:59.120Z',
];

describe.each(BACKENDS)('the text of created_at kept beside it, on %s', (backend) => {
  const open = emptyDatabases(backend);

  it('is the timestamp as the contract writes it, stored before or after, and after a change', async () => {
    expect(STORED).toBeDefined();
    const db = await open();
    await migrateAsReleased(
      db,
      MIGRATIONS.filter(({ version }) => version < (STORED?.version ?? 0)),
    );
    const { rows: users } = await db.query<{ id: number }>(
      "INSERT INTO users (username, display_name) VALUES ('reader', 'Reader') RETURNING id",
    );
    const userId = (users[0] as { id: number }).id;
    const add = (createdAt: string, text: string) =>
      db.query(
        `INSERT INTO notifications (user_id, type, text, created_at, sorted_at)
         VALUES ($1, 'system', $3, $2::timestamptz, $2::timestamptz)`,
        [userId, createdAt, text],
      );
    for (const [i, createdAt] of CREATED.entries()) await add(createdAt, `before ${i}`);

    await migrate(db);
    for (const [i, createdAt] of CREATED.entries()) await add(createdAt, `after ${i}`);
    await db.query("INSERT INTO notifications (user_id, type, text) VALUES ($1, 'system', 'now')", [userId]);
    await db.query("UPDATE notifications SET created_at = '2001-02-03T04:05:06.780Z' WHERE text = 'before 0'");

    const token = await issueToken(db, userId);
    const options = { unreadOnly: false, snoozed: false, types: null, limit: 50, after: null };
    const found = await pageOfNotificationsAs(db, token, options, 'https://inbox.example');
    const page = JSON.parse(found?.page.data ?? 'null') as Notification[];
    const { rows } = await db.query<{ id: string; created_at: Date }>(
      'SELECT id, created_at FROM notifications WHERE user_id = $1',
      [userId],
    );
    const stored = new Map(rows.map((row) => [row.id, toIso(row.created_at)]));
    expect(page.map((n) => n.text).sort()).toEqual(
      [...CREATED.flatMap((_, i) => [`before ${i}`, `after ${i}`]), 'now'].sort(),
    );
    for (const n of page) {
      expect(n.createdAt, n.text).toBe(stored.get(n.id));
      expect(n.sortedAt, n.text).toBe(n.createdAt);
    }
    expect(page.find((n) => n.text === 'before 0')?.createdAt).toBe('2001-02-03T04:05:06.780Z');
    expect(page.find((n) => n.text === 'after 4')?.createdAt).toBe('2026-03-01T23:59:59.999Z');
  }, 60_000);
});
