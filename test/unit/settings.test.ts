import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  DEFAULT_SETTINGS,
  getSettings,
  normalizeSettings,
  settingsErrorText,
  updateSettings,
  validateSettings,
} from '../../lib/settings';

describe('settings', () => {
  beforeEach(() => fakeBrowser.reset());

  it('has the reference service’s addresses and a 60 s interval by default', async () => {
    expect(await getSettings()).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({
      apiBaseUrl: 'http://127.0.0.1:8787/api',
      profilePath: '/@:username',
      pollIntervalSeconds: 60,
      desktopNotifications: false,
    });
  });

  it('lives in storage.local, never in sync storage', async () => {
    await updateSettings({ pollIntervalSeconds: 90 });
    expect(await fakeBrowser.storage.local.get('settings')).toMatchObject({ settings: { pollIntervalSeconds: 90 } });
    expect(await fakeBrowser.storage.sync.get(null)).toEqual({});
  });

  it('upgrades a stored value from an older version: missing fields take defaults, damaged ones are repaired', async () => {
    await fakeBrowser.storage.local.set({
      settings: { apiBaseUrl: 'https://example.social/api', pollIntervalSeconds: 5, profilePath: 42, extra: 'x' },
    });
    expect(await getSettings()).toEqual({
      ...DEFAULT_SETTINGS,
      apiBaseUrl: 'https://example.social/api',
    });
  });

  it('has the compact list by default, keeps the comfortable one once chosen, and reads anything else as compact', async () => {
    expect(DEFAULT_SETTINGS.density).toBe('compact');
    expect(normalizeSettings({ density: 'comfortable' }).density).toBe('comfortable');
    expect(normalizeSettings({ density: 'roomy' }).density).toBe('compact');
    expect(normalizeSettings({ density: 2 }).density).toBe('compact');
    await updateSettings({ density: 'comfortable' });
    expect((await getSettings()).density).toBe('comfortable');
    // A choice of how the popup looks follows the person to their other computers.
    expect(await fakeBrowser.storage.sync.get('settings')).toEqual({ settings: { density: 'comfortable' } });
  });

  it('reads garbage as the defaults', () => {
    expect(normalizeSettings('nonsense')).toEqual(DEFAULT_SETTINGS);
    expect(normalizeSettings(null)).toEqual(DEFAULT_SETTINGS);
  });

  it.each([
    ['apiBaseUrl', 'example.social/api'],
    ['apiBaseUrl', 'javascript:alert(1)'],
    ['apiBaseUrl', 'https://x.test/api?token=1'],
    ['siteOrigin', 'https://example.social/people'],
    ['profilePath', '@:username'],
    ['profilePath', '/users/'],
    ['profileAnchor', '  '],
    ['pollIntervalSeconds', 29],
    ['pollIntervalSeconds', 45.5],
  ] as const)('refuses %s = %j with words a person can act on', async (key, value) => {
    const errors = validateSettings({ ...DEFAULT_SETTINGS, [key]: value });
    expect(Object.keys(errors)).toEqual([key]);
    const words = settingsErrorText(errors[key] ?? 'extName');
    expect(words).not.toMatch(/^settings_/);
    await expect(updateSettings({ [key]: value })).rejects.toThrow(words);
    expect(await getSettings()).toEqual(DEFAULT_SETTINGS);
  });

  it.each([
    ['apiBaseUrl', 'http://example.social/api'],
    ['apiBaseUrl', 'http://10.0.0.5:8787/api'],
    ['apiBaseUrl', 'http://128.0.0.1/api'],
    ['apiBaseUrl', 'http://[::2]/api'],
    ['apiBaseUrl', 'http://localhost.example.social/api'],
    ['apiBaseUrl', 'http://127.0.0.1.example.social/api'],
    ['siteOrigin', 'http://example.social'],
  ] as const)('refuses plain http for %s = %s, a host beyond this computer, and asks for https', async (key, value) => {
    const errors = validateSettings({ ...DEFAULT_SETTINGS, [key]: value });
    expect(errors).toEqual({ [key]: 'settings_errorPlainHttp' });
    const words = settingsErrorText('settings_errorPlainHttp');
    expect(words).toContain('https://');
    await expect(updateSettings({ [key]: value })).rejects.toThrow(words);
    expect(await getSettings()).toEqual(DEFAULT_SETTINGS);
  });

  it.each([
    'http://127.0.0.1:8787/api',
    'http://127.10.20.30/api',
    'http://localhost:8787/api',
    'http://LOCALHOST/api',
    'http://[::1]:8787/api',
    'https://example.social/api',
    'https://10.0.0.5/api',
  ])('accepts %s: https anywhere, plain http on this computer', async (apiBaseUrl) => {
    expect(validateSettings({ ...DEFAULT_SETTINGS, apiBaseUrl })).toEqual({});
    await updateSettings({ apiBaseUrl, siteOrigin: new URL(apiBaseUrl).origin });
    expect((await getSettings()).apiBaseUrl).toBe(apiBaseUrl);
  });

  it('drops a stored plain-http address of another host rather than send the token over it', async () => {
    await fakeBrowser.storage.local.set({ settings: { ...DEFAULT_SETTINGS, apiBaseUrl: 'http://example.social/api' } });
    expect((await getSettings()).apiBaseUrl).toBe(DEFAULT_SETTINGS.apiBaseUrl);
  });

  it('accepts an origin with a trailing slash and stores it without', async () => {
    await updateSettings({ siteOrigin: 'https://example.social/' });
    expect((await getSettings()).siteOrigin).toBe('https://example.social');
  });

  it('make alert types and quiet hours whole, keeping what is sound of a damaged stored value', () => {
    const settings = normalizeSettings({
      alertTypes: { like: true, mention: 'yes', unknown: true },
      quietHours: { enabled: true, days: [5, 5, 9, 'x', 1], start: '22:00', end: '07:00' },
    });
    expect(settings.alertTypes).toEqual({ ...DEFAULT_SETTINGS.alertTypes, like: true });
    expect(settings.quietHours).toEqual({ enabled: true, days: [1, 5], start: '22:00', end: '07:00' });
    expect(
      normalizeSettings({ quietHours: { enabled: true, days: [], start: '22:00', end: '07:00' } }).quietHours,
    ).toEqual(DEFAULT_SETTINGS.quietHours);
    expect(
      validateSettings({
        ...DEFAULT_SETTINGS,
        quietHours: { ...DEFAULT_SETTINGS.quietHours, enabled: true, start: '7' },
      }),
    ).toEqual({
      quietHours: 'settings_errorQuietHoursTime',
    });
  });
});
