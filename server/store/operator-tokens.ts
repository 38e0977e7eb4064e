/**
 * Operator tokens: what other parts of a deployment use to put notifications in and take users'
 * tokens out. Kept apart from users' tokens, hashed the same way, and marked by their prefix so a
 * token found in a log says what it is.
 */
import type { Queryable } from '../db/database';
import { newSecretToken, secretMatches, splitToken } from './tokens';

export const OPERATOR_TOKEN_PREFIX = 'op_';

export async function issueOperatorToken(db: Queryable): Promise<string> {
  const { id, token, hash } = newSecretToken(OPERATOR_TOKEN_PREFIX);
  await db.query('INSERT INTO operator_tokens (id, secret_hash) VALUES ($1, $2)', [id, hash]);
  return token;
}

/** Whether the text is an operator token at all, before any lookup. */
export const looksLikeOperatorToken = (token: string) => splitToken(token, OPERATOR_TOKEN_PREFIX) !== null;

/** True for a valid, unrevoked operator token. */
export async function authenticateOperator(db: Queryable, token: string): Promise<boolean> {
  const parts = splitToken(token, OPERATOR_TOKEN_PREFIX);
  if (!parts) return false;
  const result = await db.query<{ secret_hash: string }>(
    'SELECT secret_hash FROM operator_tokens WHERE id = $1 AND revoked_at IS NULL',
    [parts.id],
  );
  return secretMatches(result.rows[0]?.secret_hash, parts.secret);
}
