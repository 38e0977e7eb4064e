/**
 * Signing in without pasting a token (OAuth 2.1 authorization code with PKCE, see the contract):
 * the service's discovery document, the code exchange and the revocation. The token and revoke
 * endpoints take form bodies and answer in OAuth's own error format.
 */
import * as v from 'valibot';
import { ApiError, InvalidResponseError, TimeoutError } from './errors';
import { type SendOptions, send as sendRequest } from './fetch-transport';
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

/** One try, its answer read within the time limit; an answer other than 2xx is refused in OAuth's error format. */
async function send(url: string, options: Omit<SendOptions, 'deadline'>): Promise<unknown> {
  const deadline = AbortSignal.timeout(TIMEOUT_MS);
  const response = await sendRequest(url, { ...options, deadline });
  if (!response.ok) {
    const body: unknown = await readJson(response).catch(() => null);
    const oauth = v.safeParse(OAuthErrorSchema, body);
    throw new ApiError({
      status: response.status,
      code: oauth.success ? oauth.output.error : 'oauth_failed',
      detail: oauth.success
        ? (oauth.output.error_description ?? oauth.output.error)
        : `The service answered ${response.status}.`,
    });
  }
  return readJson(response).catch((error: unknown) => {
    throw deadline.aborted ? new TimeoutError(undefined, { cause: error }) : error;
  });
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
