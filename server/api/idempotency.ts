/**
 * `Idempotency-Key` on the API's POST and DELETE routes: a request that repeats a key gets the
 * first answer again and nothing is done twice. The handler runs in the transaction that keeps
 * the key and its answer, so a key exists exactly when its action committed. Without the header
 * a request goes straight on, as before.
 */
import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { inTransaction } from '../db/scoped';
import { claimKey, type KeptAnswer, keepAnswer } from '../store/idempotency-keys';
import { authenticateOperator, looksLikeOperatorToken, OPERATOR_TOKEN_PREFIX } from '../store/operator-tokens';
import { authenticate, splitToken } from '../store/tokens';
import type { ApiDeps } from './context';
import { ProblemError } from './problem';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Answers that depend on the request alone; any other (401, 403, 408, 409, 429, 5xx) is tried afresh. */
const KEPT_STATUSES = new Set([400, 404, 422]);
const KEPT_HEADERS = ['content-type', 'cache-control', 'location'];

/** Thrown inside the transaction to roll back an answer that is not kept. */
class NotKept extends Error {}

/** Whose keys these are: a user, or an operator token; null for a caller the handler will refuse. */
async function keyOwner(c: Context, deps: ApiDeps): Promise<string | null> {
  const token = /^Bearer +(\S+) *$/i.exec(c.req.header('authorization') ?? '')?.[1];
  if (!token) return null;
  if (looksLikeOperatorToken(token)) {
    const id = (await authenticateOperator(deps.db, token)) && splitToken(token, OPERATOR_TOKEN_PREFIX)?.id;
    return id ? `operator:${id}` : null;
  }
  const owner = await authenticate(deps.db, token);
  return owner ? `user:${owner.userId}` : null;
}

function replay(answer: KeptAnswer): Response {
  return new Response(answer.body === '' && answer.status === 204 ? null : answer.body, {
    status: answer.status,
    headers: { ...answer.headers, 'idempotent-replayed': 'true' },
  });
}

export function idempotent(deps: ApiDeps): MiddlewareHandler {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined) return next();
    const owner = await keyOwner(c, deps);
    if (owner === null) return next();
    if (!KEY_PATTERN.test(key)) {
      throw new ProblemError(400, 'invalid_parameter', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
    }
    const url = new URL(c.req.url);
    const digest = createHash('sha256')
      .update(`${c.req.method} ${url.pathname}${url.search}\n`)
      .update(await c.req.text())
      .digest('base64url');
    try {
      return await deps.db.transaction(async (tx) => {
        // A second request with the key while the first runs is told so at once, not kept waiting.
        const free = await tx.query<{ free: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS free', [
          `${owner} ${key}`,
        ]);
        if (!free.rows[0]?.free) {
          throw new ProblemError(409, 'request_in_progress', 'A request with this Idempotency-Key is still running.', {
            'retry-after': '1',
          });
        }
        const kept = await claimKey(tx, owner, key, digest, new Date(deps.now()));
        if (kept) {
          if (kept.digest !== digest) {
            throw new ProblemError(
              422,
              'idempotency_key_reused',
              'This Idempotency-Key was used for a different request; send a new key with a new request.',
            );
          }
          return replay(kept);
        }
        await inTransaction(tx, next);
        const { status } = c.res;
        const keep = (status < 300 || KEPT_STATUSES.has(status)) && (!c.error || c.error instanceof ProblemError);
        if (!keep) throw new NotKept();
        const headers: Record<string, string> = {};
        for (const name of KEPT_HEADERS) {
          const value = c.res.headers.get(name);
          if (value !== null) headers[name] = value;
        }
        await keepAnswer(tx, owner, key, { status, headers, body: await c.res.clone().text() });
        return c.res;
      });
    } catch (error) {
      if (!(error instanceof NotKept)) throw error;
      return c.res;
    }
  };
}
