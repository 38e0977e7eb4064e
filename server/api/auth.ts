import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Queryable } from '../db/database';
import { authenticateOperator, looksLikeOperatorToken } from '../store/operator-tokens';
import { authenticate, type TokenOwner } from '../store/tokens';
import { ProblemError } from './problem';

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]{1,512}=*) *$/i;

function unauthenticated(detail: string, tokenGiven: boolean): ProblemError {
  const challenge = tokenGiven ? 'Bearer realm="inbox", error="invalid_token"' : 'Bearer realm="inbox"';
  return new ProblemError(401, 'unauthenticated', detail, { 'www-authenticate': challenge });
}

/** The 401 problem for a token that is well-formed but unknown or revoked. */
export const invalidToken = () => unauthenticated('The token is unknown or has been revoked.', true);

/** The token of the Authorization header: null when there is none; a 401 problem when it is not a Bearer token. */
function headerToken(c: Context): string | null {
  const header = c.req.header('authorization');
  if (header === undefined) return null;
  const match = BEARER.exec(header);
  if (!match?.[1]) throw unauthenticated('The Authorization header must be "Bearer <token>".', true);
  return match[1];
}

/** The Bearer token a signed-in endpoint needs, before it is looked up; a 401 problem when there is none. */
export function bearerToken(c: Context): string {
  const token = headerToken(c);
  if (token === null) throw unauthenticated('Send "Authorization: Bearer <token>" to use this endpoint.', false);
  return token;
}

/**
 * The caller named by the Authorization header: null when there is none; a 401 problem when
 * one is given but is not a valid Bearer token, so a client learns its token stopped working
 * even where signing in is optional.
 */
export async function caller(c: Context, db: Queryable): Promise<TokenOwner | null> {
  const token = headerToken(c);
  if (token === null) return null;
  const owner = await authenticate(db, token);
  if (!owner) throw invalidToken();
  return owner;
}

export async function requireCaller(c: Context, db: Queryable): Promise<TokenOwner> {
  const owner = await authenticate(db, bearerToken(c));
  if (!owner) throw invalidToken();
  return owner;
}

/** What a handler behind `signedIn` knows: who is calling. */
export type SignedInEnv = { Variables: { caller: TokenOwner } };
/** What a handler behind `maybeSignedIn` knows: who is calling, or null for nobody. */
export type MaybeSignedInEnv = { Variables: { caller: TokenOwner | null } };

/** Middleware that lets only a caller with a valid token through, and names them. */
export const signedIn = (db: Queryable) =>
  createMiddleware<SignedInEnv>(async (c, next) => {
    c.set('caller', await requireCaller(c, db));
    await next();
  });

/** Middleware that names the caller when a token is given, and refuses an invalid one. */
export const maybeSignedIn = (db: Queryable) =>
  createMiddleware<MaybeSignedInEnv>(async (c, next) => {
    c.set('caller', await caller(c, db));
    await next();
  });

/** Lets an operator token through; a user's token is 403, anything else 401. */
async function requireOperator(c: Context, db: Queryable): Promise<void> {
  const token = headerToken(c);
  if (token === null) {
    throw unauthenticated('Send "Authorization: Bearer <operator token>" to use this endpoint.', false);
  }
  if (looksLikeOperatorToken(token)) {
    if (await authenticateOperator(db, token)) return;
  } else if (await authenticate(db, token)) {
    throw new ProblemError(403, 'forbidden', "This is a user's token; the operator API takes operator tokens only.");
  }
  throw invalidToken();
}

/** Middleware that lets only an operator token through. */
export const operatorOnly = (db: Queryable) =>
  createMiddleware(async (c, next) => {
    await requireOperator(c, db);
    await next();
  });
