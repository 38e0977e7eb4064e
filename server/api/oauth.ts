/**
 * OAuth's token and revocation endpoints. They take form bodies and answer errors in OAuth's
 * own format (`{ "error": "invalid_grant" }`, RFC 6749 §5.2), as OAuth clients expect, rather
 * than problem details. The token is an ordinary user token.
 */
import type { Context } from 'hono';
import { OAUTH_CLIENT_ID, type OAuthError, type OAuthToken } from '../../lib/api/oauth-contract';
import { redeemCode } from '../store/oauth-codes';
import { revokeToken } from '../store/tokens';
import type { ApiDeps } from './context';

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;

/** A token answer or error must never be cached (RFC 6749 §5.1). */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function oauthError(c: Context, status: 400 | 401, error: OAuthError['error'], description: string) {
  const body: OAuthError = { error, error_description: description };
  return c.json(body, status, NO_STORE);
}

/** The form body; a parameter given twice makes the request invalid (RFC 6749 §3.2). */
async function formBody(c: Context): Promise<{ get(name: string): string | undefined; repeated: string | null }> {
  const form = new URLSearchParams(await c.req.text());
  const names = [...form.keys()];
  const repeated = names.find((name, index) => names.indexOf(name) !== index) ?? null;
  return { get: (name) => form.get(name) ?? undefined, repeated };
}

export function oauthHandlers(deps: ApiDeps) {
  async function token(c: Context) {
    const form = await formBody(c);
    if (form.repeated) return oauthError(c, 400, 'invalid_request', `${form.repeated} is given more than once.`);
    const grantType = form.get('grant_type');
    if (!grantType) return oauthError(c, 400, 'invalid_request', 'grant_type is missing.');
    if (grantType !== 'authorization_code') {
      return oauthError(c, 400, 'unsupported_grant_type', 'Only grant_type=authorization_code is supported.');
    }
    const clientId = form.get('client_id');
    if (clientId !== OAUTH_CLIENT_ID) {
      return oauthError(c, 400, 'invalid_client', `client_id must be the one client this service knows.`);
    }
    const code = form.get('code');
    const redirectUri = form.get('redirect_uri');
    const codeVerifier = form.get('code_verifier');
    const missing = (['code', 'redirect_uri', 'code_verifier'] as const).filter((name) => !form.get(name));
    if (!code || !redirectUri || !codeVerifier) {
      return oauthError(c, 400, 'invalid_request', `Missing: ${missing.join(', ')}.`);
    }
    if (!CODE_VERIFIER_PATTERN.test(codeVerifier)) {
      return oauthError(c, 400, 'invalid_request', 'code_verifier must be 43 to 128 of A-Z a-z 0-9 - . _ ~.');
    }
    const issued = await redeemCode(deps.db, { code, clientId, redirectUri, codeVerifier }, new Date(deps.now()));
    if (!issued) {
      return oauthError(
        c,
        400,
        'invalid_grant',
        'The code is unknown, expired or already used, or the redirect URI or code verifier does not match.',
      );
    }
    const body: OAuthToken = {
      access_token: issued.token,
      token_type: 'Bearer',
      scope: issued.scope,
      created_at: Math.floor(deps.now() / 1000),
    };
    return c.json(body, 200, NO_STORE);
  }

  /** RFC 7009: 200 whether or not the token was valid, so the answer tells nothing about it. */
  async function revoke(c: Context) {
    const form = await formBody(c);
    const given = form.get('token');
    if (form.repeated || !given) {
      return oauthError(c, 400, 'invalid_request', 'Send the token to revoke once, as token=….');
    }
    await revokeToken(deps.db, given);
    return c.body(null, 200, NO_STORE);
  }

  return { token, revoke };
}
