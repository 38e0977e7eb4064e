import { randomUUID } from 'node:crypto';
import type { IdsList, IdsSelection, NotificationType } from '../../lib/api/contract';
import type { Queryable } from '../db/database';
import { toIso } from '../db/values';
import { authenticatedQuery, type TokenOwner } from './tokens';

export interface StoredNotification {
  id: string;
  read: boolean;
  type: NotificationType;
  createdAt: string;
  actor: { username: string; displayName: string } | null;
  text: string;
  /** A path on the service's own site, an http(s) URL elsewhere, or null. */
  path: string | null;
}

/** Where a page starts: just after this notification in newest-first order. */
export interface PagePosition {
  createdAt: string;
  id: string;
}

export interface NewNotification {
  userId: number;
  type: NotificationType;
  actorId?: number | null;
  text: string;
  path?: string | null;
  read?: boolean;
  createdAt?: string;
}

/** A notification row as the listing query selects it, with its actor joined. */
export interface NotificationRecord {
  id: string;
  read: boolean;
  type: NotificationType;
  created_at: Date;
  text: string;
  path: string | null;
  actor_username: string | null;
  actor_display_name: string | null;
}

export const toNotification = (row: NotificationRecord): StoredNotification => ({
  id: row.id,
  read: row.read,
  type: row.type,
  createdAt: toIso(row.created_at),
  actor:
    row.actor_username === null ? null : { username: row.actor_username, displayName: row.actor_display_name ?? '' },
  text: row.text,
  path: row.path,
});

const NOTIFICATION_COLUMNS = `n.id, n.read, n.type, n.created_at, n.text, n.path,
  a.username AS actor_username, a.display_name AS actor_display_name`;

type PageOptions = { limit: number; unreadOnly: boolean; after: PagePosition | null };

/**
 * The statement of a page of `user`'s notifications, newest first, with its parameters numbered
 * from `$first`. Each variant is its own statement so the planner always walks the matching
 * index instead of filtering.
 */
function pageStatement(user: string, first: number, options: PageOptions) {
  const params: unknown[] = [options.limit];
  let where = `n.user_id = ${user} AND n.deleted_at IS NULL`;
  if (options.unreadOnly) where += ' AND NOT n.read';
  if (options.after) {
    params.push(options.after.createdAt, options.after.id);
    where += ` AND (n.created_at, n.id) < ($${first + 1}::timestamptz, $${first + 2}::uuid)`;
  }
  const sql = `SELECT ${NOTIFICATION_COLUMNS}
     FROM notifications n LEFT JOIN users a ON a.id = n.actor_id
     WHERE ${where}
     ORDER BY n.created_at DESC, n.id DESC
     LIMIT $${first}`;
  return { sql, params };
}

/** Up to `limit` notifications, newest first, after `position` when given. */
export async function listNotifications(
  db: Queryable,
  userId: number,
  options: PageOptions,
): Promise<StoredNotification[]> {
  const { sql, params } = pageStatement('$1', 2, options);
  const result = await db.query<NotificationRecord>(sql, [userId, ...params]);
  return result.rows.map(toNotification);
}

/** A page as `listNotifications` gives it, for the owner of `token`, in one round trip; null for an invalid token. */
export async function listNotificationsAs(
  db: Queryable,
  token: string,
  options: PageOptions,
): Promise<{ owner: TokenOwner; notifications: StoredNotification[] } | null> {
  const { sql, params } = pageStatement('caller.user_id', 2, options);
  const found = await authenticatedQuery<NotificationRecord>(db, token, sql, params, 'q.created_at DESC, q.id DESC');
  return found && { owner: found.owner, notifications: found.rows.map(toNotification) };
}

const UNREAD = (user: string) => `SELECT unread FROM unread_counts WHERE user_id = ${user}`;

export async function countUnread(db: Queryable, userId: number): Promise<number> {
  const result = await db.query<{ unread: number }>(UNREAD('$1'), [userId]);
  return result.rows[0]?.unread ?? 0;
}

/** The unread count of the owner of `token`, in one round trip; null for an invalid token. */
export async function countUnreadAs(
  db: Queryable,
  token: string,
): Promise<{ owner: TokenOwner; unread: number } | null> {
  const found = await authenticatedQuery<{ unread: number }>(db, token, UNREAD('caller.user_id'));
  return found && { owner: found.owner, unread: found.rows[0]?.unread ?? 0 };
}

const lowercase = (ids: readonly string[]) => ids.map((id) => id.toLowerCase());

/**
 * One triage call: its id is written on every row it changes (`last_op`) so that its undo
 * finds them, and `at` is the service's clock when it happened.
 */
export interface TriageStamp {
  operationId: string;
  at: Date;
}

/**
 * Applies a triage change to the caller's notifications still in the inbox, in one statement:
 * `set` is the change (it may use `$3`, the value `with`), `only` the state a row must be in
 * for the change to apply to it. The number of rows changed.
 */
async function triage(
  db: Queryable,
  userId: number,
  ids: IdsSelection,
  stamp: TriageStamp,
  change: { set: string; only: string; with?: unknown },
): Promise<number> {
  if (ids !== 'all' && ids.length === 0) return 0;
  const params: unknown[] = [userId, stamp.operationId];
  if ('with' in change) params.push(change.with);
  let where = `user_id = $1 AND deleted_at IS NULL AND ${change.only}`;
  if (ids !== 'all') {
    params.push(lowercase(ids));
    where += ` AND id = ANY($${params.length}::uuid[])`;
  }
  const result = await db.query(`UPDATE notifications SET ${change.set}, last_op = $2::uuid WHERE ${where}`, params);
  return result.rowCount;
}

