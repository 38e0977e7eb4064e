/**
 * API tokens: `<id>.<secret>`, 72 random bits of id and 192 of secret. The service stores the id
 * and a SHA-256 of the secret, finds a token by its id and compares the secret's hash in constant
 * time, so neither the database nor the timing of an answer gives a token away.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/database';

export interface TokenOwner {
  userId: number;
  username: string;
}

const TOKEN_PATTERN = /^([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{32})$/;

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest();

export async function issueToken(db: Queryable, userId: number): Promise<string> {
  const id = randomBytes(9).toString('base64url');
  const secret = randomBytes(24).toString('base64url');
  await db.query('INSERT INTO tokens (id, user_id, secret_hash) VALUES ($1, $2, $3)', [
    id,
    userId,
    hashSecret(secret).toString('hex'),
  ]);
  return `${id}.${secret}`;
}

/** The owner of a valid, unrevoked token, or null. */
export async function authenticate(db: Queryable, token: string): Promise<TokenOwner | null> {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const [, id, secret] = match as unknown as [string, string, string];
  const result = await db.query<{ user_id: number; username: string; secret_hash: string }>(
    `SELECT t.user_id, u.username, t.secret_hash FROM tokens t JOIN users u ON u.id = t.user_id
     WHERE t.id = $1 AND t.revoked_at IS NULL`,
    [id],
  );
  const row = result.rows[0];
  const given = hashSecret(secret);
  const stored = row ? Buffer.from(row.secret_hash, 'hex') : Buffer.alloc(given.length);
  const equal = stored.length === given.length && timingSafeEqual(stored, given);
  return row && equal ? { userId: row.user_id, username: row.username } : null;
}

/** Revokes a token; false when it was unknown or already revoked. */
export async function revokeToken(db: Queryable, token: string): Promise<boolean> {
  const owner = await authenticate(db, token);
  if (!owner) return false;
  const id = token.slice(0, token.indexOf('.'));
  const result = await db.query('UPDATE tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [id]);
  return result.rowCount === 1;
}
