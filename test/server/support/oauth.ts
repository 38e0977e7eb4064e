/**
 * The OAuth sign-in as a browser and an app go through it, without a browser: the app makes a
 * PKCE pair and a state, the "browser" opens the authorize page, keeps its cookie, and sends the
 * form back from the site's origin; the app exchanges the code.
 *
 * ```ts
 * const pkce = newPkce();
 * const page = await openAuthorize(service, authorizeParams(pkce));
 * const answer = await submitAuthorize(service, page, { username: 'demo', password: 'demo' });
 * const code = new URL(answer.headers.get('location')!).searchParams.get('code');
 * const token = await exchangeCode(service, { code, codeVerifier: pkce.verifier });
 * ```
 */
import { createHash, randomBytes } from 'node:crypto';
import { OAUTH_CLIENT_ID } from '../../../lib/api/oauth-contract';
import type { TestService } from '../../support/service';

/** Where the service is: a test service, or one started another way. */
type Service = Pick<TestService, 'origin' | 'apiBaseUrl'>;

export const CHROME_REDIRECT = 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/';

export interface Pkce {
  verifier: string;
  challenge: string;
  state: string;
}

export function newPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return {
    verifier,
    challenge: createHash('sha256').update(verifier).digest('base64url'),
    state: randomBytes(16).toString('base64url'),
  };
}

/** The query of a valid authorization request with this PKCE pair; `overrides` change or (null) drop parameters. */
export function authorizeParams(pkce: Pkce, overrides: Record<string, string | null> = {}): URLSearchParams {
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: OAUTH_CLIENT_ID,
    redirect_uri: CHROME_REDIRECT,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state: pkce.state,
    scope: 'inbox profile',
    ...overrides,
  };
  return new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== null));
}

export interface AuthorizePage {
  response: Response;
  html: string;
  /** The cookie the page set, as a browser would send it back. */
  cookie: string;
  /** The form's fields as the page filled them in (hidden ones included). */
  fields: URLSearchParams;
}

/** The fields of the first form of `html`, as a browser would send them before anyone types. */
export function formFields(html: string): URLSearchParams {
  const fields = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.append(name as string, decodeEntities(value as string));
  }
  return fields;
}

const decodeEntities = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export async function openAuthorize(service: Service, params: URLSearchParams, cookie = ''): Promise<AuthorizePage> {
  const response = await fetch(`${service.origin}/oauth/authorize?${params}`, {
    headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) },
    redirect: 'manual',
  });
  const html = await response.text();
  const set = response.headers.get('set-cookie');
  return { response, html, cookie: set ? (set.split(';')[0] as string) : cookie, fields: formFields(html) };
}

/** Sends the page's form back as a browser on the site would, with what the person typed and chose. */
export function submitAuthorize(
  service: Service,
  page: Pick<AuthorizePage, 'cookie' | 'fields'>,
  typed: { username?: string; password?: string; decision?: 'allow' | 'deny' },
  headers: Record<string, string> = {},
): Promise<Response> {
  const body = new URLSearchParams(page.fields);
  body.set('username', typed.username ?? '');
  body.set('password', typed.password ?? '');
  body.set('decision', typed.decision ?? 'allow');
  return fetch(`${service.origin}/oauth/authorize`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: service.origin,
      'sec-fetch-site': 'same-origin',
      ...(page.cookie ? { cookie: page.cookie } : {}),
      ...headers,
    },
    body,
    redirect: 'manual',
  });
}

/** POSTs a form body to an API path of the service. */
export function postForm(service: Service, path: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${service.apiBaseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
}

/** `POST /oauth/token` for a code; `overrides` change the fields sent. */
export function exchangeCode(
  service: Service,
  { code, codeVerifier, redirectUri = CHROME_REDIRECT }: { code: string; codeVerifier: string; redirectUri?: string },
  overrides: Record<string, string> = {},
): Promise<Response> {
  return postForm(service, '/oauth/token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    client_id: OAUTH_CLIENT_ID,
    code_verifier: codeVerifier,
    ...overrides,
  });
}

/** The whole sign-in as `username`: the code, and the PKCE pair it was issued for. */
export async function authorizationCode(
  service: Service,
  credentials: { username: string; password: string },
  overrides: Record<string, string | null> = {},
): Promise<{ code: string; pkce: Pkce; location: URL }> {
  const pkce = newPkce();
  const page = await openAuthorize(service, authorizeParams(pkce, overrides));
  if (page.response.status !== 200) throw new Error(`The authorize page answered ${page.response.status}`);
  const answer = await submitAuthorize(service, page, credentials);
  const location = answer.headers.get('location');
  if (answer.status !== 303 || !location) throw new Error(`The form answered ${answer.status}`);
  const url = new URL(location);
  const code = url.searchParams.get('code');
  if (!code) throw new Error(`No code in ${location}`);
  return { code, pkce, location: url };
}
