import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { tokenItem } from '../../../lib/background/api-session';
import { messaging } from '../../../lib/messaging';
import { changedSettings, saveOptions, signOut } from '../../../lib/options';
import { DEFAULT_SETTINGS, getSettings, updateSettings } from '../../../lib/settings';
import { installFakePermissions } from '../../support/fake-apis';
import { answerMessages, optionsSender, sendMessagesAs } from '../../support/messages';
import { json, recordingFetch } from '../../support/recording-fetch';

describe('options flow', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    installFakePermissions();
    sendMessagesAs(optionsSender);
    answerMessages(recordingFetch(json({ count: 2 })).fetch);
  });

  it('writes only the settings changed on the page', () => {
    const next = { ...DEFAULT_SETTINGS, pollIntervalSeconds: 90 };
    expect(changedSettings(next, DEFAULT_SETTINGS)).toEqual({ pollIntervalSeconds: 90 });
  });

  it('saves without the permission, saying what is lost, and signs in with a typed token', async () => {
    await updateSettings({ unreadOnly: true });
    const next = { ...DEFAULT_SETTINGS, apiBaseUrl: 'https://api.example.social/v1' };
    const outcome = await saveOptions({
      next,
      loaded: DEFAULT_SETTINGS,
      token: ' tok ',
      granting: Promise.resolve(false),
    });
    expect(outcome.signedIn).toBe(true);
    expect(outcome.notice.tone).toBe('error');
    expect(outcome.notice.lines[0]).toBe('Saved.');
    expect(outcome.notice.lines[1]).toContain('https://api.example.social');
    expect(await getSettings()).toMatchObject({ apiBaseUrl: 'https://api.example.social/v1', unreadOnly: true });
    expect(await tokenItem.getValue()).toMatchObject({ token: 'tok' });
  });

  it('says in words why settings could not be saved, and does not sign in', async () => {
    const next = { ...DEFAULT_SETTINGS, pollIntervalSeconds: 5 };
    const outcome = await saveOptions({
      next,
      loaded: DEFAULT_SETTINGS,
      token: 'tok',
      granting: Promise.resolve(true),
    });
    expect(outcome).toMatchObject({ signedIn: false, notice: { tone: 'error' } });
    expect(outcome.notice.lines[0]).toBe('Enter a whole number of seconds, at least 30.');
    expect(await tokenItem.getValue()).toBeNull();
    expect(await getSettings()).toEqual(DEFAULT_SETTINGS);
  });

  it('answers a failed sign-out with a notice instead of failing', async () => {
    await tokenItem.setValue({ token: 'tok', apiOrigin: 'http://127.0.0.1:8787' });
    const remove = fakeBrowser.storage.local.remove;
    fakeBrowser.storage.local.remove = () => Promise.reject(new Error('storage is full'));
    const failed = await signOut();
    fakeBrowser.storage.local.remove = remove;
    expect(failed).toEqual({
      signedOut: false,
      notice: { tone: 'error', lines: [expect.stringContaining('Try again')] },
    });
    expect(await signOut()).toMatchObject({ signedOut: true, notice: { tone: 'info' } });
    expect(await tokenItem.getValue()).toBeNull();
  });
});
