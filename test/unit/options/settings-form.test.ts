import { beforeEach, describe, expect, it } from 'vitest';
import { changedSettings, saveOptions } from '../../../lib/options/settings-form';
import { DEFAULT_SETTINGS, getSettings, updateSettings } from '../../../lib/settings';
import { json } from '../../support/recording-fetch';
import { background, openOptionsPage } from './options-background';

describe('the settings form', () => {
  beforeEach(() => {
    openOptionsPage();
    background(json({ count: 2 }));
  });

  it('writes only the settings changed on the page', () => {
    const next = { ...DEFAULT_SETTINGS, pollIntervalSeconds: 90 };
    expect(changedSettings(next, DEFAULT_SETTINGS)).toEqual({ pollIntervalSeconds: 90 });
  });

  it('saves the checking settings, keeping desktop notifications off without their permission', async () => {
    await updateSettings({ unreadOnly: true });
    const next = { ...DEFAULT_SETTINGS, pollIntervalSeconds: 90, desktopNotifications: true };
    const outcome = await saveOptions({ next, loaded: DEFAULT_SETTINGS, granting: Promise.resolve(false) });
    expect(outcome.notice).toEqual({
      tone: 'error',
      lines: ['Saved.', expect.stringContaining('Desktop notifications stay off')],
    });
    expect(await getSettings()).toMatchObject({
      pollIntervalSeconds: 90,
      unreadOnly: true,
      desktopNotifications: false,
    });
  });

  it('says in words why settings could not be saved', async () => {
    const next = { ...DEFAULT_SETTINGS, pollIntervalSeconds: 5 };
    const outcome = await saveOptions({ next, loaded: DEFAULT_SETTINGS, granting: Promise.resolve(true) });
    expect(outcome.notice).toEqual({ tone: 'error', lines: ['Enter a whole number of seconds, at least 30.'] });
    expect(await getSettings()).toEqual(DEFAULT_SETTINGS);
  });
});
