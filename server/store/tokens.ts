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
  /** The id part of the token the caller used: what a live channel is bound to. */
  tokenId: string;
}

const TOKEN_PATTERN = /^([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{32})$/;

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest();

/** A new token's id, secret and the hash to store; the token itself is `${prefix}${id}.${secret}`. */
export function newSecretToken(prefix = ''): { id: string; token: string; hash: string } {
  const id = randomBytes(9).toString('base64url');
  const secret = randomBytes(24).toString('base64url');
  return { id, token: `${prefix}${id}.${secret}`, hash: hashSecret(secret).toString('hex') };
}

/** Splits `<id>.<secret>` after `prefix`; null when the text is not shaped like a token. */
export function splitToken(token: string, prefix = ''): { id: string; secret: string } | null {
  if (!token.startsWith(prefix)) return null;
  const match = TOKEN_PATTERN.exec(token.slice(prefix.length));
  return match ? { id: match[1] as string, secret: match[2] as string } : null;
}

/** Whether `secret` hashes to `storedHex`, in constant time; a missing row costs the same. */
export function secretMatches(storedHex: string | undefined, secret: string): boolean {
  const given = hashSecret(secret);
  const stored = storedHex ? Buffer.from(storedHex, 'hex') : Buffer.alloc(given.length);
  return stored.length === given.length && timingSafeEqual(stored, given) && storedHex !== undefined;
}

export async function issueToken(db: Queryable, userId: number): Promise<string> {
  const { id, token, hash } = newSecretToken();
  await db.query('INSERT INTO tokens (id, user_id, secret_hash) VALUES ($1, $2, $3)', [id, userId, hash]);
  return token;
}

/** The owner of a valid, unrevoked token, or null. */
export async function authenticate(db: Queryable, token: string): Promise<TokenOwner | null> {
  const parts = splitToken(token);
  if (!parts) return null;
  const result = await db.query<{ user_id: number; username: string; secret_hash: string }>(
    `SELECT t.user_id, u.username, t.secret_hash FROM tokens t JOIN users u ON u.id = t.user_id
     WHERE t.id = $1 AND t.revoked_at IS NULL`,
    [parts.id],
  );
  const row = result.rows[0];
  return secretMatches(row?.secret_hash, parts.secret) && row
    ? { userId: row.user_id, username: row.username, tokenId: parts.id }
    : null;
}

/** Revokes a token; false when it was unknown or already revoked. Live channels opened with it close. */
export async function revokeToken(db: Queryable, token: string): Promise<boolean> {
  const owner = await authenticate(db, token);
  if (!owner) return false;
  const result = await db.query('UPDATE tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [
    owner.tokenId,
  ]);
  return result.rowCount === 1;
}
