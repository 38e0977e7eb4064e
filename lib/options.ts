/**
 * What the options page does without a DOM: the permissions a set of settings needs, saving
 * what the person changed, testing a connection, signing out, and the words for each outcome.
 * The page only renders the draft and the notice these return.
 */
import { browser } from 'wxt/browser';
import { ApiError } from './api/errors';
import { originPattern } from './background/permissions';
import { type FailureKind, failureCode, failureKind } from './failure';
import { t, tn } from './i18n';
import { ask, type ConnectionProblem, type ConnectionTest } from './messaging';
import { type Settings, updateSettings } from './settings';

/** The form as typed: the interval is text until it is checked. */
export type Draft = Omit<Settings, 'pollIntervalSeconds'> & { pollIntervalSeconds: string };

/** What the page says after an action, one sentence a line. */
export interface Notice {
  tone: 'info' | 'error';
  lines: string[];
}

/** The host permissions the settings need: the API's origin and the site's. */
export function requiredOrigins(settings: Pick<Settings, 'apiBaseUrl' | 'siteOrigin'>): string[] {
  return [...new Set([originPattern(settings.apiBaseUrl), originPattern(settings.siteOrigin)])];
}

export const toDraft = (settings: Settings): Draft => ({
  ...settings,
  pollIntervalSeconds: String(settings.pollIntervalSeconds),
});

export function fromDraft(draft: Draft, current: Settings): Settings {
  const seconds = draft.pollIntervalSeconds.trim() === '' ? Number.NaN : Number(draft.pollIntervalSeconds);
  return {
    ...current,
    ...draft,
    apiBaseUrl: draft.apiBaseUrl.trim(),
    siteOrigin: draft.siteOrigin.trim().replace(/\/$/, ''),
    profilePath: draft.profilePath.trim(),
    profileAnchor: draft.profileAnchor.trim(),
    pollIntervalSeconds: seconds,
  };
}

/**
 * Only what the person changed on this page is written, so a setting changed elsewhere in the
 * meantime (the popup's unread-only switch) is not overwritten with what the page loaded.
 */
export function changedSettings(next: Settings, loaded: Settings): Partial<Settings> {
  const keys = (Object.keys(next) as (keyof Settings)[]).filter((key) => next[key] !== loaded[key]);
  return Object.fromEntries(keys.map((key) => [key, next[key]]));
}

/** The options page's problem for each kind of failed connection test. */
const TEST_PROBLEM: Record<FailureKind, ConnectionProblem> = {
  offline: 'unreachable',
  unreachable: 'unreachable',
  timeout: 'timeout',
  unauthorized: 'unauthorized',
  rateLimited: 'notThisService',
  serverError: 'notThisService',
  notThisService: 'notThisService',
  notFound: 'notThisService',
  followSelf: 'notThisService',
  reportSelf: 'notThisService',
  invalidRequest: 'notThisService',
  invalidTime: 'notThisService',
  refused: 'notThisService',
  invalidInput: 'invalidAddress',
  aborted: 'notThisService',
  unexpected: 'notThisService',
  internal: 'notThisService',
};

/** A failed connection test; a refused token is a missing one when none was given. */
export function connectionProblem(error: unknown, hadToken: boolean): ConnectionTest {
  const problem = TEST_PROBLEM[failureKind(error)];
  return {
    ok: false,
    problem: problem === 'unauthorized' && !hadToken ? 'noToken' : problem,
    detail: failureCode(error),
  };
}

export function connectionTestText(result: ConnectionTest, apiBaseUrl: string): string {
  if (result.ok) return tn('options_test_ok', result.unreadCount);
  switch (result.problem) {
    case 'invalidAddress':
      return t('options_test_invalidAddress');
    case 'permissionDenied':
      return t('options_test_permissionDenied', result.detail);
    case 'unreachable':
      return t('options_test_unreachable', apiBaseUrl);
    case 'timeout':
      return t('options_test_timeout', apiBaseUrl);
    case 'noToken':
      return t('options_test_noToken');
    case 'unauthorized':
      return t('options_test_unauthorized');
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
 * Asks for the permissions the settings need. Call it from the click itself, before anything is
 * awaited: browsers only show the prompt during the person's gesture.
 */
export function requestPermissions(next: Settings, loaded: Settings): Promise<boolean> {
  const wantsNotifications = next.desktopNotifications && !loaded.desktopNotifications;
  return browser.permissions
    .request({ origins: requiredOrigins(next), ...(wantsNotifications ? { permissions: ['notifications'] } : {}) })
    .catch(() => false);
}

async function notGranted(origins: string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const origin of origins) {
    if (!(await browser.permissions.contains({ origins: [origin] }))) missing.push(origin);
  }
  return missing;
}

export interface SaveRequest {
  next: Settings;
  /** The settings the page loaded or last saved. */
  loaded: Settings;
  /** A token typed on the page, signed in with once the settings are saved; blank for none. */
  token: string;
  /** The answer to `requestPermissions`. */
  granting: Promise<boolean>;
}

export interface SaveOutcome {
  /** The settings as stored now. */
  saved: Settings;
  /** Whether the typed token was signed in with, so the page can clear the field. */
  signedIn: boolean;
  notice: Notice;
}

/**
 * Saves what changed and signs in with a typed token. Settings are saved even without the
 * permissions, saying clearly what is lost; desktop notifications stay off without theirs.
 */
export async function saveOptions({ next, loaded, token, granting }: SaveRequest): Promise<SaveOutcome> {
  const lines = [t('options_saved')];
  let tone: Notice['tone'] = 'info';
  const origins = requiredOrigins(next);
  const missing = (await granting) ? [] : await notGranted(origins);
  let saved = next;
  const wantsNotifications = next.desktopNotifications && !loaded.desktopNotifications;
  if (wantsNotifications && !(await browser.permissions.contains({ permissions: ['notifications'] }))) {
    saved = { ...next, desktopNotifications: false };
    lines.push(t('options_notificationsDeclined'));
    tone = 'error';
  }
  let signedIn = false;
  try {
    saved = await updateSettings(changedSettings(saved, loaded));
    if (token.trim()) {
      await ask('auth.signIn', { token: token.trim() });
      signedIn = true;
    }
  } catch (error) {
    lines.splice(0, 1, actionFailureText(error));
    tone = 'error';
  }
  if (missing.length) {
    lines.push(t('options_permissionDeclined', missing.map((pattern) => pattern.replace('/*', '')).join(', ')));
    tone = 'error';
  }
  return { saved, signedIn, notice: { tone, lines } };
}

/** Asks for the API's origin to test it, from the click; an address that is not one is tested as typed. */
export function requestTestPermission(apiBaseUrl: string): Promise<boolean> {
  try {
    return browser.permissions.request({ origins: requiredOrigins({ apiBaseUrl, siteOrigin: apiBaseUrl }) });
  } catch {
    // Not a web address: the test says so in words.
    return Promise.resolve(false);
  }
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

/** Signs out; whether it worked or not, the page gets a notice and its buttons back. */
export async function signOut(): Promise<{ signedOut: boolean; notice: Notice }> {
  try {
    await ask('auth.signOut');
    return { signedOut: true, notice: { tone: 'info', lines: [t('options_signedOut')] } };
  } catch (error) {
    return { signedOut: false, notice: { tone: 'error', lines: [actionFailureText(error)] } };
  }
}
