/**
 * Mutes and the strangers policy. Each notification's `muted` follows them through the triggers
 * of migration 11: making, moving, removing or expiring a mute, changing the policy and following
 * or unfollowing someone each update the notifications they concern, and the unread counts and
 * live channels follow from that update as from any other.
 */
import { LIMITS, type StrangersPolicy } from '../../lib/api/contract';
import type { Database, Queryable } from '../db/database';
import { isoText } from '../db/values';

export interface StoredMute {
  id: string;
  /** The muted actor's username; null for a muted link. */
  actor: string | null;
  /** The muted link as notifications keep it: a path on the service's site, or an http(s) URL. */
  path: string | null;
  until: string | null;
  createdAt: string;
}

/** What a mute silences: one actor (by user id) or one link. */
export type MuteTarget = { actorId: number } | { path: string };

const MUTE_COLUMNS = `m.id, a.username AS actor, m.path, ${isoText('m.until')} AS until, ${isoText('m.created_at')} AS "createdAt"`;
const ACTIVE = '(m.until IS NULL OR m.until > now())';

/** The user's mutes still in force, newest first. */
export async function listMutes(db: Queryable, userId: number): Promise<StoredMute[]> {
  const result = await db.query<StoredMute>(
    `SELECT ${MUTE_COLUMNS} FROM mutes m LEFT JOIN users a ON a.id = m.actor_id
     WHERE m.user_id = $1 AND ${ACTIVE} ORDER BY m.created_at DESC, m.id DESC`,
    [userId],
  );
  return result.rows;
}

export type AddMuteResult = { mute: StoredMute; created: boolean } | { tooMany: true };

/**
 * Mutes a target until `until` (ISO 8601) or until removed. A target already muted keeps its mute
 * with the new end; one whose mute has ended but not yet been cleared away gets a new one.
 */
export function addMute(
  db: Database,
  userId: number,
  target: MuteTarget,
  until: string | null,
): Promise<AddMuteResult> {
  return db.transaction(async (tx) => {
    // One caller's mutes are made one at a time, so two at once cannot both pass the limit.
    await tx.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
    const [column, value] = 'actorId' in target ? ['actor_id', target.actorId] : ['path', target.path];
    await tx.query(`DELETE FROM mutes WHERE user_id = $1 AND ${column} = $2 AND until <= now()`, [userId, value]);
    const moved = await tx.query<{ id: string }>(
      `UPDATE mutes SET until = $3::timestamptz WHERE user_id = $1 AND ${column} = $2 RETURNING id`,
      [userId, value, until],
    );
    let id = moved.rows[0]?.id;
    const created = id === undefined;
    if (id === undefined) {
      const active = await tx.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM mutes m WHERE m.user_id = $1 AND ${ACTIVE}`,
        [userId],
      );
      if ((active.rows[0]?.n ?? 0) >= LIMITS.mutesPerUser) return { tooMany: true } as const;
      const added = await tx.query<{ id: string }>(
        `INSERT INTO mutes (user_id, ${column}, until) VALUES ($1, $2, $3::timestamptz) RETURNING id`,
        [userId, value, until],
      );
      id = added.rows[0]?.id as string;
    }
    const found = await tx.query<StoredMute>(
      `SELECT ${MUTE_COLUMNS} FROM mutes m LEFT JOIN users a ON a.id = m.actor_id WHERE m.id = $1`,
      [id],
    );
    return { mute: found.rows[0] as StoredMute, created };
  });
}

/** Removes one of the user's mutes still in force; false when there is none with that id. */
export async function removeMute(db: Queryable, userId: number, id: string): Promise<boolean> {
  const result = await db.query(`DELETE FROM mutes m WHERE m.user_id = $1 AND m.id = $2 AND ${ACTIVE}`, [
    userId,
    id.toLowerCase(),
  ]);
  return result.rowCount > 0;
}

/** Mutes removed per statement, so one expiry never holds many rows for long. */
const EXPIRE_BATCH = 500;

/**
 * Removes every mute whose end has come by the database's clock, of every user; the number
 * removed. Rows another instance is removing at the same moment are skipped.
 */
export async function expireDueMutes(db: Queryable): Promise<number> {
  let expired = 0;
  for (;;) {
    const result = await db.query(
      `DELETE FROM mutes WHERE id IN (
         SELECT id FROM mutes WHERE until <= now() ORDER BY until LIMIT $1 FOR UPDATE SKIP LOCKED
       )`,
      [EXPIRE_BATCH],
    );
    expired += result.rowCount;
    if (result.rowCount < EXPIRE_BATCH) return expired;
  }
}

/** Milliseconds until the soonest mute of anyone ends (0 or less: due), or null when none has an end. */
export async function msUntilNextMuteEnd(db: Queryable): Promise<number | null> {
  const result = await db.query<{ ms: number | string | null }>(
    `SELECT extract(epoch FROM min(until) - clock_timestamp()) * 1000 AS ms FROM mutes WHERE until IS NOT NULL`,
  );
  const ms = result.rows[0]?.ms;
  return ms === null || ms === undefined ? null : Number(ms);
}

export async function strangersPolicy(db: Queryable, userId: number): Promise<StrangersPolicy> {
  const result = await db.query<{ strangers: StrangersPolicy }>(
    'SELECT strangers FROM inbox_policies WHERE user_id = $1',
    [userId],
  );
  return result.rows[0]?.strangers ?? 'accept';
}

export async function setStrangersPolicy(db: Queryable, userId: number, strangers: StrangersPolicy): Promise<void> {
  await db.query(
    `INSERT INTO inbox_policies (user_id, strangers) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET strangers = excluded.strangers
     WHERE inbox_policies.strangers IS DISTINCT FROM excluded.strangers`,
    [userId, strangers],
  );
}
