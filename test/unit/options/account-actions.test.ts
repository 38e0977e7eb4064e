import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { listAccounts } from '../../../lib/accounts';
import { addWithToken, removeAccount, signOut } from '../../../lib/options/account-actions';
import { ACCOUNT, anotherAccount, signedIn, storedToken } from '../../support/background';
import { profileFixture } from '../../support/fixtures';
import { json, problem, type recordingFetch } from '../../support/recording-fetch';
import { background as answering, openOptionsPage, SOCIAL } from './options-background';

describe('the options page’s account actions', () => {
  let wire: ReturnType<typeof recordingFetch>;

  function background(...replies: Parameters<typeof recordingFetch>) {
    wire = answering(...replies);
  }

  beforeEach(() => {
    openOptionsPage();
    background(json({ count: 2 }));
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
});
