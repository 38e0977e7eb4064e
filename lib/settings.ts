/**
 * The extension's settings, defined once with their defaults. How the person likes their inbox
 * and alerts (`SYNCED_SETTINGS`) lives in `storage.sync`, so it follows them to their other
 * computers; the rest stays in `storage.local`: host permissions are granted per browser, so an
 * address synced from another device would arrive without the permission it needs, and how often
 * to check is this computer's matter. The token is not a setting and never reaches any
 * `storage.*` area: the background keeps it in its IndexedDB (`lib/background/account-store.ts`).
 */

import { NOTIFICATION_TYPES, type NotificationType } from './api/notification-types';
import { type MessageKey, t } from './i18n';
import { isPrivateAddress } from './links';
import { readOne, readStored, type StoredReader, storedKey, watchStored, writeStored } from './stored';

/** Quiet hours as set; `lib/quiet-hours.ts` says when they hold. */
export interface QuietHours {
  enabled: boolean;
  /** Days the range starts on: 0 Sunday … 6 Saturday. */
  days: number[];
  /** `HH:MM`, 24-hour. */
  start: string;
  end: string;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes since midnight of an `HH:MM` time, or null when it is not one. */
export function minutesOf(time: string): number | null {
  const match = TIME.exec(time);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

export type QuietHoursProblem = 'time' | 'sameTime' | 'noDays';

/** Why a quiet-hours setting cannot work, or null when it can. Turned off, anything goes. */
export function quietHoursProblem(quiet: QuietHours): QuietHoursProblem | null {
  if (!quiet.enabled) return null;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === null || end === null) return 'time';
  if (start === end) return 'sameTime';
  if (quiet.days.length === 0) return 'noDays';
  return null;
}

/** The time zone quiet hours are in: this computer's, the person's as far as it knows. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** How much room the popup gives each notification: one or two lines, or the roomier rows of earlier versions. */
export const DENSITIES = ['compact', 'comfortable'] as const;
export type Density = (typeof DENSITIES)[number];

export interface Settings {
  /** The API base URL, for example `https://example.social/api`. */
  apiBaseUrl: string;
  /** The origin of the web site whose profile pages get the in-page buttons. */
  siteOrigin: string;
  /** The path of a profile page, with `:username` where the username stands. */
  profilePath: string;
  /** A CSS selector for the element the in-page buttons attach beside, when the page has it. */
  profileAnchor: string;
  /** Seconds between two checks of the unread count; at least 30. */
  pollIntervalSeconds: number;
  /** Show a system notification when new unread notifications arrive. */
  desktopNotifications: boolean;
  /** Which types of notification may raise a desktop alert. */
  alertTypes: Record<NotificationType, boolean>;
  /** When no desktop alert is raised; one digest says what came once they end. */
  quietHours: QuietHours;
  /** The popup lists only unread notifications. */
  unreadOnly: boolean;
  /** The popup shows neighbours of the same type about the same thing as one row. */
  groupNotifications: boolean;
  /** Which types group when grouping is on; the others are listed one by one. */
  groupedTypes: Record<NotificationType, boolean>;
  /** Opening a notification from the popup marks it read. */
  markReadOnOpen: boolean;
  /** How much room the popup's list gives each notification. */
  density: Density;
  /**
   * The badge counts the priority notifications only. This computer's matter, as what makes a
   * notification priority is learned in this browser (`lib/priority/model.ts`).
   */
  badgePriority: boolean;
}

export const MIN_POLL_INTERVAL_SECONDS = 30;

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  apiBaseUrl: 'http://127.0.0.1:8787/api',
  siteOrigin: 'http://127.0.0.1:8787',
  profilePath: '/@:username',
  profileAnchor: '[data-profile-actions]',
  pollIntervalSeconds: 60,
  desktopNotifications: false,
  alertTypes: Object.freeze({ mention: true, reply: true, follow: true, system: true, like: false }),
  quietHours: Object.freeze({ enabled: false, days: [0, 1, 2, 3, 4, 5, 6], start: '22:00', end: '07:00' }),
  unreadOnly: false,
  groupNotifications: true,
  groupedTypes: Object.freeze({ mention: false, reply: false, follow: true, system: true, like: true }),
  markReadOnOpen: true,
  density: 'compact',
  badgePriority: false,
});

