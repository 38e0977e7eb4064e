import { fakeBrowser } from 'wxt/testing/fake-browser';
import { tokenItem } from '../../lib/background/api-session';
import { originPattern } from '../../lib/background/permissions';
import { DEFAULT_SETTINGS, type Settings, settingsItem } from '../../lib/settings';

/** Stores settings and a token as the options page would leave them, and grants the API's origin. */
export async function signedIn(token = 'secret-token', settings: Partial<Settings> = {}) {
  const all = { ...DEFAULT_SETTINGS, ...settings };
  await settingsItem.setValue(all);
  await tokenItem.setValue({ token, apiOrigin: new URL(all.apiBaseUrl).origin });
  await grant(all.apiBaseUrl, all.siteOrigin);
  return all;
}

export async function grant(...addresses: string[]) {
  await fakeBrowser.permissions.request({ origins: addresses.map(originPattern) });
}

export async function pollAlarm() {
  return fakeBrowser.alarms.get('poll-unread-count');
}

export async function badge() {
  return { text: await fakeBrowser.action.getBadgeText({}), title: await fakeBrowser.action.getTitle({}) };
}
