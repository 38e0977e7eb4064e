/**
 * OAuth authorization codes: random, kept hashed, bound to the client, redirect URI, PKCE
 * challenge and user they were issued for, valid for `LIMITS.oauthCodeSeconds` and once. Taking
 * one is a single UPDATE that only one caller can win, on any instance; a second use of a code
 * that already got a token revokes that token (RFC 6749 §4.1.2), since the code has leaked.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { LIMITS } from '../../lib/api/contract';
import type { Database } from '../db/database';
import { issueToken, splitToken } from './tokens';

export interface CodeGrant {
  userId: number;
  clientId: string;
  redirectUri: string;
  /** BASE64URL(SHA-256(code_verifier)), as the client sent it. */
  codeChallenge: string;
  scope: string;
}

export interface CodeRedemption {
  code: string;
  clientId: string;
  redirectUri: string;
  codeVerifier: string;
}

const CODE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** A used code is kept this long after it expired, so that its reuse is recognised. */
const KEEP_USED_MS = 60 * 60_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest();
const hashCode = (code: string) => sha256(code).toString('hex');

/** The S256 challenge of a verifier (RFC 7636 §4.2). */
export const s256 = (verifier: string) => sha256(verifier).toString('base64url');

export async function issueCode(db: Database, grant: CodeGrant, now: Date): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + LIMITS.oauthCodeSeconds * 1000);
  await db.query(
    `WITH gone AS (DELETE FROM oauth_codes WHERE expires_at < $8)
     INSERT INTO oauth_codes (code_hash, user_id, client_id, redirect_uri, code_challenge, scope, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      hashCode(code),
      grant.userId,
      grant.clientId,
      grant.redirectUri,
      grant.codeChallenge,
      grant.scope,
      expiresAt.toISOString(),
      new Date(now.getTime() - KEEP_USED_MS).toISOString(),
    ],
  );
  return code;
}

function verifierMatches(challenge: string, verifier: string): boolean {
  const given = Buffer.from(s256(verifier));
  const expected = Buffer.from(challenge);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A new token for the code's user, when the code is known, unused, unexpired and every binding
 * matches; null otherwise. The code is used up either way.
 */
export async function redeemCode(
  db: Database,
  redemption: CodeRedemption,
  now: Date,
): Promise<{ token: string; scope: string } | null> {
  if (!CODE_PATTERN.test(redemption.code)) return null;
  const codeHash = hashCode(redemption.code);
  return db.transaction(async (tx) => {
    const taken = await tx.query<{
      user_id: number;
      client_id: string;
      redirect_uri: string;
      code_challenge: string;
      scope: string;
      expires_at: Date;
    }>(
      `UPDATE oauth_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL
       RETURNING user_id, client_id, redirect_uri, code_challenge, scope, expires_at`,
      [codeHash, now.toISOString()],
    );
    const grant = taken.rows[0];
    if (!grant) {
      await tx.query(
        `UPDATE tokens SET revoked_at = now()
         WHERE id = (SELECT token_id FROM oauth_codes WHERE code_hash = $1) AND revoked_at IS NULL`,
        [codeHash],
      );
      return null;
    }
    const valid =
      new Date(grant.expires_at).getTime() > now.getTime() &&
      grant.client_id === redemption.clientId &&
      grant.redirect_uri === redemption.redirectUri &&
      verifierMatches(grant.code_challenge, redemption.codeVerifier);
    if (!valid) return null;
    const token = await issueToken(tx, grant.user_id);
    await tx.query('UPDATE oauth_codes SET token_id = $2 WHERE code_hash = $1', [codeHash, splitToken(token)?.id]);
    return { token, scope: grant.scope };
  });
}
