/**
 * API tokens: `<id>.<secret>`, 72 random bits of id and 192 of secret. The service stores the id
 * and a SHA-256 of the secret, finds a token by its id and compares the secret's hash in constant
 * time, so neither the database nor the timing of an answer gives a token away.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { batched } from '../db/batch';
import type { Queryable, QueryOptions } from '../db/database';

export interface TokenOwner {
  userId: number;
  username: string;
  /** The id part of the token the caller used: what a live channel is bound to. */
  tokenId: string;
}

const TOKEN_PATTERN = /^([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{32})$/;

export const hashSecret = (secret: string) => hash('sha256', secret, 'buffer');

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

/** The token whose id is `$1`, unless revoked, with its owner. */
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
 * The token's owner and the one row of `select`, read in one statement of the request's own (not
 * batched); null when the token is not valid or `select` gives no row. `select` names the owner's
 * user id `caller.user_id` and its parameters `$2` on, which are `params`; `options` say how the
 * database runs it.
 */
export async function authenticatedStatement<Row>(
  db: Queryable,
  token: string,
  select: string,
  params: readonly unknown[],
  options: QueryOptions = {},
): Promise<{ owner: TokenOwner; row: Row } | null> {
  const parts = splitToken(token);
  if (!parts) return null;
  const result = await db.query<TokenRow & Row>(
    `WITH ${CALLER} SELECT ${CALLER_COLUMNS}, q.* FROM caller, LATERAL (${select}) q`,
    [parts.id, ...params],
    options,
  );
  const row = result.rows[0];
  const owner = ownerOf(row, parts);
  return owner && row ? { owner, row } : null;
}

/**
 * Up to this many statements of one kind in flight at once, each for every request that waited:
 * fewer than the pool's connections, so other statements still find one.
 */
const BATCHES_IN_FLIGHT = 4;

/** How `authenticatedBatch` reads and sends the rows of its `select`. */
export interface BatchOptions {
  /** Orders its rows (`q.column`). */
  orderBy?: string;
  /** The select gives exactly one row, always: a request with none is taken for an invalid token. */
  oneRow?: boolean;
  /**
   * Statements of this select in flight at once (`BATCHES_IN_FLIGHT` when not given). One for a
   * select the database answers in far less time than the service takes to send it: the requests
   * that wait meanwhile then go in one statement, not in several small ones, each a write, a
   * wake-up of a database process and an answer to parse.
   */
  inFlight?: number;
}
/** Requests in one statement at most: far above what waits under any load, far below a statement too large. */
const BATCH_SIZE = 500;

const batchers = new WeakMap<Queryable, Map<string, (request: BatchRequest) => Promise<unknown>>>();

/**
 * The token's owner and the rows of `select`, read in the same statement as the token, so a
 * request costs one round trip to the database; null when the token is not valid (the rows are
 * then dropped unread). `select` names the owner's user id `caller.user_id` and its parameters
 * are `params`, read from the JSON array `caller.params`; `options` says how its rows come.
 *
 * The requests that wait at the same moment for the same `select` go in one statement (see
 * `batched`): under load one round trip serves many. Each request still reads its token's row
 * after it arrived, so a revoked token stops working at once on every instance.
 */
export function authenticatedBatch<Row>(
  db: Queryable,
  token: string,
  select: string,
  params: readonly unknown[],
  { orderBy, oneRow = false, inFlight = BATCHES_IN_FLIGHT }: BatchOptions = {},
): Promise<{ owner: TokenOwner; rows: Row[] } | null> {
  const parts = splitToken(token);
  if (!parts) return Promise.resolve(null);
  let kinds = batchers.get(db);
  if (!kinds) {
    kinds = new Map();
    batchers.set(db, kinds);
  }
  // Most statements have no order of their own: their text alone is the key, with nothing built per request.
  const key = orderBy === undefined ? select : `${select}\n${orderBy}`;
  let lookUp = kinds.get(key);
  if (!lookUp) {
    lookUp = batched((requests: BatchRequest[]) => runBatch(db, requests, select, orderBy, oneRow), {
      maxInFlight: inFlight,
      maxSize: BATCH_SIZE,
    });
    kinds.set(key, lookUp);
  }
  return lookUp({ parts, params }) as Promise<{ owner: TokenOwner; rows: Row[] } | null>;
}

interface BatchRequest {
  parts: { id: string; secret: string };
  params: readonly unknown[];
}

async function runBatch(
  db: Queryable,
  requests: readonly BatchRequest[],
  select: string,
  orderBy: string | undefined,
  oneRow: boolean,
): Promise<({ owner: TokenOwner; rows: unknown[] } | null)[]> {
  // Each request's rows come as one JSON array: the driver then parses one value a request
  // instead of every column of every row, and the token's columns are not repeated on each row.
  // A select of exactly one row has its columns beside the token's instead, as they are: the
  // database then neither wraps them in JSON (escaping a page's JSON again) nor the service parses it.
  const rows = oneRow
    ? `q.* FROM caller CROSS JOIN LATERAL (${select}) q`
    : `(SELECT coalesce(json_agg(q${orderBy ? ` ORDER BY ${orderBy}` : ''}), '[]') FROM (${select}) q) AS caller_rows
     FROM caller`;
  const result = await db.query<TokenRow & { caller_request: number; caller_rows: unknown[] }>(
    `WITH caller AS (
       SELECT r.request, t.user_id, u.username, t.secret_hash, $2::jsonb -> (r.request::int - 1) AS params
       FROM unnest($1::text[]) WITH ORDINALITY AS r(token_id, request)
       JOIN tokens t ON t.id = r.token_id AND t.revoked_at IS NULL JOIN users u ON u.id = t.user_id)
     SELECT caller.request::int AS caller_request, ${CALLER_COLUMNS}, ${rows}`,
    [requests.map((request) => request.parts.id), JSON.stringify(requests.map((request) => request.params))],
  );
  const found = new Map<number, (typeof result.rows)[number]>();
  for (const row of result.rows) found.set(row.caller_request, row);
  return requests.map(({ parts }, i) => {
    const row = found.get(i + 1);
    const owner = ownerOf(row, parts);
    return owner && row ? { owner, rows: oneRow ? [row] : row.caller_rows } : null;
  });
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
