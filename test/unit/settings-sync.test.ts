import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { startBackground } from '../../lib/background';
import { migrateAccounts } from '../../lib/background/account-store';
import { digestStateItem } from '../../lib/background/notifier';
import { messaging } from '../../lib/messaging';
import {
  DEFAULT_SETTINGS,
  getSettings,
  migrateSettings,
  type Settings,
  updateSettings,
  watchSettings,
} from '../../lib/settings';
import { ACCOUNT, anotherAccount } from '../support/background';
import { answerMessages, deliver, optionsSender } from '../support/messages';
import { json, recordingFetch } from '../support/recording-fetch';
import { until } from '../support/until';

const QUIET = { enabled: true, days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '23:59' };
/** What another computer signed in to the same browser account leaves in storage.sync. */
const fromAnotherComputer = (settings: Partial<Settings>) => fakeBrowser.storage.sync.set({ settings });

describe('settings that follow the person through storage.sync', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
  });

  it('moves the choices an earlier version kept on this computer into storage.sync, once, keeping them', async () => {
    const earlier = { ...DEFAULT_SETTINGS, pollIntervalSeconds: 120, unreadOnly: true, quietHours: QUIET };
    await fakeBrowser.storage.local.set({ settings: earlier });
    await migrateSettings();
    const { settings: synced } = await fakeBrowser.storage.sync.get('settings');
    expect(synced).toMatchObject({ unreadOnly: true, quietHours: QUIET, groupNotifications: true });
    const { settings: local } = await fakeBrowser.storage.local.get('settings');
    expect(local).toMatchObject({ pollIntervalSeconds: 120, apiBaseUrl: DEFAULT_SETTINGS.apiBaseUrl });
    expect(local).not.toHaveProperty('unreadOnly');
    expect(await getSettings()).toEqual({ ...earlier });

    // Once: a later change on another computer is not overwritten by what this one had.
    await fromAnotherComputer({ ...(synced as Partial<Settings>), unreadOnly: false });
    await migrateSettings();
    expect((await getSettings()).unreadOnly).toBe(false);
  });

  it('keeps what another computer synced over what this one kept before, and fills in the rest', async () => {
    await fakeBrowser.storage.local.set({ settings: { ...DEFAULT_SETTINGS, unreadOnly: true, markReadOnOpen: false } });
    await fromAnotherComputer({ unreadOnly: false });
    await migrateSettings();
    expect(await getSettings()).toMatchObject({ unreadOnly: false, markReadOnOpen: false });
  });

  it('writes a change of one synced setting into what the other computers left', async () => {
    await fromAnotherComputer({ quietHours: QUIET });
    await updateSettings({ groupNotifications: false, pollIntervalSeconds: 90 });
    const { settings: synced } = await fakeBrowser.storage.sync.get('settings');
    expect(synced).toEqual({ quietHours: QUIET, groupNotifications: false });
    expect((await fakeBrowser.storage.local.get('settings')).settings).toMatchObject({ pollIntervalSeconds: 90 });
  });

  it('hears a change made on another computer without anything being opened again', async () => {
    const heard: Settings[] = [];
    const watching = new AbortController();
    watchSettings((settings) => heard.push(settings), watching.signal);
    await fromAnotherComputer({
      groupNotifications: false,
      alertTypes: { ...DEFAULT_SETTINGS.alertTypes, like: true },
    });
    await until(() => heard.length === 1);
    expect(heard[0]).toMatchObject({ groupNotifications: false, alertTypes: { like: true } });
    watching.abort();
  });

  describe('in the background', () => {
    let running: AbortController | undefined;
    afterEach(() => running?.abort());

    it('acts on quiet hours ended on another computer: the digest comes at once', async () => {
      await fakeBrowser.permissions.request({ permissions: ['notifications'] });
      await fromAnotherComputer({ desktopNotifications: true, quietHours: QUIET });
      await digestStateItem.setValue({ held: { mention: 2 }, shown: {} });
      running = new AbortController();
      startBackground({ fetch: recordingFetch().fetch, isOnline: () => true, signal: running.signal });
      expect(fakeBrowser.notifications.getAllCreateOptions()).toEqual({});

      await fromAnotherComputer({ desktopNotifications: true, quietHours: { ...QUIET, enabled: false } });
      await until(() => Object.keys(fakeBrowser.notifications.getAllCreateOptions()).length === 1);
      expect(Object.values(fakeBrowser.notifications.getAllCreateOptions())[0]?.message).toMatch(/2 mentions/);
    });
  });

  it('never writes a token, or anything named one, to storage.sync', async () => {
    const set = vi.spyOn(fakeBrowser.storage.sync, 'set');
    const TOKEN = 'secret-token-4f9a8e';
    const LEGACY = 'legacy-token-77b1c2';
    // An earlier version: one account's addresses and choices in the settings, its token in storage.local.
    await fakeBrowser.storage.local.set({
      settings: { ...DEFAULT_SETTINGS, desktopNotifications: true },
      token: { token: LEGACY, apiOrigin: 'http://127.0.0.1:8787' },
    });
    await migrateAccounts();
    await migrateSettings();
    // Signing in with a token, and changing every synced setting.
    await anotherAccount(ACCOUNT, null);
    const wire = recordingFetch(json({ count: 3 }), json({ count: 3 }));
    answerMessages(wire.fetch);
    expect((await deliver('accounts.signIn', { account: ACCOUNT, token: TOKEN }, optionsSender)).error).toBeUndefined();
    await updateSettings({
      desktopNotifications: false,
      alertTypes: { ...DEFAULT_SETTINGS.alertTypes, like: true },
      quietHours: QUIET,
      unreadOnly: true,
      groupNotifications: false,
      markReadOnOpen: false,
    });

    expect(set).toHaveBeenCalled();
    const written = JSON.stringify([set.mock.calls, await fakeBrowser.storage.sync.get(null)]);
    for (const secret of [TOKEN, LEGACY]) expect(written).not.toContain(secret);
    expect(written).not.toMatch(/token/i);
    expect(Object.keys(await fakeBrowser.storage.sync.get(null))).toEqual(['settings']);
  });
});
