/**
 * "Add account" with the service's own sign-in page: the discovery document names the service's
 * addresses, `identity.launchWebAuthFlow` shows its authorize page, and the code comes back to
 * the extension's redirect address, checked against the `state` sent and exchanged with the PKCE
 * verifier only this page knows. Loaded only when the person adds an account.
 */
import { browser } from 'wxt/browser';
import { accountLabel, DEFAULT_ADDRESSES } from '../account-addresses';
import { ApiError } from '../api/errors';
import { discover, exchangeCode } from '../api/oauth';
import type { Discovery } from '../api/oauth-contract';
import { t } from '../i18n';
import { isPrivateAddress } from '../links';
import { ask } from '../messaging';
import { accountFailureText, missingPermissionText, requestAccountPermissions } from './account-actions';
import type { Notice } from './notice';

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const randomText = (bytes = 32) => base64url(crypto.getRandomValues(new Uint8Array(bytes)));

/** A PKCE verifier (43 characters of 32 random bytes) and its S256 challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = randomText();
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

/** The address a person typed, made a web address: `example.social` means https. */
export function serviceAddress(typed: string): string | null {
  const text = typed.trim();
  if (!text) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** Asks for the typed service's origin, from the click. */
export const requestServicePermission = (origin: string) =>
  requestAccountPermissions({ apiBaseUrl: origin, siteOrigin: origin });

/**
 * Whether the browser can show the service's sign-in page to the extension: Firefox for Android
 * has no `identity` API at all.
 */
const canShowSignIn = () => typeof browser.identity?.launchWebAuthFlow === 'function';

/**
 * Reads the service's discovery document, once the person answered the permission prompt. Where
 * the browser cannot show its sign-in page, the addresses it names are given for a token instead.
 */
export async function findService(
  origin: string,
  granting: Promise<boolean>,
): Promise<{
  discovery: Discovery | null;
  notice: Notice | null;
  addresses?: { apiBaseUrl: string; siteOrigin: string };
}> {
  await granting.catch(() => false);
  const missing = await missingPermissionText({ apiBaseUrl: origin, siteOrigin: origin });
  if (missing) return { discovery: null, notice: { tone: 'error', lines: [missing] } };
  let discovery: Discovery;
  try {
    discovery = await discover(origin);
  } catch {
    return { discovery: null, notice: { tone: 'error', lines: [t('options_noSignInHere', origin)] } };
  }
  if (!signsInPrivately(discovery)) {
    return { discovery: null, notice: { tone: 'error', lines: [t('options_signInUnencrypted', origin)] } };
  }
  if (!canShowSignIn()) {
    const { apiBaseUrl, siteOrigin } = discovery;
    const notice: Notice = { tone: 'info', lines: [t('options_signInUnavailable', origin)] };
    return { discovery: null, notice, addresses: { apiBaseUrl, siteOrigin: siteOrigin.replace(/\/$/, '') } };
  }
  return { discovery, notice: null };
}

/**
 * Whether the password, the code and the token stay off the network unencrypted: every address
 * the service names is https, or plain http on this computer, as for addresses a person types.
 */
function signsInPrivately(discovery: Discovery): boolean {
  const { siteOrigin, apiBaseUrl, authorizationEndpoint, tokenEndpoint, revocationEndpoint } = discovery;
  return [siteOrigin, apiBaseUrl, authorizationEndpoint, tokenEndpoint, revocationEndpoint].every(isPrivateAddress);
}

/** A sign-in the person or the service ended without a token. */
export class SignInError extends Error {
  override name = 'SignInError';
}

/**
 * Runs the service's sign-in page and gives the token it grants. The `state` that comes back must
 * be the one sent, so an answer meant for another sign-in is never taken.
 */
export async function authorize(discovery: Discovery): Promise<string> {
  if (!signsInPrivately(discovery)) throw new SignInError(t('options_signInUnencrypted', discovery.siteOrigin));
  const { verifier, challenge } = await pkcePair();
  const state = randomText(16);
  const redirectUri = browser.identity.getRedirectURL();
  const url = new URL(discovery.authorizationEndpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: discovery.clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    scope: discovery.scopes.join(' '),
  }).toString();
  let returned: string | undefined;
  try {
    returned = await browser.identity.launchWebAuthFlow({ url: url.toString(), interactive: true });
  } catch {
    // The person closed the window, or the browser could not show it.
    throw new SignInError(t('options_signInCancelled'));
  }
  const answer = returned ? new URL(returned).searchParams : new URLSearchParams();
  if (answer.get('state') !== state) throw new SignInError(t('options_signInMismatch'));
  if (answer.get('error') === 'access_denied') throw new SignInError(t('options_signInDenied'));
  const code = answer.get('code');
  if (!code) throw new SignInError(t('options_signInMismatch'));
  return exchangeCode({
    tokenEndpoint: discovery.tokenEndpoint,
    clientId: discovery.clientId,
    code,
    redirectUri,
    codeVerifier: verifier,
  });
}

/**
 * Asks for the discovered service's origins, from the click: the API may live elsewhere than
 * the address the person typed.
 */
export const requestDiscoveredPermissions = (discovery: Discovery) => requestAccountPermissions(discovery);

/** Signs in with the service and adds the account; the page gets a notice either way. */
export async function addWithSignIn(discovery: Discovery, granting: Promise<boolean>): Promise<Notice> {
  await granting.catch(() => false);
  const missing = await missingPermissionText(discovery);
  if (missing) return { tone: 'error', lines: [missing] };
  try {
    const token = await authorize(discovery);
    const added = await ask('accounts.add', {
      apiBaseUrl: discovery.apiBaseUrl,
      siteOrigin: discovery.siteOrigin.replace(/\/$/, ''),
      profilePath: discovery.profilePath,
      profileAnchor: DEFAULT_ADDRESSES.profileAnchor,
      token,
    });
    return { tone: 'info', lines: [t('options_accountAdded', accountLabel(added))] };
  } catch (error) {
    if (error instanceof SignInError) return { tone: 'error', lines: [error.message] };
    if (error instanceof ApiError && error.code === 'invalid_grant') {
      return { tone: 'error', lines: [t('options_signInMismatch')] };
    }
    return { tone: 'error', lines: [accountFailureText(error, discovery.apiBaseUrl)] };
  }
}