/** Marks notifications read; the number that went from unread to read. */
export function markRead(db: Queryable, userId: number, ids: IdsSelection, stamp: TriageStamp): Promise<number> {
  return triage(db, userId, ids, stamp, { set: 'read = true', only: 'NOT read' });
}

/** Marks notifications unread; the number that went from read to unread. */
export function markUnread(db: Queryable, userId: number, ids: IdsList, stamp: TriageStamp): Promise<number> {
  return triage(db, userId, ids, stamp, { set: 'read = false', only: 'read' });
}

/**
 * Takes notifications out of the inbox; the number taken. They stay, hidden, until their
 * operation's undo window has passed and the clean-up removes them for good.
 */
export function deleteNotifications(
  db: Queryable,
  userId: number,
  ids: IdsSelection,
  stamp: TriageStamp,
): Promise<number> {
  return triage(db, userId, ids, stamp, {
    set: 'deleted_at = $3::timestamptz',
    only: 'true',
    with: stamp.at.toISOString(),
  });
}

/** Adds notifications in one statement; their ids, in the order given. */
export async function addNotifications(db: Queryable, notifications: readonly NewNotification[]): Promise<string[]> {
  if (notifications.length === 0) return [];
  const rows = notifications.map((n) => ({
    id: randomUUID(),
    user_id: n.userId,
    type: n.type,
    actor_id: n.actorId ?? null,
    text: n.text,
    path: n.path ?? null,
    read: n.read ?? false,
    created_at: n.createdAt ?? null,
  }));
  await db.query(
    `INSERT INTO notifications (id, user_id, type, actor_id, text, path, read, created_at)
     SELECT id, user_id, type, actor_id, text, path, read, coalesce(created_at, now())
     FROM jsonb_to_recordset($1::jsonb) AS x(
       id uuid, user_id integer, type text, actor_id integer, text text, path text, read boolean, created_at timestamptz
     )`,
    [JSON.stringify(rows)],
  );
  return rows.map((row) => row.id);
}

/**
 * Fills an inbox with `count` generated `system` notifications in one statement, one second
 * apart and ending at `newest`: bulk data for load and depth tests. Then refreshes the planner's
 * statistics, as autovacuum would a minute later: on a table it still thinks empty, a page of 25
 * reads and sorts the whole inbox (0.6 ms for 1,000) instead of walking the index (0.07 ms).
 */
export async function fillInbox(
  db: Queryable,
  userId: number,
  count: number,
  options: { read?: boolean; newest?: string; text?: string } = {},
): Promise<number> {
  const result = await db.query(
    `INSERT INTO notifications (user_id, type, text, read, created_at)
     SELECT $1, 'system', $3 || ' #' || g, $4, coalesce($5::timestamptz, now()) - make_interval(secs => g)
     FROM generate_series(1, $2) AS g`,
    [userId, count, options.text ?? 'Generated notification', options.read ?? false, options.newest ?? null],
  );
  await db.query('ANALYZE notifications');
  return result.rowCount;
}

/** One notification of a user, as the listing shows it; null when it is gone. */
export async function findNotification(db: Queryable, userId: number, id: string): Promise<StoredNotification | null> {
  const result = await db.query<NotificationRecord>(
    `SELECT ${NOTIFICATION_COLUMNS}
     FROM notifications n LEFT JOIN users a ON a.id = n.actor_id
     WHERE n.user_id = $1 AND n.id = $2`,
    [userId, id],
  );
  return result.rows[0] ? toNotification(result.rows[0]) : null;
}

export interface DeliveredNotification {
  username: string;
  type: NotificationType;
  text: string;
  /** The actor's username; none for a notification nobody caused. */
  actor: string | null;
  /** A path on the service's site or an http(s) URL; none links nowhere. */
  path: string | null;
}

/**
 * Delivers one notification to a user by username, from an actor by username, in one statement:
 * what the operator API and the demo activity do. Names the missing user when there is one.
 */
export async function deliverNotification(
  db: Queryable,
  input: DeliveredNotification,
): Promise<StoredNotification | { missing: string }> {
  const result = await db.query<NotificationRecord>(
    `WITH recipient AS (SELECT id FROM users WHERE lower(username) = lower($1)),
       actor AS (SELECT id FROM users WHERE lower(username) = lower($2)),
       added AS (
         INSERT INTO notifications (user_id, type, actor_id, text, path)
         SELECT recipient.id, $3, actor.id, $4, $5 FROM recipient LEFT JOIN actor ON true
         WHERE $2::text IS NULL OR actor.id IS NOT NULL
         RETURNING *
       )
     SELECT ${NOTIFICATION_COLUMNS} FROM added n LEFT JOIN users a ON a.id = n.actor_id`,
    [input.username, input.actor, input.type, input.text, input.path],
  );
  const row = result.rows[0];
  if (row) return toNotification(row);
  const recipient = await db.query('SELECT 1 FROM users WHERE lower(username) = lower($1)', [input.username]);
  return { missing: recipient.rowCount === 0 ? input.username : (input.actor ?? input.username) };
}
