/**
 * Signing in with a username and password, with attempts limited per username in the database
 * (so across service instances): after `LIMITS.signInAttempts` wrong passwords within
 * `LIMITS.signInWindowMinutes`, further attempts are refused unchecked until the oldest leaves
 * the window. Usernames that do not exist are counted and checked the same way, so neither the
 * answer nor its timing says whether one exists.
 */
import { LIMITS } from '../../lib/api/contract';
import type { Queryable } from '../db/database';
import { passwordMatches } from './passwords';

export type SignInResult =
  | { kind: 'signed-in'; userId: number; username: string }
  | { kind: 'refused' }
  /** Too many wrong passwords lately: try again in `minutes`. */
  | { kind: 'wait'; minutes: number };

const WINDOW_MS = LIMITS.signInWindowMinutes * 60_000;
/** Longer than any username; what is typed beyond it is the same attempt. */
const KEY_LENGTH = 64;

export async function signIn(db: Queryable, username: string, password: string, now: Date): Promise<SignInResult> {
  const key = username.trim().toLowerCase().slice(0, KEY_LENGTH);
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  // The attempt is written before it is counted: of attempts racing on any instances, each
  // counts every one written before it, so no more than the limit ever reach the password check.
  const attempt = await db.query<{ id: string }>(
    `WITH gone AS (DELETE FROM sign_in_attempts WHERE attempted_at <= $3)
     INSERT INTO sign_in_attempts (username_key, attempted_at) VALUES ($1, $2) RETURNING id`,
    [key, now.toISOString(), windowStart.toISOString()],
  );
  const id = attempt.rows[0]?.id;
  const forget = () => db.query('DELETE FROM sign_in_attempts WHERE id = $1', [id]);
  const counted = await db.query<{ attempts: number; oldest: Date | null }>(
    `SELECT count(*)::int AS attempts, min(attempted_at) FILTER (WHERE id <> $3) AS oldest
     FROM sign_in_attempts WHERE username_key = $1 AND attempted_at > $2`,
    [key, windowStart.toISOString(), id],
  );
  const { attempts = 0, oldest = null } = counted.rows[0] ?? {};
  if (attempts > LIMITS.signInAttempts) {
    await forget();
    const freeAt = (oldest ? new Date(oldest).getTime() : now.getTime()) + WINDOW_MS;
    return { kind: 'wait', minutes: Math.max(1, Math.ceil((freeAt - now.getTime()) / 60_000)) };
  }
  // Looked up whatever was typed, so that a name no user could have takes the same path.
  const found = await db.query<{ id: number; username: string; password_hash: string | null }>(
    'SELECT id, username, password_hash FROM users WHERE lower(username) = $1',
    [key],
  );
  const user = found.rows[0];
  if (!(await passwordMatches(user?.password_hash ?? null, password)) || !user) return { kind: 'refused' };
  // Only wrong passwords count against the username.
  await forget();
  return { kind: 'signed-in', userId: user.id, username: user.username };
}
