import { createStore, get } from 'idb-keyval';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DEFAULT_ADDRESSES } from '../../lib/account-addresses';
import type { AccountAddresses } from '../../lib/accounts';
import { addAccount } from '../../lib/background/account-store';
import { pollAlarmName } from '../../lib/background/poller';
import { accountsItem, settingsItem } from '../../lib/background/stored-items';
import { originPattern } from '../../lib/permissions';
import { DEFAULT_SETTINGS, type Settings } from '../../lib/settings';

/** The id of the account `signedIn` adds, so tests can name it in messages. */
export const ACCOUNT = 'account-1';

/**
 * Stores settings and one account signed in with the token, as the options page would leave
 * them, and grants the account's origins. Without a username the background asks the service
 * who the account is after its first good check.
 */
export async function signedIn(
  token = 'secret-token',
  settings: Partial<Settings> = {},
  id = ACCOUNT,
  username: string | null = null,
) {
  const all = { ...DEFAULT_SETTINGS, ...settings };
  await settingsItem.setValue(all);
  const addresses: AccountAddresses = {
    apiBaseUrl: all.apiBaseUrl,
    siteOrigin: all.siteOrigin,
    profilePath: all.profilePath,
    profileAnchor: all.profileAnchor,
  };
  if ((await accountsItem.getValue()) === null) await accountsItem.setValue([]);
  await addAccount({ ...addresses, username }, token, id);
  await grant(all.apiBaseUrl, all.siteOrigin);
  return all;
}

/** Adds a further account, signed in with the token (none: signed out), and grants its origins. */
export async function anotherAccount(
  id: string,
  token: string | null,
  addresses: Partial<AccountAddresses> = {},
  username: string | null = null,
) {
  const all = { ...DEFAULT_ADDRESSES, ...addresses };
  if ((await accountsItem.getValue()) === null) await accountsItem.setValue([]);
  const account = await addAccount({ ...all, username }, token, id);
  await grant(all.apiBaseUrl, all.siteOrigin);
  return account;
}

export async function grant(...addresses: string[]) {
  await fakeBrowser.permissions.request({ origins: addresses.map(originPattern) });
}

export async function pollAlarm(account = ACCOUNT) {
  return fakeBrowser.alarms.get(pollAlarmName(account));
}

export async function badge() {
  return { text: await fakeBrowser.action.getBadgeText({}), title: await fakeBrowser.action.getTitle({}) };
}

/** The token as the background keeps it for an account (with its API origin), or null. */
export async function storedToken(id = ACCOUNT): Promise<{ token: string; apiOrigin: string } | null> {
  return (await get(`token:${id}`, createStore('inbox-companion', 'secrets'))) ?? null;
}
