/**
 * Signing in without pasting a token (OAuth 2.1 authorization code with PKCE, see the contract):
 * the service's discovery document, the code exchange and the revocation. The token and revoke
 * endpoints take form bodies and answer in OAuth's own error format.
 */
import ky, { HTTPError } from 'ky';
import * as v from 'valibot';
import { ApiError, InvalidResponseError, NetworkError, TimeoutError } from './errors';
import { readLimited } from './http';
import { DISCOVERY_PATH, type Discovery, DiscoverySchema, OAuthErrorSchema, OAuthTokenSchema } from './oauth-contract';

const TIMEOUT_MS = 10_000;
/** No discovery document, token answer or OAuth error comes near this; a larger answer is refused unread. */
export const MAX_OAUTH_ANSWER_BYTES = 64 * 1024;

async function readJson(response: Response): Promise<unknown> {
  const text = await readLimited(response, MAX_OAUTH_ANSWER_BYTES);
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidResponseError(response.status, 'The answer is not JSON.');
  }
}

async function send(request: () => Promise<Response>): Promise<unknown> {
  let response: Response;
  try {
    response = await request();
  } catch (error) {
    if (error instanceof HTTPError) {
      const body: unknown = await readJson(error.response).catch(() => null);
      const oauth = v.safeParse(OAuthErrorSchema, body);
      throw new ApiError({
        status: error.response.status,
        code: oauth.success ? oauth.output.error : 'oauth_failed',
        detail: oauth.success ? (oauth.output.error_description ?? oauth.output.error) : error.message,
      });
    }
    if (error instanceof Error && error.name === 'TimeoutError') throw new TimeoutError();
    throw new NetworkError();
  }
  return readJson(response);
}

const parse = <T>(schema: v.GenericSchema<unknown, T>, body: unknown): T => {
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) throw new InvalidResponseError(200, 'The answer is not what this service gives.');
  return parsed.output;
};

/** The discovery document of the service at `address` (its site or any page of it). */
export async function discover(address: string, fetch?: typeof globalThis.fetch): Promise<Discovery> {
  const url = new URL(DISCOVERY_PATH, new URL(address).origin);
  return parse(DiscoverySchema, await send(() => ky.get(url, { fetch, timeout: TIMEOUT_MS, retry: 0 })));
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
    await send(() => ky.post(exchange.tokenEndpoint, { body, fetch: exchange.fetch, timeout: TIMEOUT_MS, retry: 0 })),
  );
  return answer.access_token;
}
