import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { listAccounts } from '../../../lib/accounts';
import { messaging } from '../../../lib/messaging';
import {
  addWithToken,
  changedSettings,
  removeAccount,
  saveOptions,
  signOut,
  testConnectionNotice,
} from '../../../lib/options';
import { DEFAULT_SETTINGS, getSettings, updateSettings } from '../../../lib/settings';
import { ACCOUNT, anotherAccount, signedIn, storedToken } from '../../support/background';
import { installFakePermissions } from '../../support/fake-apis';
import { profileFixture } from '../../support/fixtures';
import { answerMessages, optionsSender, sendMessagesAs } from '../../support/messages';
import { json, problem, recordingFetch } from '../../support/recording-fetch';

const SOCIAL = {
  apiBaseUrl: 'https://api.example.social/v1',
  siteOrigin: 'https://example.social',
  profilePath: '/@:username',
  profileAnchor: 'main',
};

describe('options flow', () => {
  let wire: ReturnType<typeof recordingFetch>;

  function background(...replies: Parameters<typeof recordingFetch>) {
    messaging.removeAllListeners();
    wire = recordingFetch(...replies);
    answerMessages(wire.fetch);
  }

  beforeEach(() => {
    fakeBrowser.reset();
    installFakePermissions();
    sendMessagesAs(optionsSender);
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

  it('adds an account with a pasted token only once its origins are granted and the service takes the token', async () => {
    const refused = await addWithToken({ ...SOCIAL, token: ' tok ' }, Promise.resolve(false));
    expect(refused.notice.lines[0]).toContain('https://api.example.social');
    expect(wire.requests).toHaveLength(0);
    expect(await listAccounts()).toEqual([]);

    await fakeBrowser.permissions.request({ origins: ['https://api.example.social/*', 'https://example.social/*'] });
    background(json(profileFixture({ username: 'alice', displayName: 'Alice' })), json({ count: 2 }));
    const added = await addWithToken({ ...SOCIAL, token: ' tok ' }, Promise.resolve(true));
    expect(added.notice).toEqual({ tone: 'info', lines: ['Signed in as @alice.'] });
    expect(wire.requests[0]?.headers.get('authorization')).toBe('Bearer tok');
    const [account] = await listAccounts();
    expect(account).toMatchObject({ apiBaseUrl: SOCIAL.apiBaseUrl, siteOrigin: SOCIAL.siteOrigin });
    expect(await storedToken(account?.id)).toEqual({ token: 'tok', apiOrigin: 'https://api.example.social' });
  });

  it('adds nothing when the service refuses the token, and says so in words', async () => {
    background(problem(401, 'unauthenticated'));
    await fakeBrowser.permissions.request({ origins: ['https://api.example.social/*', 'https://example.social/*'] });
    const outcome = await addWithToken({ ...SOCIAL, token: 'old' }, Promise.resolve(true));
    expect(outcome).toEqual({
      added: null,
      notice: { tone: 'error', lines: ['The service answered, but did not accept the token. Paste a current token.'] },
    });
    expect(await listAccounts()).toEqual([]);
  });

  it('signs an account out with a notice naming it, and answers a failed sign-out with a notice instead of failing', async () => {
    await signedIn('tok');
    background(json({}), json({ count: 0 }));
    const [account] = await listAccounts();
    if (!account) throw new Error('no account');
    expect(await signOut({ ...account, id: 'gone' })).toEqual({
      signedOut: false,
      notice: { tone: 'error', lines: [expect.stringContaining('Try again')] },
    });
    expect(await signOut(account)).toEqual({
      signedOut: true,
      notice: { tone: 'info', lines: [expect.stringContaining('127.0.0.1:8787 is signed out')] },
    });
    expect(await storedToken()).toBeNull();
    expect(wire.requests[0]?.url.pathname).toBe('/api/oauth/revoke');
  });

  it('gives back a removed account’s host permissions, unless another account uses the same origin', async () => {
    await signedIn('tok');
    await anotherAccount('social', 'tok-2', SOCIAL);
    await anotherAccount('social-2', 'tok-3', SOCIAL);
    background(json({}), json({}), json({}));
    const [, social, second] = await listAccounts();
    if (!social || !second) throw new Error('no accounts');
    expect((await removeAccount(social)).tone).toBe('info');
    expect(await fakeBrowser.permissions.contains({ origins: ['https://example.social/*'] })).toBe(true);
    expect((await removeAccount(second)).tone).toBe('info');
    expect(await fakeBrowser.permissions.contains({ origins: ['https://example.social/*'] })).toBe(false);
    expect(await fakeBrowser.permissions.contains({ origins: ['https://api.example.social/*'] })).toBe(false);
    expect((await listAccounts()).map((account) => account.id)).toEqual([ACCOUNT]);
    expect(await storedToken('social')).toBeNull();
  });

  it('tells the person to wait when the service turns a connection test away as too many requests', async () => {
    await fakeBrowser.permissions.request({ origins: ['https://api.example.social/*'] });
    background(problem(429, 'rate_limited', { 'retry-after': '30' }));
    const notice = await testConnectionNotice(SOCIAL.apiBaseUrl, 'tok', Promise.resolve(true));
    expect(notice.tone).toBe('error');
    expect(notice.lines[0]).toMatch(/busy/);
    expect(notice.lines[0]).not.toMatch(/not like the Inbox service/);
  });
});
