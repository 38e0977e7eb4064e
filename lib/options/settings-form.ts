/**
 * The options page's settings form without a DOM: the draft as typed, the notifications
 * permission it asks for, and saving what the person changed. The page only renders the draft
 * and the notice these return.
 */
import { browser } from 'wxt/browser';
import { t } from '../i18n';
import { type Settings, updateSettings } from '../settings';
import { actionFailureText, type Notice } from './notice';

/** The form as typed: the interval is text until it is checked. */
export type Draft = Pick<
  Settings,
  | 'desktopNotifications'
  | 'unreadOnly'
  | 'groupNotifications'
  | 'groupedTypes'
  | 'markReadOnOpen'
  | 'density'
  | 'alertTypes'
  | 'quietHours'
  | 'badgePriority'
> & { pollIntervalSeconds: string };

export const toDraft = (settings: Settings): Draft => ({
  desktopNotifications: settings.desktopNotifications,
  unreadOnly: settings.unreadOnly,
  groupNotifications: settings.groupNotifications,
  groupedTypes: settings.groupedTypes,
  markReadOnOpen: settings.markReadOnOpen,
  density: settings.density,
  alertTypes: settings.alertTypes,
  quietHours: settings.quietHours,
  badgePriority: settings.badgePriority,
  pollIntervalSeconds: String(settings.pollIntervalSeconds),
});

export function fromDraft(draft: Draft, current: Settings): Settings {
  const seconds = draft.pollIntervalSeconds.trim() === '' ? Number.NaN : Number(draft.pollIntervalSeconds);
  return { ...current, ...draft, pollIntervalSeconds: seconds };
}

/**
 * The draft after the settings changed elsewhere (the popup, or another computer through
 * storage.sync): each field the person has not touched here shows the new value, and what they
 * are typing stays.
 */
export function rebaseDraft(draft: Draft, loaded: Settings, next: Settings): Draft {
  const before = toDraft(loaded);
  const after = toDraft(next);
  const keys = Object.keys(draft) as (keyof Draft)[];
  const untouched = keys.filter((key) => JSON.stringify(draft[key]) === JSON.stringify(before[key]));
  return { ...draft, ...Object.fromEntries(untouched.map((key) => [key, after[key]])) };
}

/**
 * Only what the person changed on this page is written, so a setting changed elsewhere in the
 * meantime (the popup's unread-only switch) is not overwritten with what the page loaded.
 */
export function changedSettings(next: Settings, loaded: Settings): Partial<Settings> {
  const keys = (Object.keys(next) as (keyof Settings)[]).filter((key) => next[key] !== loaded[key]);
  return Object.fromEntries(keys.map((key) => [key, next[key]]));
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
