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

/** The token row the lookup selects. */
interface TokenRow {
  caller_user_id: number;
  caller_username: string;
  caller_secret_hash: string;
}

/** The token whose id is `$1`, unless revoked, with its owner: the one lookup every request makes. */
const CALLER = `caller AS (SELECT t.user_id, u.username, t.secret_hash FROM tokens t JOIN users u ON u.id = t.user_id
  WHERE t.id = $1 AND t.revoked_at IS NULL)`;
const CALLER_COLUMNS =
  'caller.user_id AS caller_user_id, caller.username AS caller_username, caller.secret_hash AS caller_secret_hash';

/** The owner when `row` holds the token and its secret's hash matches. */
function ownerOf(row: TokenRow | undefined, parts: { id: string; secret: string }): TokenOwner | null {
  return secretMatches(row?.caller_secret_hash, parts.secret) && row
    ? { userId: row.caller_user_id, username: row.caller_username, tokenId: parts.id }
    : null;
}

/** The owner of a valid, unrevoked token, or null. */
export async function authenticate(db: Queryable, token: string): Promise<TokenOwner | null> {
  const parts = splitToken(token);
  if (!parts) return null;
  const result = await db.query<TokenRow>(`WITH ${CALLER} SELECT ${CALLER_COLUMNS} FROM caller`, [parts.id]);
  return ownerOf(result.rows[0], parts);
}

/**
 * The token's owner and the rows of `select`, run in the same statement as the token lookup, so a
 * request costs one round trip to the database: `select` names the owner's user id
 * `caller.user_id` and its parameters start at `$2`; `orderBy` orders its rows (`q.column`).
 * Null when the token is not valid: the rows are then dropped unread. A revoked token stops
 * working at once, as every request reads its row.
 */
export async function authenticatedQuery<Row>(
  db: Queryable,
  token: string,
  select: string,
  params: readonly unknown[] = [],
  orderBy?: string,
): Promise<{ owner: TokenOwner; rows: Row[] } | null> {
  const parts = splitToken(token);
  if (!parts) return null;
  const result = await db.query<TokenRow & { caller_found: boolean | null }>(
    `WITH ${CALLER}
     SELECT ${CALLER_COLUMNS}, q.*
     FROM caller LEFT JOIN LATERAL (SELECT true AS caller_found, s.* FROM (${select}) s) q ON true
     ${orderBy ? `ORDER BY ${orderBy}` : ''}`,
    [parts.id, ...params],
  );
  const owner = ownerOf(result.rows[0], parts);
  if (!owner) return null;
  // The LEFT JOIN gives the token's row alone, with nulls, when `select` found nothing.
  const rows = result.rows.filter((row) => row.caller_found === true);
  return { owner, rows: rows as unknown as Row[] };
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
