/**
 * The options page's account actions: the origins an account needs, adding one with a pasted
 * token, signing out and removing, each answered with a notice.
 */
import { browser } from 'wxt/browser';
import { accountLabel } from '../account-addresses';
import type { Account } from '../accounts';
import { ApiError } from '../api/errors';
import { FAILURES, failureCode, failureKind } from '../failure';
import { t } from '../i18n';
import { ask, type NewAccountRequest } from '../messaging';
import { originPattern } from '../permissions';
import { forgetFirstScreen } from '../popup/first-screen-copy-key';
import type { Settings } from '../settings';
import { connectionProblemText } from './connection-test-notice';
import { actionFailureText, type Notice } from './notice';

/** The host permissions an account needs: its API's origin and its site's. */
export function requiredOrigins(settings: Pick<Settings, 'apiBaseUrl' | 'siteOrigin'>): string[] {
  return [...new Set([originPattern(settings.apiBaseUrl), originPattern(settings.siteOrigin)])];
}

/** Asks for the origins an account needs, from the click; false when refused or not web addresses. */
export function requestAccountPermissions(addresses: Pick<Settings, 'apiBaseUrl' | 'siteOrigin'>): Promise<boolean> {
  try {
    return browser.permissions.request({ origins: requiredOrigins(addresses) }).catch(() => false);
  } catch {
    return Promise.resolve(false);
  }
}

async function notGranted(origins: string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const origin of origins) {
    if (!(await browser.permissions.contains({ origins: [origin] }))) missing.push(origin);
  }
  return missing;
}

/** Words for origins the person did not grant, or none when all are granted. */
export async function missingPermissionText(addresses: Pick<Settings, 'apiBaseUrl' | 'siteOrigin'>) {
  const missing = await notGranted(requiredOrigins(addresses));
  return missing.length
    ? t('options_permissionDeclined', missing.map((pattern) => pattern.replace('/*', '')).join(', '))
    : null;
}

/** Adds an account with a pasted token, once the person answered the permission prompt. */
export async function addWithToken(
  request: NewAccountRequest,
  granting: Promise<boolean>,
): Promise<{ added: Account | null; notice: Notice }> {
  await granting.catch(() => false);
  const missing = await missingPermissionText(request);
  if (missing) return { added: null, notice: { tone: 'error', lines: [missing] } };
  try {
    const added = await ask('accounts.add', { ...request, token: request.token.trim() });
    return { added, notice: { tone: 'info', lines: [t('options_accountAdded', accountLabel(added))] } };
  } catch (error) {
    return { added: null, notice: { tone: 'error', lines: [accountFailureText(error, request.apiBaseUrl)] } };
  }
}

/** Why adding or signing in an account failed, in words a person can act on. */
export function accountFailureText(error: unknown, apiBaseUrl: string): string {
  if (error instanceof ApiError && error.code === 'account_exists') return t('options_accountExists', error.detail);
  if (error instanceof ApiError && error.code !== 'invalid_address') {
    return connectionProblemText(FAILURES[failureKind(error)].test, failureCode(error), apiBaseUrl);
  }
  return actionFailureText(error);
}

/** Signs an account out (its token revoked at the service); the page gets a notice either way. */
export async function signOut(account: Account): Promise<{ signedOut: boolean; notice: Notice }> {
  forgetFirstScreen();
  try {
    await ask('accounts.signOut', { account: account.id });
    return { signedOut: true, notice: { tone: 'info', lines: [t('options_signedOutAccount', accountLabel(account))] } };
  } catch (error) {
    return { signedOut: false, notice: { tone: 'error', lines: [actionFailureText(error)] } };
  }
}

/** Signs an account out and forgets it. */
export async function removeAccount(account: Account): Promise<Notice> {
  forgetFirstScreen();
  try {
    await ask('accounts.remove', { account: account.id });
    return { tone: 'info', lines: [t('options_accountRemoved', accountLabel(account))] };
  } catch (error) {
    return { tone: 'error', lines: [actionFailureText(error)] };
  }
}