const QUIET_HOURS_ERROR: Record<QuietHoursProblem, MessageKey> = {
  time: 'settings_errorQuietHoursTime',
  sameTime: 'settings_errorQuietHoursSameTime',
  noDays: 'settings_errorQuietHoursDays',
};

/** For each invalid setting, the catalogue key of words a person can act on. */
export type SettingsErrors = Partial<Record<keyof Settings, MessageKey>>;

function httpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Plain http carries the token unencrypted: it is accepted only for this computer (the local
 * reference service, tests); any other host needs https.
 */
const needsHttps = (url: URL) => !isPrivateAddress(url.href);

/** Why each invalid setting is invalid; empty when all are valid. */
export function validateSettings(settings: Settings): SettingsErrors {
  const errors: SettingsErrors = {};
  const api = httpUrl(settings.apiBaseUrl);
  if (!api) errors.apiBaseUrl = 'settings_errorScheme';
  else if (api.search || api.hash || api.username || api.password) errors.apiBaseUrl = 'settings_errorApiParts';
  else if (needsHttps(api)) errors.apiBaseUrl = 'settings_errorPlainHttp';
  const site = httpUrl(settings.siteOrigin);
  if (!site) errors.siteOrigin = 'settings_errorScheme';
  else if (site.origin !== settings.siteOrigin.replace(/\/$/, '')) errors.siteOrigin = 'settings_errorSitePath';
  else if (needsHttps(site)) errors.siteOrigin = 'settings_errorPlainHttp';
  if (!settings.profilePath.startsWith('/') || (settings.profilePath.match(/:username/g) ?? []).length !== 1) {
    errors.profilePath = 'settings_errorProfilePath';
  }
  if (!settings.profileAnchor.trim()) errors.profileAnchor = 'settings_errorProfileAnchor';
  if (!Number.isInteger(settings.pollIntervalSeconds) || settings.pollIntervalSeconds < MIN_POLL_INTERVAL_SECONDS) {
    errors.pollIntervalSeconds = 'settings_errorPollInterval';
  }
  const quiet = quietHoursProblem(settings.quietHours);
  if (quiet) errors.quietHours = QUIET_HOURS_ERROR[quiet];
  return errors;
}

/** The words for a setting's error, in the browser's language. */
export function settingsErrorText(key: MessageKey): string {
  return t(key, MIN_POLL_INTERVAL_SECONDS);
}

/** Each type's switch as stored, or its default. */
function normalizeTypes(stored: unknown, defaults: Readonly<Record<NotificationType, boolean>>) {
  const value = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  const types = { ...defaults };
  for (const type of NOTIFICATION_TYPES) {
    if (typeof value[type] === 'boolean') types[type] = value[type];
  }
  return types;
}

function normalizeQuietHours(stored: unknown): QuietHours {
  const value = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  const fallback = DEFAULT_SETTINGS.quietHours;
  const days = Array.isArray(value.days)
    ? [...new Set(value.days.filter((day): day is number => Number.isInteger(day) && day >= 0 && day <= 6))].sort()
    : fallback.days;
  return {
    enabled: typeof value.enabled === 'boolean' ? value.enabled : fallback.enabled,
    days,
    start: typeof value.start === 'string' ? value.start : fallback.start,
    end: typeof value.end === 'string' ? value.end : fallback.end,
  };
}

/**
 * Settings as stored, made whole: a missing or malformed field takes its default, so a stored
 * value from an older version or a damaged one never breaks the extension.
 */
export function normalizeSettings(stored: unknown): Settings {
  const value = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  const settings = { ...DEFAULT_SETTINGS };
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    if (typeof value[key] === typeof DEFAULT_SETTINGS[key]) Object.assign(settings, { [key]: value[key] });
  }
  settings.siteOrigin = settings.siteOrigin.replace(/\/$/, '');
  settings.alertTypes = normalizeTypes(value.alertTypes, DEFAULT_SETTINGS.alertTypes);
  settings.groupedTypes = normalizeTypes(value.groupedTypes, DEFAULT_SETTINGS.groupedTypes);
  settings.quietHours = normalizeQuietHours(value.quietHours);
  if (!DENSITIES.includes(settings.density)) settings.density = DEFAULT_SETTINGS.density;
  const errors = validateSettings(settings);
  for (const key of Object.keys(errors) as (keyof Settings)[]) {
    Object.assign(settings, { [key]: DEFAULT_SETTINGS[key] });
  }
  return settings;
}

