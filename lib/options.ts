/**
 * What the options page does without a DOM: the permissions a set of settings needs, saving
 * what the person changed, testing a connection, signing out, and the words for each outcome.
 * The page only renders the draft and the notice these return.
 */
import { browser } from 'wxt/browser';
import { accountLabel } from './account-addresses';
import type { Account } from './accounts';
import { ApiError } from './api/errors';
import { originPattern } from './background/permissions';
import { FAILURES, failureCode, failureKind } from './failure';
import { t, tn } from './i18n';
import { ask, type ConnectionProblem, type ConnectionTest, type NewAccountRequest } from './messaging';
import { type Settings, updateSettings } from './settings';

/** The form as typed: the interval is text until it is checked. */
export type Draft = Pick<
  Settings,
  'desktopNotifications' | 'unreadOnly' | 'groupNotifications' | 'markReadOnOpen' | 'alertTypes' | 'quietHours'
> & { pollIntervalSeconds: string };

/** What the page says after an action, one sentence a line. */
export interface Notice {
  tone: 'info' | 'error';
  lines: string[];
}

/** The host permissions an account needs: its API's origin and its site's. */
export function requiredOrigins(settings: Pick<Settings, 'apiBaseUrl' | 'siteOrigin'>): string[] {
  return [...new Set([originPattern(settings.apiBaseUrl), originPattern(settings.siteOrigin)])];
}

export const toDraft = (settings: Settings): Draft => ({
  desktopNotifications: settings.desktopNotifications,
  unreadOnly: settings.unreadOnly,
  groupNotifications: settings.groupNotifications,
  markReadOnOpen: settings.markReadOnOpen,
  alertTypes: settings.alertTypes,
  quietHours: settings.quietHours,
  pollIntervalSeconds: String(settings.pollIntervalSeconds),
});

export function fromDraft(draft: Draft, current: Settings): Settings {
  const seconds = draft.pollIntervalSeconds.trim() === '' ? Number.NaN : Number(draft.pollIntervalSeconds);
  return { ...current, ...draft, pollIntervalSeconds: seconds };
}

/**
 * Only what the person changed on this page is written, so a setting changed elsewhere in the
 * meantime (the popup's unread-only switch) is not overwritten with what the page loaded.
 */
export function changedSettings(next: Settings, loaded: Settings): Partial<Settings> {
  const keys = (Object.keys(next) as (keyof Settings)[]).filter((key) => next[key] !== loaded[key]);
  return Object.fromEntries(keys.map((key) => [key, next[key]]));
}

export function connectionTestText(result: ConnectionTest, apiBaseUrl: string): string {
  if (result.ok) return tn('options_test_ok', result.unreadCount);
  return connectionProblemText(result.problem, result.detail, apiBaseUrl);
}

function connectionProblemText(problem: ConnectionProblem, detail: string, apiBaseUrl: string): string {
  switch (problem) {
    case 'invalidAddress':
      return t('options_test_invalidAddress');
    case 'permissionDenied':
      return t('options_test_permissionDenied', detail);
    case 'unreachable':
      return t('options_test_unreachable', apiBaseUrl);
    case 'timeout':
      return t('options_test_timeout', apiBaseUrl);
    case 'noToken':
      return t('options_test_noToken');
    case 'unauthorized':
      return t('options_test_unauthorized');
    case 'rateLimited':
      return t('options_test_rateLimited', apiBaseUrl);
    case 'notThisService':
      return t('options_test_notThisService', apiBaseUrl);
  }
}

/**
 * Why saving, signing in or out failed. The extension's own errors already speak the person's
 * language (a setting that cannot be saved); any other failure is named by its code.
 */
export function actionFailureText(error: unknown): string {
  if (error instanceof Error && !(error instanceof ApiError)) return error.message;
  return t('options_failed', failureCode(error));
}

/**
 * Asks for the notifications permission when the person turns them on. Call it from the click
 * itself, before anything is awaited: browsers only show the prompt during the person's gesture.
 */
export function requestPermissions(next: Settings, loaded: Settings): Promise<boolean> {
  const wantsNotifications = next.desktopNotifications && !loaded.desktopNotifications;
  if (!wantsNotifications) return Promise.resolve(true);
  return browser.permissions.request({ permissions: ['notifications'] }).catch(() => false);
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

export interface SaveRequest {
  next: Settings;
  /** The settings the page loaded or last saved. */
  loaded: Settings;
  /** The answer to `requestPermissions`. */
  granting: Promise<boolean>;
}

export interface SaveOutcome {
  /** The settings as stored now. */
  saved: Settings;
  notice: Notice;
}

/** Saves what changed; desktop notifications stay off without their permission. */
export async function saveOptions({ next, loaded, granting }: SaveRequest): Promise<SaveOutcome> {
  const lines = [t('options_saved')];
  let tone: Notice['tone'] = 'info';
  await granting;
  let saved = next;
  const wantsNotifications = next.desktopNotifications && !loaded.desktopNotifications;
  if (wantsNotifications && !(await browser.permissions.contains({ permissions: ['notifications'] }))) {
    saved = { ...next, desktopNotifications: false };
    lines.push(t('options_notificationsDeclined'));
    tone = 'error';
  }
  try {
    saved = await updateSettings(changedSettings(saved, loaded));
  } catch (error) {
    lines.splice(0, 1, actionFailureText(error));
    tone = 'error';
  }
  return { saved, notice: { tone, lines } };
}

/** Tests an address and token without saving them, once the person answered the permission prompt. */
export async function testConnectionNotice(apiBaseUrl: string, token: string, granting: Promise<boolean>) {
  await granting.catch(() => false);
  try {
    const result = await ask('connection.test', { apiBaseUrl, token: token.trim() || null });
    return { tone: result.ok ? 'info' : 'error', lines: [connectionTestText(result, apiBaseUrl)] } satisfies Notice;
  } catch (error) {
    return { tone: 'error', lines: [actionFailureText(error)] } satisfies Notice;
  }
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
  try {
    await ask('accounts.signOut', { account: account.id });
    return { signedOut: true, notice: { tone: 'info', lines: [t('options_signedOutAccount', accountLabel(account))] } };
  } catch (error) {
    return { signedOut: false, notice: { tone: 'error', lines: [actionFailureText(error)] } };
  }
}

/** Signs an account out and forgets it. */
export async function removeAccount(account: Account): Promise<Notice> {
  try {
    await ask('accounts.remove', { account: account.id });
    return { tone: 'info', lines: [t('options_accountRemoved', accountLabel(account))] };
  } catch (error) {
    return { tone: 'error', lines: [actionFailureText(error)] };
  }
}
