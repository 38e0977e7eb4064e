import { createStore, get, set } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { accountLabel, DEFAULT_ADDRESSES } from '../../../lib/account-addresses';
import { listAccounts } from '../../../lib/accounts';
import {
  accounts,
  accountToken,
  addAccount,
  forgetToken,
  removeAccount,
  storeToken,
  updateAccount,
} from '../../../lib/background/account-store';
import { accountsItem } from '../../../lib/background/stored-items';

const secrets = () => createStore('inbox-companion', 'secrets');

/** The storage the previous version left: its settings in storage.local, the token beside them. */
const previousSettings = {
  apiBaseUrl: 'https://social.example/api',
  siteOrigin: 'https://social.example',
  profilePath: '/users/:username',
  profileAnchor: '.actions',
  pollIntervalSeconds: 120,
  desktopNotifications: true,
  unreadOnly: true,
};

describe('accounts and their tokens', () => {
  beforeEach(() => fakeBrowser.reset());

  it('keeps each account its own token, bound to its API origin, and out of storage.local', async () => {
    const work = await addAccount({ ...DEFAULT_ADDRESSES, username: 'ann' }, ' tok-work ');
    const home = await addAccount(
      { ...DEFAULT_ADDRESSES, apiBaseUrl: 'https://home.example/api', siteOrigin: 'https://home.example/' },
      'tok-home',
    );
    expect(await accountToken(work)).toBe('tok-work');
    expect(await accountToken(home)).toBe('tok-home');
    expect(home.siteOrigin).toBe('https://home.example');
    expect(JSON.stringify(await fakeBrowser.storage.local.get(null))).not.toContain('tok-');
    // A token is never handed out for another origin than the one it was given for.
    expect(await accountToken({ id: work.id, apiBaseUrl: 'https://elsewhere.example/api' })).toBeNull();
    expect((await listAccounts()).map(accountLabel)).toEqual(['@ann', 'home.example']);
  });

  it('signs one account out without touching the other, and forgets a removed account', async () => {
    const a = await addAccount(DEFAULT_ADDRESSES, 'tok-a');
    const b = await addAccount(DEFAULT_ADDRESSES, 'tok-b');
    await forgetToken(a.id);
    expect(await accountToken(a)).toBeNull();
    expect(await accountToken(b)).toBe('tok-b');
    await storeToken(a, 'tok-a2');
    await updateAccount(a.id, { username: 'demo', displayName: 'Demo' });
    expect((await listAccounts())[0]).toMatchObject({ id: a.id, username: 'demo', displayName: 'Demo' });
    await removeAccount(a.id);
    expect((await listAccounts()).map((account) => account.id)).toEqual([b.id]);
    expect(await get(`token:${a.id}`, secrets())).toBeUndefined();
  });
});

describe('moving the previous version’s one account into the accounts', () => {
  beforeEach(() => fakeBrowser.reset());

  it('makes the settings and the token in IndexedDB the first account, signed in as before', async () => {
    await fakeBrowser.storage.local.set({ settings: previousSettings });
    await set('token', { token: 'old-tok', apiOrigin: 'https://social.example' }, secrets());
    const [account, ...more] = await accounts();
    expect(more).toEqual([]);
    expect(account).toMatchObject({
      apiBaseUrl: 'https://social.example/api',
      siteOrigin: 'https://social.example',
      profilePath: '/users/:username',
      profileAnchor: '.actions',
    });
    if (!account) throw new Error('no account');
    expect(await accountToken(account)).toBe('old-tok');
    expect(await get('token', secrets())).toBeUndefined();
    // It runs once: a second start finds the accounts as they are.
    expect(await accounts()).toEqual([account]);
  });

  it('moves the older token still in storage.local, and removes it from there', async () => {
    await fakeBrowser.storage.local.set({ token: { token: 'older-tok', apiOrigin: 'http://127.0.0.1:8787' } });
    const [account] = await accounts();
    if (!account) throw new Error('no account');
    expect(account.apiBaseUrl).toBe(DEFAULT_ADDRESSES.apiBaseUrl);
    expect(await accountToken(account)).toBe('older-tok');
    expect(await fakeBrowser.storage.local.get('token')).toEqual({});
  });

  it('keeps addresses typed without a token as a signed-out account, and makes none from nothing', async () => {
    await fakeBrowser.storage.local.set({ settings: previousSettings });
    const [account] = await accounts();
    if (!account) throw new Error('no account');
    expect(account.siteOrigin).toBe('https://social.example');
    expect(await accountToken(account)).toBeNull();

    fakeBrowser.reset();
    expect(await accounts()).toEqual([]);
    expect(await accountsItem.getValue()).toEqual([]);
  });

  it('does not send a token given for another origin than the settings name', async () => {
    await fakeBrowser.storage.local.set({ settings: previousSettings });
    await set('token', { token: 'stray', apiOrigin: 'http://127.0.0.1:8787' }, secrets());
    const [account] = await accounts();
    if (!account) throw new Error('no account');
    expect(await accountToken(account)).toBeNull();
    expect(await get('token', secrets())).toBeUndefined();
  });

  it('keeps an account added while it runs beside the one it moves', async () => {
    await fakeBrowser.storage.local.set({ settings: previousSettings });
    await set('token', { token: 'old-tok', apiOrigin: 'https://social.example' }, secrets());
    const moving = accounts();
    const added = await addAccount({ ...DEFAULT_ADDRESSES }, 'new-tok');
    await moving;
    const all = await listAccounts();
    expect(all.map((account) => account.siteOrigin).sort()).toEqual([
      DEFAULT_ADDRESSES.siteOrigin,
      'https://social.example',
    ]);
    expect(await accountToken(added)).toBe('new-tok');
  });

  it('replaces damaged addresses with the defaults rather than failing', async () => {
    await fakeBrowser.storage.local.set({ settings: { apiBaseUrl: 'ftp://nope', siteOrigin: 42 } });
    await set('token', { token: 'tok', apiOrigin: 'http://127.0.0.1:8787' }, secrets());
    const [account] = await accounts();
    expect(account).toMatchObject({
      apiBaseUrl: DEFAULT_ADDRESSES.apiBaseUrl,
      siteOrigin: DEFAULT_ADDRESSES.siteOrigin,
    });
    if (account) expect(await accountToken(account)).toBe('tok');
  });
});
