/**
 * The schema, as numbered migrations. Each runs once, in order, with its version recorded; a
 * service start applies whatever is missing in one transaction. Never edit a migration that has
 * shipped: add the next one. Each is literal SQL, never built from the contract's constants: a
 * database migrated by an older release must end up as one made from empty, so a new notification
 * type or report reason is a new migration.
 */
import type { Database, Queryable } from './database';

/** The tables the inbox and its unread part are listed from (migration 12), and which rows each holds. */
export interface InboxListing {
  table: string;
  /** The name of its count in the update trigger's tallies. */
  tally: string;
  /** Whether the row `alias` is in it. */
  holds(alias: string): string;
}

export const INBOX_LISTINGS: readonly InboxListing[] = [
  {
    table: 'inbox_listed',
    tally: 'listed',
    holds: (r) => `${r}.deleted_at IS NULL AND ${r}.snoozed_until IS NULL AND NOT ${r}.muted`,
  },
  {
    table: 'inbox_unread',
    tally: 'unread',
    holds: (r) => `NOT ${r}.read AND ${r}.deleted_at IS NULL AND ${r}.snoozed_until IS NULL AND NOT ${r}.muted`,
  },
];

/**
 * How a listing's entry names its notification's type: migration 12 copied the text, migration 13
 * keeps a small code instead (`notification_type_code`).
 */
interface EntryType {
  column: string;
  /** The entry's value for the row `alias`. */
  of(alias: string): string;
}

const TYPE_TEXT: EntryType = { column: 'type', of: (r) => `${r}.type` };
const TYPE_CODE: EntryType = { column: 'type_code', of: (r) => `notification_type_code(${r}.type)` };

/** Puts the rows of `from` (aliased `n`) that belong in `listing` into it. */
const enter = (listing: InboxListing, from: string, also = '', type = TYPE_TEXT) =>
  `INSERT INTO ${listing.table} (user_id, ${type.column}, sorted_at, id)
          SELECT n.user_id, ${type.of('n')}, n.sorted_at, n.id FROM ${from} WHERE ${listing.holds('n')}${also}`;

/** Takes the rows of `from` (aliased `o`) that were in `listing`, and where `also` holds, out of it. */
const leave = (listing: InboxListing, from: string, also?: string, type = TYPE_TEXT) =>
  `DELETE FROM ${listing.table} e USING ${from}
          WHERE ${listing.holds('o')}${also ? ` AND ${also}` : ''}
            AND e.user_id = o.user_id AND e.${type.column} = ${type.of('o')} AND e.sorted_at = o.sorted_at AND e.id = o.id`;

/** The update trigger's tallies of a transition table `r`: rows, rows in each listing, their order's sum. */
const counted = (r: string) =>
  `count(*) AS total, ${INBOX_LISTINGS.map((listing) => `count(*) FILTER (WHERE ${listing.holds(r)}) AS ${listing.tally}`).join(', ')},
          sum(${r}.sorted_at - timestamptz '2000-01-01') AS at_sum`;

/**
 * The update trigger's part for one listing. Rows leaving it in bulk are found by joining them with
 * their users' entries at once rather than one index search each (a fifth of a delete all's
 * time); a few, one by one. Only a statement that both adds and removes rows joins what rows
 * were with what they became.
 */
function keep(listing: InboxListing, type = TYPE_TEXT): string {
  const { tally } = listing;
  return `IF became.${tally} = 0 THEN
          IF was.${tally} > 1000 THEN
            SELECT array_agg(o.user_id) INTO owners FROM (SELECT DISTINCT user_id FROM old_rows) o;
            PERFORM set_config('enable_nestloop', 'off', true);
            EXECUTE $sql$
              ${leave(listing, 'old_rows o', 'e.user_id = ANY($1)', type)}
            $sql$ USING owners;
            PERFORM set_config('enable_nestloop', nestloop, true);
          ELSE
            ${leave(listing, 'old_rows o', undefined, type)};
          END IF;
        ELSIF was.${tally} = 0 THEN
          ${enter(listing, 'new_rows n', '', type)};
        ELSIF NOT (was.${tally} = was.total AND became.${tally} = became.total AND was.at_sum = became.at_sum) THEN
          ${leave(listing, 'old_rows o JOIN new_rows n ON n.id = o.id', `NOT (${listing.holds('n')} AND n.sorted_at = o.sorted_at)`, type)};
          ${enter(listing, 'new_rows n JOIN old_rows o ON o.id = n.id', ` AND NOT (${listing.holds('o')} AND n.sorted_at = o.sorted_at)`, type)};
        END IF;`;
}

/**
 * The three trigger functions that keep the listings, their entries' type written as `type` says:
 * created (`create` is "CREATE") or put in place of those there ("CREATE OR REPLACE").
 */
const listingTriggerFunctions = (type: EntryType, create = 'CREATE OR REPLACE'): [string, string, string] => [
  `${create} FUNCTION inbox_entries_arrived() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
      BEGIN
        ${INBOX_LISTINGS.map((listing) => `${enter(listing, 'new_rows n', '', type)};`).join('\n')}
        RETURN NULL;
      END
      $$`,
  `${create} FUNCTION inbox_entries_gone() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
      BEGIN
        ${INBOX_LISTINGS.map((listing) => `${leave(listing, 'old_rows o', undefined, type)};`).join('\n')}
        RETURN NULL;
      END
      $$`,
  `${create} FUNCTION inbox_entries_changed() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
      DECLARE
        was record;
        became record;
        owners integer[];
        nestloop text := current_setting('enable_nestloop');
      BEGIN
        SELECT ${counted('r')} FROM old_rows r INTO was;
        SELECT ${counted('r')} FROM new_rows r INTO became;
        ${INBOX_LISTINGS.map((listing) => keep(listing, type)).join('\n')}
        RETURN NULL;
      END
      $$`,
];

/**
 * Creates `extension` if the database has it not, then the trigram index `create` makes, its
 * `%I` the schema that holds pg_trgm's operator class, wherever the database keeps it. One
 * database's schemas share their extensions, so two services migrating at once take turns
 * creating one.
 */
