/**
 * The one OAuth client the service knows, and what an authorization request of it must carry:
 * the client id, a redirect URI of an extension (or of a native client on this computer), and a
 * PKCE S256 challenge. A request that fails those shows an error page and redirects nowhere; a
 * valid one that asks for something else (another response type, an unknown scope) goes back
 * to the client with an OAuth error (RFC 6749 §4.1.2.1).
 */
import { OAUTH_CLIENT_ID, OAUTH_SCOPES } from '../../lib/api/oauth-contract';

export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  /** Given back unchanged with the answer; null when the client sent none. */
  state: string | null;
}

export type AuthorizeCheck =
  | { kind: 'valid'; request: AuthorizeRequest }
  /** Nowhere safe to send the person back to: show `message`. */
  | { kind: 'refused'; message: string }
  /** Tell the client, at its redirect URI. */
  | { kind: 'redirect'; to: string };

/** Every token can do everything a user token can: the scope a client gets is always all of them. */
export const GRANTED_SCOPE = OAUTH_SCOPES.join(' ');
const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const STATE_MAX_LENGTH = 1024;
const REDIRECT_URI_MAX_LENGTH = 2000;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** `https://<one label>.<suffix>/…`, exactly: parsed, so that lookalikes such as `evil.com/.chromiumapp.org` fail. */
function isExtensionRedirect(url: URL, suffix: string): boolean {
  if (url.protocol !== 'https:' || url.port !== '') return false;
  const host = url.hostname;
  if (!host.endsWith(`.${suffix}`)) return false;
  return LABEL.test(host.slice(0, -suffix.length - 1));
}

/**
 * The redirect URIs `identity.getRedirectURL()` gives an extension in Chrome
 * (`https://<id>.chromiumapp.org/…`) and Firefox (`https://<id>.extensions.allizom.org/…`), and a
 * loopback address for native clients (`http://127.0.0.1:<port>/…`, RFC 8252 §7.3). No user
 * info, no fragment.
 */
export function isAllowedRedirectUri(text: string): boolean {
  if (text.length > REDIRECT_URI_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(text) || !URL.canParse(text)) return false;
  const url = new URL(text);
  if (url.username !== '' || url.password !== '' || url.hash !== '' || text.includes('#')) return false;
  if (url.protocol === 'http:') return url.hostname === '127.0.0.1';
  return isExtensionRedirect(url, 'chromiumapp.org') || isExtensionRedirect(url, 'extensions.allizom.org');
}

/** `redirectUri` with OAuth's answer added to its query. */
export function redirectWith(redirectUri: string, answer: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(answer)) if (value !== null) url.searchParams.append(name, value);
  return url.href;
}

/** Reads an authorization request's parameters, each of which may be given at most once. */
export function checkAuthorizeRequest(all: (name: string) => readonly string[]): AuthorizeCheck {
  const one = (name: string): string | null | undefined => {
    const values = all(name);
    return values.length === 0 ? null : values.length === 1 ? values[0] : undefined;
  };
  const clientId = one('client_id');
  if (clientId !== OAUTH_CLIENT_ID) {
    return { kind: 'refused', message: 'The app that sent you here is not one this service knows.' };
  }
  const redirectUri = one('redirect_uri');
  if (!redirectUri || !isAllowedRedirectUri(redirectUri)) {
    return { kind: 'refused', message: 'The app asked to send you back to an address this service does not allow.' };
  }
  const method = one('code_challenge_method');
  const codeChallenge = one('code_challenge');
  if (method !== 'S256' || !codeChallenge || !CHALLENGE_PATTERN.test(codeChallenge)) {
    return {
      kind: 'refused',
      message: 'The app’s request is missing its proof key (PKCE with S256), so it cannot be signed in safely.',
    };
  }
  const state = one('state');
  if (state === undefined || (state !== null && state.length > STATE_MAX_LENGTH)) {
    return { kind: 'refused', message: 'The app’s request carries a state this service cannot send back.' };
  }
  const back = (error: string) => ({ kind: 'redirect', to: redirectWith(redirectUri, { error, state }) }) as const;
  const responseType = one('response_type');
  if (responseType === undefined) return back('invalid_request');
  if (responseType !== 'code') return back('unsupported_response_type');
  const scope = one('scope');
  if (scope === undefined) return back('invalid_request');
  const scopes = (scope ?? '').split(' ').filter(Boolean);
  if (!scopes.every((name) => (OAUTH_SCOPES as readonly string[]).includes(name))) return back('invalid_scope');
  return { kind: 'valid', request: { clientId, redirectUri, codeChallenge, state } };
}
