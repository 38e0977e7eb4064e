/**
 * Signing in with a username and password, with wrong passwords counted in the database (so across
 * service instances) per client address and per client address + username: past
 * `failuresPerClient`, or `failuresPerClientUsername` for one username, within `windowMinutes`,
 * that client's attempts are refused unchecked until enough leave the window. A username alone is
 * never held up, so its owner elsewhere still gets in while someone tries it. Usernames that do not
 * exist are counted and checked the same way, so neither the answer nor its timing says whether
 * one exists.
 */
import { LIMITS } from '../../lib/api/contract';
import type { Queryable } from '../db/database';
import { type CheckQueueLimits, DEFAULT_CHECK_QUEUE, type PasswordChecks, PasswordChecksBusyError } from './passwords';

export interface SignInLimits extends CheckQueueLimits {
  failuresPerClient: number;
  failuresPerClientUsername: number;
  windowMinutes: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  failuresPerClient: LIMITS.signInFailuresPerClient,
  failuresPerClientUsername: LIMITS.signInFailuresPerClientUsername,
  windowMinutes: LIMITS.signInWindowMinutes,
  ...DEFAULT_CHECK_QUEUE,
};

export interface SignInAttempt {
  /** Who is asking, as `requestClient` names them. */
  client: string;
  username: string;
  password: string;
}

export type SignInResult =
  | { kind: 'signed-in'; userId: number; username: string }
  | { kind: 'refused' }
  /** Too many wrong passwords from this client lately: try again in `seconds`. */
  | { kind: 'wait'; seconds: number }
  /** Too many password checks at once on this instance; nothing was checked. */
  | { kind: 'busy'; seconds: number };

/** Longer than any username; what is typed beyond it is the same attempt. */
const KEY_LENGTH = 64;

/**
 * When a new attempt would fit under `limit` again: the time the attempt that has to leave the
 * window for it leaves, or null when it fits now. `times` are the other attempts, oldest first.
 */
function fitsAgainAt(times: readonly number[], limit: number, windowMs: number): number | null {
  const mustLeave = times[times.length - limit];
  return times.length >= limit && mustLeave !== undefined ? mustLeave + windowMs : null;
}

export async function signIn(
  db: Queryable,
  checks: PasswordChecks,
  attempt: SignInAttempt,
  now: Date,
  limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
): Promise<SignInResult> {
  // A spray from many addresses is answered before it costs the database anything.
  if (checks.full) return { kind: 'busy', seconds: checks.retryAfterSeconds };
  const key = attempt.username.trim().toLowerCase().slice(0, KEY_LENGTH);
  const windowMs = limits.windowMinutes * 60_000;
  const windowStart = new Date(now.getTime() - windowMs).toISOString();
  // The attempt is written before it is counted: of attempts racing on any instances, each
  // counts every one written before it, so no more than the limit ever reach the password check.
  const written = await db.query<{ id: string }>(
    `WITH gone AS (DELETE FROM sign_in_attempts WHERE attempted_at <= $4)
     INSERT INTO sign_in_attempts (client_key, username_key, attempted_at) VALUES ($1, $2, $3) RETURNING id`,
    [attempt.client, key, now.toISOString(), windowStart],
  );
  const id = written.rows[0]?.id;
  const forget = () => db.query('DELETE FROM sign_in_attempts WHERE id = $1', [id]);
  // At most the client's limit and the attempts in flight: those past it are forgotten.
  const earlier = await db.query<{ username_key: string; attempted_at: Date }>(
    `SELECT username_key, attempted_at FROM sign_in_attempts
     WHERE client_key = $1 AND attempted_at > $2 AND id <> $3 ORDER BY attempted_at, id`,
    [attempt.client, windowStart, id],
  );
  const times = earlier.rows.map((row) => new Date(row.attempted_at).getTime());
  const sameUsername = earlier.rows
    .filter((row) => row.username_key === key)
    .map((row) => new Date(row.attempted_at).getTime());
  const freeAt = Math.max(
    fitsAgainAt(times, limits.failuresPerClient, windowMs) ?? 0,
    fitsAgainAt(sameUsername, limits.failuresPerClientUsername, windowMs) ?? 0,
  );
  if (freeAt > 0) {
    await forget();
    return { kind: 'wait', seconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)) };
  }
  // Looked up whatever was typed, so that a name no user could have takes the same path.
  const found = await db.query<{ id: number; username: string; password_hash: string | null }>(
    'SELECT id, username, password_hash FROM users WHERE lower(username) = $1',
    [key],
  );
  const user = found.rows[0];
  let matches: boolean;
  try {
    matches = await checks.check(user?.password_hash ?? null, attempt.password);
  } catch (error) {
    if (!(error instanceof PasswordChecksBusyError)) throw error;
    await forget();
    return { kind: 'busy', seconds: error.retryAfterSeconds };
  }
  if (!matches || !user) return { kind: 'refused' };
  // Only wrong passwords count against the client.
  await forget();
  return { kind: 'signed-in', userId: user.id, username: user.username };
}
