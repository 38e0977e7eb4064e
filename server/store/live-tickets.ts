/**
 * Live tickets: what a browser, which cannot put a token on a WebSocket, opens a live channel
 * with. Kept in the database (hashed, like tokens), so any service instance on it can take the
 * upgrade; single-use, because taking one deletes it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type ByType, LIMITS } from '../../lib/api/contract';
import type { Queryable } from '../db/database';
import { toIso } from '../db/values';
import { NO_UNREAD, toUnreadCounts, UNREAD_COUNTS, type UnreadCounts } from './notifications';

const TICKET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

export interface LiveTicketOwner {
  userId: number;
  tokenId: string;
}

/** A new ticket for the caller and the token it used, and when it expires. */
export async function issueLiveTicket(
  db: Queryable,
  owner: LiveTicketOwner,
): Promise<{ ticket: string; expiresAt: string }> {
  const ticket = randomBytes(32).toString('base64url');
  // Expired tickets go as new ones come: the table holds about a minute's worth.
  const result = await db.query<{ expires_at: Date }>(
    `WITH expired AS (DELETE FROM live_tickets WHERE expires_at < now() - interval '1 minute')
     INSERT INTO live_tickets (ticket_hash, user_id, token_id, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))
     RETURNING expires_at`,
    [hashTicket(ticket), owner.userId, owner.tokenId, LIMITS.liveTicketSeconds],
  );
  return { ticket, expiresAt: toIso(result.rows[0]?.expires_at) };
}

/** Takes a ticket: its owner when it was valid, unexpired and its token unrevoked; it is gone either way. */
export async function redeemLiveTicket(db: Queryable, ticket: string): Promise<LiveTicketOwner | null> {
  if (!TICKET_PATTERN.test(ticket)) return null;
  const result = await db.query<{ user_id: number; token_id: string; valid: boolean }>(
    `DELETE FROM live_tickets t WHERE t.ticket_hash = $1
     RETURNING t.user_id, t.token_id,
       t.expires_at > now() AND EXISTS (SELECT 1 FROM tokens k WHERE k.id = t.token_id AND k.revoked_at IS NULL) AS valid`,
    [hashTicket(ticket)],
  );
  const row = result.rows[0];
  return row?.valid ? { userId: row.user_id, tokenId: row.token_id } : null;
}

/**
 * The unread counts, and whether the token is still good: what a channel checks once it is open.
 * With them, the snapshot they were read in (`pg_current_snapshot()` as text, read in the same
 * statement): which transactions' arrivals the counts already hold.
 */
export async function liveChannelState(
  db: Queryable,
  owner: LiveTicketOwner,
): Promise<{ counts: UnreadCounts; tokenValid: boolean; snapshot: string }> {
  const result = await db.query<{
    unread: number | null;
    by_type: ByType | null;
    token_valid: boolean;
    snapshot: string;
  }>(
    `SELECT counts.unread, counts.by_type,
       EXISTS (SELECT 1 FROM tokens WHERE id = $2 AND user_id = $1 AND revoked_at IS NULL) AS token_valid,
       pg_current_snapshot()::text AS snapshot
     FROM (SELECT 1) AS one LEFT JOIN (${UNREAD_COUNTS('$1')}) AS counts ON true`,
    [owner.userId, owner.tokenId],
  );
  const row = result.rows[0];
  const counts =
    row && row.unread !== null && row.by_type !== null
      ? toUnreadCounts({ unread: row.unread, by_type: row.by_type })
      : NO_UNREAD;
  return { counts, tokenValid: row?.token_valid === true, snapshot: row?.snapshot ?? '' };
}
