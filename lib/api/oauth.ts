/**
 * Signing in without pasting a token (OAuth 2.1 authorization code with PKCE, see the contract):
 * the service's discovery document, the code exchange and the revocation. The token and revoke
 * endpoints take form bodies and answer in OAuth's own error format.
 */
import * as v from 'valibot';
import { ApiError, InvalidResponseError } from './errors';
import { sendOnce } from './http';
import { DISCOVERY_PATH, type Discovery, DiscoverySchema, OAuthErrorSchema, OAuthTokenSchema } from './oauth-contract';

/** No discovery document, token answer or OAuth error comes near this; a larger answer is refused unread. */
export const MAX_OAUTH_ANSWER_BYTES = 64 * 1024;

/** One try, its answer read within the time and size limits; an answer other than 2xx is refused in OAuth's error format. */
async function send(url: string, init: Parameters<typeof sendOnce>[1]): Promise<unknown> {
  const response = await sendOnce(url, init, MAX_OAUTH_ANSWER_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const oauth = v.safeParse(OAuthErrorSchema, body);
    throw new ApiError({
      status: response.status,
      code: oauth.success ? oauth.output.error : 'oauth_failed',
      detail: oauth.success
        ? (oauth.output.error_description ?? oauth.output.error)
        : `The service answered ${response.status}.`,
    });
  }
  if (body === undefined) throw new InvalidResponseError(response.status, 'The answer is not JSON.');
  return body;
}

const parse = <T>(schema: v.GenericSchema<unknown, T>, body: unknown): T => {
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) throw new InvalidResponseError(200, 'The answer is not what this service gives.');
  return parsed.output;
};

/** The discovery document of the service at `address` (its site or any page of it). */
export async function discover(address: string, fetch?: typeof globalThis.fetch): Promise<Discovery> {
  const url = new URL(DISCOVERY_PATH, new URL(address).origin);
  return parse(DiscoverySchema, await send(url.href, { fetch }));
}

export interface CodeExchange {
  tokenEndpoint: string;
  clientId: string;
  code: string;
  redirectUri: string;
  codeVerifier: string;
  fetch?: typeof globalThis.fetch;
}

/** Exchanges an authorization code for a token; an OAuth refusal is an ApiError with its `error` as code. */
export async function exchangeCode(exchange: CodeExchange): Promise<string> {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: exchange.code,
    redirect_uri: exchange.redirectUri,
    client_id: exchange.clientId,
    code_verifier: exchange.codeVerifier,
  });
  const answer = parse(
    OAuthTokenSchema,
    await send(exchange.tokenEndpoint, { method: 'POST', body, fetch: exchange.fetch }),
  );
  return answer.access_token;
}
