/**
 * The schema, as numbered migrations. Each runs once, in order, with its version recorded; a
 * service start applies whatever is missing in one transaction. Never edit a migration that has
 * shipped: add the next one.
 */
import { NOTIFICATION_TYPES, REPORT_REASONS } from '../../lib/api/contract';
import type { Database } from './database';

const quoteList = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');

export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'users, tokens, follows, notifications, reports',
    sql: `
      CREATE TABLE users (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        username text NOT NULL CHECK (username ~ '^[A-Za-z0-9_]{1,30}$'),
        display_name text NOT NULL,
        bio text NOT NULL DEFAULT '',
        avatar_url text,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX users_username_key ON users (lower(username));

      CREATE TABLE tokens (
        id text PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
        secret_hash text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        revoked_at timestamptz(3)
      );
      CREATE INDEX tokens_user_idx ON tokens (user_id);

      CREATE TABLE follows (
        follower_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
        followee_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (follower_id, followee_id),
        CHECK (follower_id <> followee_id)
      );
      CREATE INDEX follows_followee_idx ON follows (followee_id, follower_id);

      CREATE TABLE notifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN (${quoteList(NOTIFICATION_TYPES)})),
        actor_id integer REFERENCES users ON DELETE SET NULL,
        text text NOT NULL,
        path text CHECK (path LIKE '/%'),
        read boolean NOT NULL DEFAULT false,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      );
      -- Keyset pages newest first, for the whole inbox and for its unread part. The partial
      -- index also answers the unread count without reading the table.
      CREATE INDEX notifications_page_idx ON notifications (user_id, created_at DESC, id DESC);
      CREATE INDEX notifications_unread_idx ON notifications (user_id, created_at DESC, id DESC) WHERE NOT read;
      CREATE INDEX notifications_actor_idx ON notifications (actor_id) WHERE actor_id IS NOT NULL;

      CREATE TABLE reports (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        reporter_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
        reported_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
        reason text NOT NULL CHECK (reason IN (${quoteList(REPORT_REASONS)})),
        comment text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      );
      CREATE INDEX reports_reporter_idx ON reports (reporter_id, created_at);
      CREATE INDEX reports_reported_idx ON reports (reported_id);

      CREATE TABLE service_keys (
        name text PRIMARY KEY,
        value text NOT NULL
      );
    `,
  },
];

/** Applies the missing migrations; safe to run at every start, and by several services at once. */
export async function migrate(db: Database): Promise<number[]> {
  return db.transaction(async (tx) => {
    // Two services starting on one database take turns here instead of both creating tables.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext(current_schema()))');
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const known = new Set(done.rows.map((row) => row.version));
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (known.has(migration.version)) continue;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    return applied;
  });
}

/** Migrations hold no literal semicolons outside statement ends, so statements split on them. */
function splitStatements(sql: string): string[] {
  return sql
    .replace(/--.*$/gm, '')
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}
