/**
 * What keeps the authorize form from being sent from anywhere but the page the service served:
 * a token signed with the service's key over the request the page shows (client, redirect URI,
 * challenge, state), a random value kept in a cookie of the site only, and an expiry. Another
 * site can neither read the cookie nor make a token that fits it; any instance can check it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AuthorizeRequest } from './client';

/** Time to read the page and type a password. */
const VALID_MS = 30 * 60_000;
const EXPIRY = /^[0-9]{13}$/;

export const newFormNonce = () => randomBytes(18).toString('base64url');
export const FORM_NONCE_PATTERN = /^[A-Za-z0-9_-]{24}$/;
export const FORM_TOKEN_SECONDS = VALID_MS / 1000;

export function createFormTokens(key: Buffer) {
  const sign = (expiry: string, nonce: string, request: AuthorizeRequest) =>
    createHmac('sha256', key)
      .update(
        JSON.stringify([
          'authorize',
          1,
          expiry,
          nonce,
          request.clientId,
          request.redirectUri,
          request.codeChallenge,
          request.state,
        ]),
      )
      .digest('base64url');

  function issue(request: AuthorizeRequest, nonce: string, now: number): string {
    const expiry = String(now + VALID_MS);
    return `${expiry}.${sign(expiry, nonce, request)}`;
  }

  /** Whether `token` was issued for this request and cookie value, and has not expired at `now`. */
  function check(token: string, request: AuthorizeRequest, nonce: string | undefined, now: number): boolean {
    const [expiry = '', signature = '', ...rest] = token.split('.');
    if (!nonce || !FORM_NONCE_PATTERN.test(nonce) || rest.length > 0 || !EXPIRY.test(expiry)) return false;
    const given = Buffer.from(signature);
    const expected = Buffer.from(sign(expiry, nonce, request));
    return given.length === expected.length && timingSafeEqual(given, expected) && Number(expiry) > now;
  }

  return { issue, check };
}

export type FormTokens = ReturnType<typeof createFormTokens>;