/** The settings that follow the person: appearance, alerts, quiet hours and grouping. */
export const SYNCED_SETTINGS = [
  'desktopNotifications',
  'alertTypes',
  'quietHours',
  'unreadOnly',
  'groupNotifications',
  'groupedTypes',
  'markReadOnOpen',
  'density',
] as const satisfies readonly (keyof Settings)[];
type SyncedSetting = (typeof SYNCED_SETTINGS)[number];
type StoredSettings = Partial<Record<keyof Settings, unknown>>;

/** This computer's settings; before this version, all of them. */
export const SETTINGS = storedKey<Settings>('local:settings', DEFAULT_SETTINGS);
/** The settings that follow the person, as another computer may have left them. */
export const SYNCED = storedKey<StoredSettings | null>('sync:settings', null);
const LOCAL_AS_STORED = storedKey<StoredSettings | null>(SETTINGS.key, null);

const isSynced = (key: string): key is SyncedSetting => (SYNCED_SETTINGS as readonly string[]).includes(key);
const part = (settings: StoredSettings, synced: boolean): StoredSettings =>
  Object.fromEntries(Object.entries(settings).filter(([key]) => isSynced(key) === synced));

/**
 * The settings made whole, read from storage or from what `read` took of it: the synced ones
 * over this computer's, where an earlier version kept them all.
 */
export async function getSettings(read: StoredReader = readOne): Promise<Settings> {
  const [local, synced] = await Promise.all([read(SETTINGS), read(SYNCED)]);
  return normalizeSettings({ ...(local as object), ...part(synced ?? {}, true) });
}

/**
 * Saves a change to some settings; refuses the whole change if any value is invalid. A synced
 * setting is written into what the other computers left, so two computers changing different
 * settings keep both changes.
 */
export async function updateSettings(change: Partial<Settings>): Promise<Settings> {
  const [local, synced] = await readStored(LOCAL_AS_STORED, SYNCED);
  const next = normalizeSettings({ ...local, ...part(synced ?? {}, true) });
  Object.assign(next, change);
  const errors = validateSettings(next);
  const first = Object.values(errors)[0];
  if (first) throw new Error(settingsErrorText(first));
  const syncedChange = part(change, true);
  const legacy = part(local ?? {}, true);
  if (Object.keys(syncedChange).length > 0 || Object.keys(legacy).length > 0) {
    await writeStored(SYNCED, { ...legacy, ...part(synced ?? {}, true), ...syncedChange });
  }
  await writeStored(SETTINGS, part(next, false) as Settings);
  return next;
}

/**
 * Once, on the first start of this version: the choices an earlier version kept on this computer
 * move into `storage.sync`, where a choice another computer already synced stays.
 */
export async function migrateSettings(): Promise<void> {
  const [local, synced] = await readStored(LOCAL_AS_STORED, SYNCED);
  const legacy = part(local ?? {}, true);
  if (Object.keys(legacy).length === 0) return;
  await writeStored(SYNCED, { ...legacy, ...part(synced ?? {}, true) });
  await writeStored(SETTINGS, part(local ?? {}, false) as Settings);
}

/**
 * Calls `listener` with the settings made whole after every change that changes them, here or on
 * another computer, until `signal` aborts. Moving a value from one area to the other changes nothing.
 */
export function watchSettings(listener: (settings: Settings) => void, signal: AbortSignal): void {
  const whole = (local: StoredSettings | null, synced: StoredSettings | null) =>
    normalizeSettings({ ...local, ...part(synced ?? {}, true) });
  const heard =
    (synced: boolean) =>
    (value: StoredSettings | null, previous: StoredSettings | null): void => {
      void readStored(synced ? LOCAL_AS_STORED : SYNCED).then(([other]) => {
        const before = synced ? whole(other, previous) : whole(previous, other);
        const after = synced ? whole(other, value) : whole(value, other);
        if (!signal.aborted && JSON.stringify(before) !== JSON.stringify(after)) listener(after);
      });
    };
  watchStored(LOCAL_AS_STORED, heard(false), signal);
  watchStored(SYNCED, heard(true), signal);
}