const withTrigramIndex = (extension: string, create: string) => `DO $$
      DECLARE home text;
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtext('inbox ${extension}'));
        CREATE EXTENSION IF NOT EXISTS ${extension} WITH SCHEMA public;
        SELECT n.nspname INTO home FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
        WHERE e.extname = 'pg_trgm';
        EXECUTE format('${create}',
          home);
      END
      $$`;

export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
  /** Statements run after `statements` on PGlite alone. */
  pglite?: readonly string[];
}

/** Migration 12's trigger functions, as it first created them. */
const [arrived, gone, changed] = listingTriggerFunctions(TYPE_TEXT, 'CREATE');

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'users, tokens, follows, notifications, reports',
    statements: splitStatements(`
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
        type text NOT NULL CHECK (type IN ('follow', 'mention', 'reply', 'like', 'system')),
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
        reason text NOT NULL CHECK (reason IN ('spam', 'harassment', 'impersonation', 'inappropriate', 'other')),
        comment text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      );
      CREATE INDEX reports_reporter_idx ON reports (reporter_id, created_at);
      CREATE INDEX reports_reported_idx ON reports (reported_id);

      CREATE TABLE service_keys (
        name text PRIMARY KEY,
        value text NOT NULL
      );
    `),
  },
  {
    version: 2,
    name: 'unread counts kept by triggers',
    // Counting 100,000 unread notifications at every poll would read 100,000 index entries; a
    // count kept per user by statement-level triggers costs one row read, and bulk changes pay
    // one aggregate over their transition table.
    statements: [
      `CREATE TABLE unread_counts (
        user_id integer PRIMARY KEY REFERENCES users ON DELETE CASCADE,
        unread integer NOT NULL CHECK (unread >= 0)
      )`,
      `INSERT INTO unread_counts (user_id, unread)
       SELECT user_id, count(*) FROM notifications WHERE NOT read GROUP BY user_id`,
      `CREATE FUNCTION unread_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO unread_counts AS c (user_id, unread)
          SELECT user_id, count(*) FROM new_rows WHERE NOT read GROUP BY user_id ORDER BY user_id
          ON CONFLICT (user_id) DO UPDATE SET unread = c.unread + excluded.unread;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE unread_counts AS c SET unread = c.unread - gone.n
          FROM (SELECT user_id, count(*) AS n FROM old_rows WHERE NOT read GROUP BY user_id) AS gone
          WHERE c.user_id = gone.user_id;
        END IF;
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER notifications_unread_insert AFTER INSERT ON notifications
       REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION unread_counts_apply()`,
      `CREATE TRIGGER notifications_unread_update AFTER UPDATE ON notifications
       REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION unread_counts_apply()`,
      `CREATE TRIGGER notifications_unread_delete AFTER DELETE ON notifications
       REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION unread_counts_apply()`,
    ],
  },
  {
    version: 3,
    name: 'follow calls counted per caller, follow notifications once a day per pair',
    statements: [
      // One row per follow or unfollow call of the last hour: the limit holds across instances.
      `CREATE TABLE follow_calls (
        caller_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
        called_at timestamptz(3) NOT NULL DEFAULT now()
      )`,
      'CREATE INDEX follow_calls_caller_idx ON follow_calls (caller_id, called_at)',
      // When a follower last put a follow notification into the followed user's inbox.
      `CREATE TABLE follow_notices (
        follower_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
        followee_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
        notified_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (follower_id, followee_id)
      )`,
      'CREATE INDEX follow_notices_followee_idx ON follow_notices (followee_id)',
    ],
  },
  {
    version: 4,
    name: 'operator tokens, live tickets, live events',
    // Live channels hear of changes through LISTEN/NOTIFY, so every service instance on one
    // database hears them, whatever made the change. The channel name carries the schema, so
    // services sharing a database in different schemas never hear each other.
    statements: [
      `CREATE TABLE operator_tokens (
        id text PRIMARY KEY,
        secret_hash text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        revoked_at timestamptz(3)
      )`,
      `CREATE TABLE live_tickets (
        ticket_hash text PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
        token_id text NOT NULL REFERENCES tokens ON DELETE CASCADE,
        expires_at timestamptz(3) NOT NULL
      )`,
      'CREATE INDEX live_tickets_expiry_idx ON live_tickets (expires_at)',
      'CREATE INDEX live_tickets_token_idx ON live_tickets (token_id)',
      // Operators link notifications anywhere on the web; the service's own pages stay paths.
      'ALTER TABLE notifications DROP CONSTRAINT notifications_path_check',
      `ALTER TABLE notifications ADD CONSTRAINT notifications_path_check
       CHECK (path LIKE '/%' OR path ~ '^https?://')`,
      `CREATE FUNCTION live_channel(schema_name text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
        SELECT 'inbox_live_' || substr(md5(schema_name), 1, 16)
      $$`,
      // Deferred to commit, and reading the count as it is then: a transaction that changes a
      // count several times sends one identical payload, which NOTIFY folds into one.
      `CREATE FUNCTION live_count_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE unread_now integer;
      BEGIN
        SELECT unread INTO unread_now FROM unread_counts WHERE user_id = NEW.user_id;
        IF FOUND THEN
          PERFORM pg_notify(live_channel(TG_TABLE_SCHEMA),
            json_build_object('kind', 'count', 'user', NEW.user_id, 'count', unread_now)::text);
        END IF;
        RETURN NULL;
      END
      $$`,
      `CREATE CONSTRAINT TRIGGER unread_counts_live_insert AFTER INSERT ON unread_counts
       DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION live_count_changed()`,
      `CREATE CONSTRAINT TRIGGER unread_counts_live_update AFTER UPDATE ON unread_counts
       DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.unread IS DISTINCT FROM NEW.unread)
       EXECUTE FUNCTION live_count_changed()`,
      // An arrival is a handful of unread notifications; a bulk load (seeding, an import) is not
      // news to anyone and sends only its count.
      `CREATE FUNCTION live_notifications_arrived() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE arrival record;
      BEGIN
        IF (SELECT count(*) FROM (SELECT 1 FROM new_rows WHERE NOT read LIMIT 21) AS few) <= 20 THEN
          FOR arrival IN SELECT id, user_id FROM new_rows WHERE NOT read ORDER BY created_at, id LOOP
            PERFORM pg_notify(live_channel(TG_TABLE_SCHEMA),
              json_build_object('kind', 'notification', 'user', arrival.user_id, 'id', arrival.id)::text);
          END LOOP;
        END IF;
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER notifications_live_insert AFTER INSERT ON notifications
       REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_notifications_arrived()`,
      `CREATE FUNCTION live_token_ended() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify(live_channel(TG_TABLE_SCHEMA),
          json_build_object('kind', 'revoked', 'user', OLD.user_id, 'token', OLD.id)::text);
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER tokens_live_revoked AFTER UPDATE ON tokens
       FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL) EXECUTE FUNCTION live_token_ended()`,
      // A deleted user takes its tokens along (ON DELETE CASCADE), which fires this too.
      `CREATE TRIGGER tokens_live_deleted AFTER DELETE ON tokens
       FOR EACH ROW EXECUTE FUNCTION live_token_ended()`,
    ],
  },
  {
    version: 5,
    name: 'undoable triage: soft delete, operations recorded on the rows they changed',
    // Each triage call is an operation with its own id, written on every row it changed
    // (`last_op`); its undo finds exactly those rows through one index, whatever their number,
    // and skips any row a later operation has claimed since. A deleted row stays, hidden, until
    // its operation expires. The unread count counts only rows still in the inbox, so soft
    // delete, undo and the final removal all move it through the same triggers as before.
    statements: [
      'ALTER TABLE notifications ADD COLUMN deleted_at timestamptz(3), ADD COLUMN last_op uuid',
      `CREATE TABLE triage_operations (
        id uuid PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
        kind text NOT NULL,
        expires_at timestamptz(3) NOT NULL
      )`,
      'CREATE INDEX triage_operations_expiry_idx ON triage_operations (expires_at)',
      'CREATE INDEX notifications_last_op_idx ON notifications (last_op) WHERE last_op IS NOT NULL',
      // Listing and counting walk only the rows still in the inbox, so a large delete waiting
      // for its undo window to pass costs nothing to the pages after it.
      'DROP INDEX notifications_page_idx',
      'DROP INDEX notifications_unread_idx',
      `CREATE INDEX notifications_page_idx ON notifications (user_id, created_at DESC, id DESC)
       WHERE deleted_at IS NULL`,
      `CREATE INDEX notifications_unread_idx ON notifications (user_id, created_at DESC, id DESC)
       WHERE NOT read AND deleted_at IS NULL`,
      `CREATE OR REPLACE FUNCTION unread_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO unread_counts AS c (user_id, unread)
          SELECT user_id, count(*) FROM new_rows WHERE NOT read AND deleted_at IS NULL GROUP BY user_id ORDER BY user_id
          ON CONFLICT (user_id) DO UPDATE SET unread = c.unread + excluded.unread;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE unread_counts AS c SET unread = c.unread - gone.n
          FROM (
            SELECT user_id, count(*) AS n FROM old_rows WHERE NOT read AND deleted_at IS NULL GROUP BY user_id
          ) AS gone
          WHERE c.user_id = gone.user_id;
        END IF;
        RETURN NULL;
      END
      $$`,
    ],
  },
  {
    version: 6,
    name: 'snooze, the inbox ordered by when a notification last came in, unread counts by type',
    // A snoozed row keeps `snoozed_until` until it wakes; `woken_at` is when it last woke, and
    // `sorted_at` (the later of `created_at` and `woken_at`) orders the inbox, so a woken row comes
    // back at the top. `snoozed_before` is the wake time a snooze replaced, for its undo.
    // Counts leave snoozed rows out, and are kept per type in the same row as the total, so the
    // count endpoint still reads one row.
    statements: [
      `ALTER TABLE notifications ADD COLUMN snoozed_until timestamptz(3), ADD COLUMN snoozed_before timestamptz(3),
       ADD COLUMN woken_at timestamptz(3)`,
      `ALTER TABLE notifications
       ADD COLUMN sorted_at timestamptz(3) NOT NULL GENERATED ALWAYS AS (greatest(created_at, woken_at)) STORED`,
      'DROP INDEX notifications_page_idx',
      'DROP INDEX notifications_unread_idx',
      `CREATE INDEX notifications_page_idx ON notifications (user_id, sorted_at DESC, id DESC)
       WHERE deleted_at IS NULL AND snoozed_until IS NULL`,
      `CREATE INDEX notifications_unread_idx ON notifications (user_id, sorted_at DESC, id DESC)
       WHERE NOT read AND deleted_at IS NULL AND snoozed_until IS NULL`,
      // A type filter walks one of these per type and merges them, never the whole inbox.
      `CREATE INDEX notifications_type_page_idx ON notifications (user_id, type, sorted_at DESC, id DESC)
       WHERE deleted_at IS NULL AND snoozed_until IS NULL`,
      `CREATE INDEX notifications_type_unread_idx ON notifications (user_id, type, sorted_at DESC, id DESC)
       WHERE NOT read AND deleted_at IS NULL AND snoozed_until IS NULL`,
      `CREATE INDEX notifications_snoozed_idx ON notifications (user_id, snoozed_until, id)
       WHERE deleted_at IS NULL AND snoozed_until IS NOT NULL`,
      // What every instance's wake loop asks: the soonest wake time of anyone, and what is due.
      `CREATE INDEX notifications_wake_idx ON notifications (snoozed_until)
       WHERE deleted_at IS NULL AND snoozed_until IS NOT NULL`,
      'ALTER TABLE unread_counts ADD COLUMN unread_follow integer NOT NULL DEFAULT 0 CHECK (unread_follow >= 0)',
      'ALTER TABLE unread_counts ADD COLUMN unread_mention integer NOT NULL DEFAULT 0 CHECK (unread_mention >= 0)',
      'ALTER TABLE unread_counts ADD COLUMN unread_reply integer NOT NULL DEFAULT 0 CHECK (unread_reply >= 0)',
      'ALTER TABLE unread_counts ADD COLUMN unread_like integer NOT NULL DEFAULT 0 CHECK (unread_like >= 0)',
      'ALTER TABLE unread_counts ADD COLUMN unread_system integer NOT NULL DEFAULT 0 CHECK (unread_system >= 0)',
      `UPDATE unread_counts AS c SET unread_follow = t.unread_follow, unread_mention = t.unread_mention, unread_reply = t.unread_reply, unread_like = t.unread_like, unread_system = t.unread_system
       FROM (SELECT user_id, count(*) FILTER (WHERE type = 'follow') AS unread_follow, count(*) FILTER (WHERE type = 'mention') AS unread_mention, count(*) FILTER (WHERE type = 'reply') AS unread_reply, count(*) FILTER (WHERE type = 'like') AS unread_like, count(*) FILTER (WHERE type = 'system') AS unread_system FROM notifications WHERE NOT read AND deleted_at IS NULL GROUP BY user_id) AS t
       WHERE c.user_id = t.user_id`,
      `CREATE OR REPLACE FUNCTION unread_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO unread_counts AS c (user_id, unread, unread_follow, unread_mention, unread_reply, unread_like, unread_system)
          SELECT user_id, count(*), count(*) FILTER (WHERE type = 'follow') AS unread_follow, count(*) FILTER (WHERE type = 'mention') AS unread_mention, count(*) FILTER (WHERE type = 'reply') AS unread_reply, count(*) FILTER (WHERE type = 'like') AS unread_like, count(*) FILTER (WHERE type = 'system') AS unread_system FROM new_rows WHERE NOT read AND deleted_at IS NULL AND snoozed_until IS NULL GROUP BY user_id ORDER BY user_id
          ON CONFLICT (user_id) DO UPDATE SET unread = c.unread + excluded.unread,
            unread_follow = c.unread_follow + excluded.unread_follow, unread_mention = c.unread_mention + excluded.unread_mention, unread_reply = c.unread_reply + excluded.unread_reply, unread_like = c.unread_like + excluded.unread_like, unread_system = c.unread_system + excluded.unread_system;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE unread_counts AS c SET unread = c.unread - gone.n,
            unread_follow = c.unread_follow - gone.unread_follow, unread_mention = c.unread_mention - gone.unread_mention, unread_reply = c.unread_reply - gone.unread_reply, unread_like = c.unread_like - gone.unread_like, unread_system = c.unread_system - gone.unread_system
          FROM (
            SELECT user_id, count(*) AS n, count(*) FILTER (WHERE type = 'follow') AS unread_follow, count(*) FILTER (WHERE type = 'mention') AS unread_mention, count(*) FILTER (WHERE type = 'reply') AS unread_reply, count(*) FILTER (WHERE type = 'like') AS unread_like, count(*) FILTER (WHERE type = 'system') AS unread_system FROM old_rows WHERE NOT read AND deleted_at IS NULL AND snoozed_until IS NULL GROUP BY user_id
          ) AS gone
          WHERE c.user_id = gone.user_id;
        END IF;
        RETURN NULL;
      END
      $$`,
      // Live count events carry the counts by type too.
      `CREATE OR REPLACE FUNCTION live_count_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE now_counts unread_counts;
      BEGIN
        SELECT * INTO now_counts FROM unread_counts WHERE user_id = NEW.user_id;
        IF FOUND THEN
          PERFORM pg_notify(live_channel(TG_TABLE_SCHEMA), json_build_object('kind', 'count', 'user', NEW.user_id,
            'count', now_counts.unread, 'byType', json_build_object('follow', now_counts.unread_follow, 'mention', now_counts.unread_mention, 'reply', now_counts.unread_reply, 'like', now_counts.unread_like, 'system', now_counts.unread_system))::text);
        END IF;
        RETURN NULL;
      END
      $$`,
      // A snooze that may now be the soonest re-arms every instance's wake loop: a statement that
      // leaves rows snoozed (a snooze, or the undo of a delete) says its soonest wake time.
      `CREATE FUNCTION live_snoozed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE soonest timestamptz;
      BEGIN
        SELECT min(snoozed_until) INTO soonest FROM new_rows WHERE snoozed_until IS NOT NULL AND deleted_at IS NULL;
        IF soonest IS NOT NULL THEN
          PERFORM pg_notify(live_channel(TG_TABLE_SCHEMA), json_build_object('kind', 'snoozed', 'at', soonest)::text);
        END IF;
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER notifications_live_snoozed AFTER UPDATE ON notifications
       REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_snoozed()`,
    ],
  },
  {
    version: 7,
    name: 'live count events when only the counts by type change',
    // One transaction can move an unread count from one type to another and leave the total as
    // it was; live channels show the counts by type too, so they hear of that as well.
    statements: [
      'DROP TRIGGER unread_counts_live_update ON unread_counts',
      `CREATE CONSTRAINT TRIGGER unread_counts_live_update AFTER UPDATE ON unread_counts
       DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW)
       EXECUTE FUNCTION live_count_changed()`,
    ],
  },
  {
    version: 8,
    name: 'passwords, OAuth authorization codes, sign-in attempts',
    statements: [
      // A slow hash with its parameters and salt (`server/store/passwords.ts`); null: no password,
      // so the user cannot sign in on the site.
      'ALTER TABLE users ADD COLUMN password_hash text',
      // A code is kept hashed and taken once by an UPDATE that only one caller can win, whichever
      // instance it reaches; a used code stays until long after it expired, so a second use is
      // recognised and revokes the token the first one got.
      `CREATE TABLE oauth_codes (
        code_hash text PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
        client_id text NOT NULL,
        redirect_uri text NOT NULL,
        code_challenge text NOT NULL,
        scope text NOT NULL,
        expires_at timestamptz(3) NOT NULL,
        used_at timestamptz(3),
        token_id text REFERENCES tokens ON DELETE SET NULL
      )`,
      'CREATE INDEX oauth_codes_expiry_idx ON oauth_codes (expires_at)',
      'CREATE INDEX oauth_codes_token_idx ON oauth_codes (token_id) WHERE token_id IS NOT NULL',
      // Each sign-in attempt with a password for a username (existing or not), as written: a
      // row while it runs, kept when the password was wrong.
      `CREATE TABLE sign_in_attempts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        username_key text NOT NULL,
        attempted_at timestamptz(3) NOT NULL
      )`,
      'CREATE INDEX sign_in_attempts_key_idx ON sign_in_attempts (username_key, attempted_at)',
    ],
  },
  {
    version: 9,
    name: 'sign-in attempts counted per client address',
    statements: [
      // Attempts from before were counted per username alone; they leave the window within 15 minutes.
      "ALTER TABLE sign_in_attempts ADD COLUMN client_key text NOT NULL DEFAULT ''",
      'DROP INDEX sign_in_attempts_key_idx',
      'CREATE INDEX sign_in_attempts_client_idx ON sign_in_attempts (client_key, attempted_at)',
      'CREATE INDEX sign_in_attempts_time_idx ON sign_in_attempts (attempted_at)',
    ],
  },
  {
    version: 10,
    name: 'idempotency keys',
    statements: [
      // Written in the transaction of the request's action, with its answer: a key exists exactly
      // when its action committed. `caller` is "user:<id>" or "operator:<token id>".
      `CREATE TABLE idempotency_keys (
        caller text NOT NULL,
        key text NOT NULL,
        digest text NOT NULL,
        status smallint,
        headers jsonb,
        body text,
        created_at timestamptz(3) NOT NULL,
        PRIMARY KEY (caller, key)
      )`,
      'CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)',
    ],
  },
  {
    version: 11,
    name: 'mutes, the strangers policy, search',
    // A notification's `muted` says whether a mute or the strangers policy holds it back now. It
    // is kept on the row (set as it arrives, and moved by triggers whenever a mute, the policy or
    // a follow changes), so listings walk indexes that leave muted rows out and the unread counts
    // stay one row read. `notification_search` keeps each notification's text and actor's names
    // folded to lowercase without accents, under a trigram index: a word of 3 or more characters
    // is an index lookup. It is a table of its own, written as notifications arrive and leave,
    // so marking, snoozing and muting never touch its index.
    statements: [
      `CREATE FUNCTION search_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT replace(replace(replace(translate(lower(t),
          'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžĐđĦħŁłØøıĿŀÆŒẞ',
          'aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyyaaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzddhhllooillæœß'), 'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe')
      $$`,
      `CREATE TABLE mutes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
        actor_id integer REFERENCES users ON DELETE CASCADE,
        path text,
        until timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        CHECK ((actor_id IS NULL) <> (path IS NULL))
      )`,
      'CREATE UNIQUE INDEX mutes_actor_key ON mutes (user_id, actor_id) WHERE actor_id IS NOT NULL',
      'CREATE UNIQUE INDEX mutes_path_key ON mutes (user_id, path) WHERE path IS NOT NULL',
      'CREATE INDEX mutes_list_idx ON mutes (user_id, created_at DESC, id DESC)',
      'CREATE INDEX mutes_until_idx ON mutes (until) WHERE until IS NOT NULL',
      `CREATE TABLE inbox_policies (
        user_id integer PRIMARY KEY REFERENCES users ON DELETE CASCADE,
        strangers text NOT NULL CHECK (strangers IN ('accept', 'mute'))
      )`,
      // Whether a notification of `owner` from `actor` linking to `link` is muted now.
      `CREATE FUNCTION notification_muted(owner integer, actor integer, link text) RETURNS boolean
       LANGUAGE sql STABLE AS $$
        SELECT EXISTS (
            SELECT 1 FROM mutes m WHERE m.user_id = owner AND (m.until IS NULL OR m.until > now())
              AND (m.actor_id = actor OR m.path = link)
          ) OR (
            actor IS NOT NULL AND actor <> owner
            AND EXISTS (SELECT 1 FROM inbox_policies p WHERE p.user_id = owner AND p.strangers = 'mute')
            AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = owner AND f.followee_id = actor)
          )
      $$`,
      'ALTER TABLE notifications ADD COLUMN muted boolean NOT NULL DEFAULT false',
      `CREATE TABLE notification_search (
        id uuid PRIMARY KEY,
        user_id integer NOT NULL,
        words text NOT NULL
      )`,
      `INSERT INTO notification_search (id, user_id, words)
       SELECT n.id, n.user_id, search_fold(n.text || coalesce(' ' || a.username || ' ' || a.display_name, ''))
       FROM notifications n LEFT JOIN users a ON a.id = n.actor_id`,
      `CREATE FUNCTION notification_search_arrived() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO notification_search (id, user_id, words)
        SELECT n.id, n.user_id, search_fold(n.text || coalesce(' ' || a.username || ' ' || a.display_name, ''))
        FROM new_rows n LEFT JOIN users a ON a.id = n.actor_id;
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER notification_search_insert AFTER INSERT ON notifications
       REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_search_arrived()`,
      `CREATE FUNCTION notification_search_gone() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM notification_search s USING old_rows o WHERE s.id = o.id;
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER notification_search_delete AFTER DELETE ON notifications
       REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_search_gone()`,
      // Only rows with an actor or a link can be muted: a bulk load of system notifications pays
      // nothing for it. A notification arriving and a mute, the policy or a
      // follow of its user changing take turns (a shared and an exclusive lock per user), so
      // neither misses the other: an arrival in the same moment as a mute is muted all the same.
      `CREATE FUNCTION notifications_arriving() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock_shared(hashtext('inbox mutes'), NEW.user_id);
        NEW.muted := notification_muted(NEW.user_id, NEW.actor_id, NEW.path);
        RETURN NEW;
      END
      $$`,
      `CREATE TRIGGER notifications_arriving BEFORE INSERT ON notifications
       FOR EACH ROW WHEN (NEW.actor_id IS NOT NULL OR NEW.path IS NOT NULL) EXECUTE FUNCTION notifications_arriving()`,
      `CREATE TRIGGER notifications_actor_gone BEFORE UPDATE OF actor_id ON notifications
       FOR EACH ROW WHEN (NEW.actor_id IS DISTINCT FROM OLD.actor_id) EXECUTE FUNCTION notifications_arriving()`,
      // Brings the muted state of `owner`'s notifications from `actor` or linking to `link` (or,
      // with both null, of every notification with an actor) up to date; the counts follow.
      `CREATE FUNCTION notifications_remute(owner integer, actor integer, link text) RETURNS void
       LANGUAGE sql AS $$
        UPDATE notifications n SET muted = NOT n.muted
        WHERE n.user_id = owner
          AND (n.actor_id = actor OR n.path = link OR (actor IS NULL AND link IS NULL AND n.actor_id IS NOT NULL))
          AND n.muted <> notification_muted(n.user_id, n.actor_id, n.path)
      $$`,
      // A mute made, moved, removed or expired; one with an end re-arms the wake loops.
      // A user being deleted takes their mutes and follows along, and the rows they touch are
      // the deletion's own to change: a notification whose actor goes is judged again as it loses it.
      `CREATE FUNCTION user_gone(id integer) RETURNS boolean LANGUAGE sql STABLE AS $$
        SELECT NOT EXISTS (SELECT 1 FROM users u WHERE u.id = user_gone.id)
      $$`,
      `CREATE FUNCTION mutes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE owner integer;
      BEGIN
        IF TG_OP = 'DELETE' AND (user_gone(OLD.user_id) OR (OLD.actor_id IS NOT NULL AND user_gone(OLD.actor_id))) THEN RETURN NULL; END IF;
        IF TG_OP = 'DELETE' THEN owner := OLD.user_id; ELSE owner := NEW.user_id; END IF;
        PERFORM pg_advisory_xact_lock(hashtext('inbox mutes'), owner);
        IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM notifications_remute(OLD.user_id, OLD.actor_id, OLD.path); END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          PERFORM notifications_remute(NEW.user_id, NEW.actor_id, NEW.path);
          IF NEW.until IS NOT NULL THEN
            PERFORM pg_notify(live_channel(TG_TABLE_SCHEMA), json_build_object('kind', 'snoozed', 'at', NEW.until)::text);
          END IF;
        END IF;
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER mutes_changed AFTER INSERT OR UPDATE OR DELETE ON mutes
       FOR EACH ROW EXECUTE FUNCTION mutes_changed()`,
      `CREATE FUNCTION inbox_policies_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtext('inbox mutes'), NEW.user_id);
        PERFORM notifications_remute(NEW.user_id, NULL, NULL);
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER inbox_policies_changed AFTER INSERT OR UPDATE ON inbox_policies
       FOR EACH ROW WHEN (NEW.strangers IS NOT NULL) EXECUTE FUNCTION inbox_policies_changed()`,
      // Following someone is what makes them no stranger.
      `CREATE FUNCTION follows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE pair follows;
      BEGIN
        IF TG_OP = 'DELETE' THEN pair := OLD; ELSE pair := NEW; END IF;
        IF TG_OP = 'DELETE' AND (user_gone(OLD.follower_id) OR user_gone(OLD.followee_id)) THEN RETURN NULL; END IF;
        PERFORM pg_advisory_xact_lock(hashtext('inbox mutes'), pair.follower_id);
        IF EXISTS (SELECT 1 FROM inbox_policies WHERE user_id = pair.follower_id AND strangers = 'mute') THEN
          PERFORM notifications_remute(pair.follower_id, pair.followee_id, NULL);
        END IF;
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER follows_changed AFTER INSERT OR DELETE ON follows
       FOR EACH ROW EXECUTE FUNCTION follows_changed()`,
      `CREATE OR REPLACE FUNCTION unread_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO unread_counts AS c (user_id, unread, unread_follow, unread_mention, unread_reply, unread_like, unread_system)
          SELECT user_id, count(*), count(*) FILTER (WHERE type = 'follow') AS unread_follow, count(*) FILTER (WHERE type = 'mention') AS unread_mention, count(*) FILTER (WHERE type = 'reply') AS unread_reply, count(*) FILTER (WHERE type = 'like') AS unread_like, count(*) FILTER (WHERE type = 'system') AS unread_system FROM new_rows WHERE NOT read AND deleted_at IS NULL AND snoozed_until IS NULL AND NOT muted GROUP BY user_id ORDER BY user_id
          ON CONFLICT (user_id) DO UPDATE SET unread = c.unread + excluded.unread,
            unread_follow = c.unread_follow + excluded.unread_follow, unread_mention = c.unread_mention + excluded.unread_mention, unread_reply = c.unread_reply + excluded.unread_reply, unread_like = c.unread_like + excluded.unread_like, unread_system = c.unread_system + excluded.unread_system;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE unread_counts AS c SET unread = c.unread - gone.n,
            unread_follow = c.unread_follow - gone.unread_follow, unread_mention = c.unread_mention - gone.unread_mention, unread_reply = c.unread_reply - gone.unread_reply, unread_like = c.unread_like - gone.unread_like, unread_system = c.unread_system - gone.unread_system
          FROM (
            SELECT user_id, count(*) AS n, count(*) FILTER (WHERE type = 'follow') AS unread_follow, count(*) FILTER (WHERE type = 'mention') AS unread_mention, count(*) FILTER (WHERE type = 'reply') AS unread_reply, count(*) FILTER (WHERE type = 'like') AS unread_like, count(*) FILTER (WHERE type = 'system') AS unread_system FROM old_rows WHERE NOT read AND deleted_at IS NULL AND snoozed_until IS NULL AND NOT muted GROUP BY user_id
          ) AS gone
          WHERE c.user_id = gone.user_id;
        END IF;
        RETURN NULL;
      END
      $$`,
      `CREATE OR REPLACE FUNCTION live_notifications_arrived() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE arrival record;
      BEGIN
        IF (SELECT count(*) FROM (SELECT 1 FROM new_rows WHERE NOT read AND NOT muted LIMIT 21) AS few) <= 20 THEN
          FOR arrival IN SELECT id, user_id FROM new_rows WHERE NOT read AND NOT muted ORDER BY created_at, id LOOP
            PERFORM pg_notify(live_channel(TG_TABLE_SCHEMA),
              json_build_object('kind', 'notification', 'user', arrival.user_id, 'id', arrival.id)::text);
          END LOOP;
        END IF;
        RETURN NULL;
      END
      $$`,
      'DROP INDEX notifications_page_idx',
      'DROP INDEX notifications_unread_idx',
      'DROP INDEX notifications_type_page_idx',
      'DROP INDEX notifications_type_unread_idx',
      `CREATE INDEX notifications_page_idx ON notifications (user_id, sorted_at DESC, id DESC)
       WHERE deleted_at IS NULL AND snoozed_until IS NULL AND NOT muted`,
      `CREATE INDEX notifications_unread_idx ON notifications (user_id, sorted_at DESC, id DESC)
       WHERE NOT read AND deleted_at IS NULL AND snoozed_until IS NULL AND NOT muted`,
      `CREATE INDEX notifications_type_page_idx ON notifications (user_id, type, sorted_at DESC, id DESC)
       WHERE deleted_at IS NULL AND snoozed_until IS NULL AND NOT muted`,
      `CREATE INDEX notifications_type_unread_idx ON notifications (user_id, type, sorted_at DESC, id DESC)
       WHERE NOT read AND deleted_at IS NULL AND snoozed_until IS NULL AND NOT muted`,
      `CREATE INDEX notifications_muted_idx ON notifications (user_id, sorted_at DESC, id DESC)
       WHERE deleted_at IS NULL AND snoozed_until IS NULL AND muted`,
      // What a mute, the policy or a follow changes: one user's notifications from one actor or with one link.
      'CREATE INDEX notifications_user_actor_idx ON notifications (user_id, actor_id) WHERE actor_id IS NOT NULL',
      'CREATE INDEX notifications_user_path_idx ON notifications (user_id, path) WHERE path IS NOT NULL',
      withTrigramIndex(
        'pg_trgm',
        'CREATE INDEX notification_search_idx ON notification_search USING gin (words %I.gin_trgm_ops)',
      ),
    ],
  },
  {
    version: 12,
    name: 'the inbox and its unread part listed from tables of their own, so bulk triage rewrites rows in place',
    // Marking read, deleting and their undo change `read`, `deleted_at` and `last_op`. While any
    // index named one of them (in its columns or its condition), each of the 100,000 rows of a mark
    // all read got a new version in every index: about 1 s on PostgreSQL, 1.7 s on PGlite. Now no
    // index of `notifications` names them, so such an update is HOT (the row rewritten on its own
    // page, the indexes untouched; the fill factor leaves that room). The inbox and its unread
    // part are listed from `inbox_listed` and `inbox_unread`: a notification's user, type, order
    // and id while it is listed (not deleted, snoozed or muted) and, for the second, unread. Statement
    // triggers keep them: a bulk change deletes or inserts its rows there in one statement, and
    // only a statement that both adds and removes rows joins what rows were with what they became.
    // A listed row's key never changes in place: `sorted_at` moves only as a snoozed row wakes.
    // An operation that named its ids keeps them, and its undo and clean-up look at those rows
    // alone; one on the whole inbox reads its user's rows.
    statements: [
      'ALTER TABLE notifications SET (fillfactor = 45)',
      ...INBOX_LISTINGS.map(
        ({ table }) => `CREATE TABLE ${table} (
        user_id integer NOT NULL,
        type text NOT NULL,
        sorted_at timestamptz(3) NOT NULL,
        id uuid NOT NULL,
        PRIMARY KEY (user_id, type, sorted_at, id)
      )`,
      ),
      ...INBOX_LISTINGS.map(
        (listing) => `INSERT INTO ${listing.table} (user_id, type, sorted_at, id)
       SELECT n.user_id, n.type, n.sorted_at, n.id FROM notifications n WHERE ${listing.holds('n')}`,
      ),
      'DROP INDEX notifications_page_idx',
      'DROP INDEX notifications_unread_idx',
      'DROP INDEX notifications_type_page_idx',
      'DROP INDEX notifications_type_unread_idx',
      'DROP INDEX notifications_muted_idx',
      'DROP INDEX notifications_snoozed_idx',
      'DROP INDEX notifications_wake_idx',
      'DROP INDEX notifications_last_op_idx',
      // The muted and snoozed listings and the wake loop leave deleted rows out as they read them:
      // only a delete naming its ids (500 at most) reaches a muted or snoozed row.
      `CREATE INDEX notifications_muted_idx ON notifications (user_id, sorted_at DESC, id DESC)
       WHERE snoozed_until IS NULL AND muted`,
      `CREATE INDEX notifications_snoozed_idx ON notifications (user_id, snoozed_until, id)
       WHERE snoozed_until IS NOT NULL`,
      'CREATE INDEX notifications_wake_idx ON notifications (snoozed_until) WHERE snoozed_until IS NOT NULL',
      // What the undo of an operation on the whole inbox reads.
      'CREATE INDEX notifications_user_idx ON notifications (user_id)',
      'ALTER TABLE triage_operations ADD COLUMN ids uuid[]',
      arrived,
      `CREATE TRIGGER notifications_entries_insert AFTER INSERT ON notifications
       REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION inbox_entries_arrived()`,
      gone,
      `CREATE TRIGGER notifications_entries_delete AFTER DELETE ON notifications
       REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION inbox_entries_gone()`,
      changed,
      `CREATE TRIGGER notifications_entries_update AFTER UPDATE ON notifications
       REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION inbox_entries_changed()`,
    ],
  },
  {
    version: 13,
    name: 'listing entries name their type by a small code; sorted_at kept by a trigger, not computed at every update',
    // Bulk triage on PGlite, 100,000 rows: a stored generated column is computed again at every
    // UPDATE of its row, whatever the UPDATE sets (about 35 ms of each bulk change); a trigger on
    // the two columns it is made of computes it only when one of them is set, and a statement
    // that gives it (the service's own inserts) pays nothing. The listings' key loses its text:
    // a code of two bytes makes an entry 40 bytes instead of 48 and each comparison an integer
    // one, about 60 ms of each 100,000 entries put back.
    statements: [
      'ALTER TABLE notifications ALTER COLUMN sorted_at DROP EXPRESSION',
      `CREATE FUNCTION notifications_sorted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.sorted_at := greatest(NEW.created_at, NEW.woken_at);
        RETURN NEW;
      END
      $$`,
      `CREATE TRIGGER notifications_sorted_insert BEFORE INSERT ON notifications
       FOR EACH ROW WHEN (NEW.sorted_at IS NULL) EXECUTE FUNCTION notifications_sorted()`,
      `CREATE TRIGGER notifications_sorted_update BEFORE UPDATE OF created_at, woken_at ON notifications
       FOR EACH ROW EXECUTE FUNCTION notifications_sorted()`,
      // A new type of notification is a new migration that gives it the next code.
      `CREATE FUNCTION notification_type_code(type text) RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE type WHEN 'follow' THEN 1 WHEN 'mention' THEN 2 WHEN 'reply' THEN 3 WHEN 'like' THEN 4
          WHEN 'system' THEN 5 END::smallint
      $$`,
      ...INBOX_LISTINGS.flatMap(({ table }) => [
        `ALTER TABLE ${table} ALTER COLUMN type TYPE smallint USING notification_type_code(type)`,
        `ALTER TABLE ${table} RENAME COLUMN type TO type_code`,
      ]),
      ...listingTriggerFunctions(TYPE_CODE),
    ],
  },
  {
    version: 14,
    name: 'on PGlite, the listing tables written without WAL and made again after a crash',
    // The listing tables hold nothing the notifications' own columns do not say. On PGlite, writing
    // their changes to the WAL was a fifth of putting entries back (about 170 ms of an undo of
    // delete all of 100,000). Unlogged, a crash empties them, and `migrate`, which runs at every
    // start, fills them again from the notifications. On a server they stay logged: a standby
    // could not read them, and a server restarting under running services would leave them empty.
    statements: [],
    pglite: INBOX_LISTINGS.map(({ table }) => `ALTER TABLE ${table} SET UNLOGGED`),
  },
  {
    version: 15,
    name: 'arrival events name their transaction, so a live channel leaves out what its first count held',
    // A live channel registers for events, then reads its first count. An arrival committed just
    // before that read can reach the listening connection after it: the channel would announce a
    // notification its count already held. The transaction's id lets it tell, against the
    // snapshot of its read (see server/live/snapshot.ts).
    statements: [
      `CREATE OR REPLACE FUNCTION live_notifications_arrived() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE arrival record;
      BEGIN
        IF (SELECT count(*) FROM (SELECT 1 FROM new_rows WHERE NOT read AND NOT muted LIMIT 21) AS few) <= 20 THEN
          FOR arrival IN SELECT id, user_id FROM new_rows WHERE NOT read AND NOT muted ORDER BY created_at, id LOOP
            PERFORM pg_notify(live_channel(TG_TABLE_SCHEMA),
              json_build_object('kind', 'notification', 'user', arrival.user_id, 'id', arrival.id,
                'xid', pg_current_xact_id()::text)::text);
          END LOOP;
        END IF;
        RETURN NULL;
      END
      $$`,
    ],
  },
  {
    version: 16,
    name: 'count events name their transaction, so a live channel sends no count older than its first',
    // As migration 15 for arrivals: a count committed just before a channel's first count was read
    // can reach the listening connection after it, and is then older than what the channel has.
    statements: [
      `CREATE OR REPLACE FUNCTION live_count_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE now_counts unread_counts;
      BEGIN
        SELECT * INTO now_counts FROM unread_counts WHERE user_id = NEW.user_id;
        IF FOUND THEN
          PERFORM pg_notify(live_channel(TG_TABLE_SCHEMA), json_build_object('kind', 'count', 'user', NEW.user_id,
            'count', now_counts.unread, 'byType', json_build_object('follow', now_counts.unread_follow, 'mention', now_counts.unread_mention, 'reply', now_counts.unread_reply, 'like', now_counts.unread_like, 'system', now_counts.unread_system),
            'xid', pg_current_xact_id()::text)::text);
        END IF;
        RETURN NULL;
      END
      $$`,
    ],
  },
  {
    version: 17,
    name: 'each notification keeps its created_at as the contract writes it',
    // A page writes `createdAt` for each of its notifications, and `sortedAt` the same for one that
    // never woke: formatting the timestamp (`to_char`) was about a seventh of the database's time
    // for a page of 25. A notification's `created_at` is set as it arrives and never changes after,
    // so the text is written once, beside it, by the row trigger below (an update of `created_at`
    // writes it again); the bulk changes of triage never touch it.
    statements: [
      'ALTER TABLE notifications ADD COLUMN created_text text',
      `UPDATE notifications SET created_text = to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      'ALTER TABLE notifications ALTER COLUMN created_text SET NOT NULL',
      `CREATE FUNCTION notifications_created_text() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.created_text := to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
        RETURN NEW;
      END
      $$`,
      `CREATE TRIGGER notifications_created_text_insert BEFORE INSERT ON notifications
       FOR EACH ROW EXECUTE FUNCTION notifications_created_text()`,
      `CREATE TRIGGER notifications_created_text_update BEFORE UPDATE OF created_at ON notifications
       FOR EACH ROW EXECUTE FUNCTION notifications_created_text()`,
    ],
  },
  {
    version: 18,
    name: 'a search reads its own user’s trigrams only',
    // The trigram index held every user's folded texts under one entry per trigram, and a search
    // kept its user's rows after reading them all: a word common in other inboxes cost a search
    // of an inbox without it every one of their rows. With 199 other inboxes of 1,000 holding the
    // word, a page took 58 ms against 3 ms; with millions of users, one person searching could load
    // the database for everyone. Keyed by the user first (btree_gin's operator class for the
    // integer beside pg_trgm's), the index gives a search its own user's rows alone: 3 ms there.
    statements: [
      withTrigramIndex(
        'btree_gin',
        'CREATE INDEX notification_search_user_idx ON notification_search USING gin (user_id, words %I.gin_trgm_ops)',
      ),
      'DROP INDEX notification_search_idx',
      'ALTER INDEX notification_search_user_idx RENAME TO notification_search_idx',
    ],
  },
];

/**
 * Fills the listing tables again from the notifications when a crash has emptied them (PGlite
 * keeps them unlogged: migration 14); nothing when they hold what they should.
 */
async function restoreListings(tx: Queryable): Promise<void> {
  const [listed] = INBOX_LISTINGS;
  if (!listed) return;
  const { rows } = await tx.query<{ lost: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM ${listed.table})
       AND EXISTS (SELECT 1 FROM notifications n WHERE ${listed.holds('n')}) AS lost`,
  );
  if (!rows[0]?.lost) return;
  for (const listing of INBOX_LISTINGS) {
    await tx.query(`TRUNCATE ${listing.table}`);
    await tx.query(enter(listing, 'notifications n', '', TYPE_CODE));
  }
}

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
      for (const statement of migration.statements) await tx.query(statement);
      if (db.kind === 'pglite') for (const statement of migration.pglite ?? []) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    if (db.kind === 'pglite') await restoreListings(tx);
    return applied;
  });
}

/** Plain DDL with no literal semicolons inside statements, split at the statement ends. */
function splitStatements(sql: string): string[] {
  return sql
    .replace(/--.*$/gm, '')
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}
