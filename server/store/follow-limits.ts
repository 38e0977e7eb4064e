/**
 * What keeps following and unfollowing in a loop from flooding anyone: a caller's follow and
 * unfollow calls are counted per hour, and a follower puts at most one follow notification into
 * the same inbox a day. Both live in the database, so they hold across restarts and between
 * services sharing one database.
 */
import { LIMITS } from '../../lib/api/contract';
import type { Database, Queryable } from '../db/database';

const HOUR = "interval '1 hour'";

/**
 * Counts one follow or unfollow call of the caller, unless the hour's allowance is used up:
 * then the seconds until the oldest counted call leaves the window. Locking the caller's row
 * makes concurrent calls take turns, so a burst cannot slip past the count.
 */
export async function countFollowCall(db: Database, callerId: number): Promise<{ retryAfter: number } | null> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [callerId]);
    await tx.query(`DELETE FROM follow_calls WHERE caller_id = $1 AND called_at <= now() - ${HOUR}`, [callerId]);
    const recent = await tx.query<{ count: number; retry_after: number | null }>(
      `SELECT count(*)::int AS count, ceil(extract(epoch FROM min(called_at) + ${HOUR} - now()))::int AS retry_after
       FROM follow_calls WHERE caller_id = $1`,
      [callerId],
    );
    const { count = 0, retry_after = null } = recent.rows[0] ?? {};
    if (count >= LIMITS.followCallsPerHour) return { retryAfter: Math.max(1, retry_after ?? 3600) };
    await tx.query('INSERT INTO follow_calls (caller_id) VALUES ($1)', [callerId]);
    return null;
  });
}

/**
 * True when this follow may notify the followed user: no follow notification from this
 * follower reached them in the last day. Claiming and checking are one statement, so two
 * instances following at once notify once.
 */
export async function claimFollowNotice(tx: Queryable, followerId: number, followeeId: number): Promise<boolean> {
  const result = await tx.query(
    `INSERT INTO follow_notices AS n (follower_id, followee_id) VALUES ($1, $2)
     ON CONFLICT (follower_id, followee_id) DO UPDATE SET notified_at = now()
       WHERE n.notified_at <= now() - make_interval(hours => $3)
     RETURNING follower_id`,
    [followerId, followeeId, LIMITS.followNoticeHours],
  );
  return result.rows.length === 1;
}
