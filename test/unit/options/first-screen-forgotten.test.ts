// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { listAccounts } from '../../../lib/accounts';
import { removeAccount, signOut } from '../../../lib/options/account-actions';
import { COPY_KEY } from '../../../lib/popup/first-screen-copy-key';
import { signedIn } from '../../support/background';
import { json } from '../../support/recording-fetch';
import { background, openOptionsPage } from './options-background';

/** The popup paints its last first screen from a copy; an account signed out must not show in it. */
describe('the popup’s kept first screen, from the options page', () => {
  beforeEach(async () => {
    openOptionsPage();
    await signedIn('tok');
    background(json({}), json({ count: 0 }));
    localStorage.setItem(COPY_KEY, JSON.stringify({ html: '<div><article>Alice mentioned you</article></div>' }));
  });

  it('is forgotten when an account signs out', async () => {
    const [account] = await listAccounts();
    if (!account) throw new Error('no account');
    expect((await signOut(account)).signedOut).toBe(true);
    expect(localStorage.getItem(COPY_KEY)).toBeNull();
  });

  it('is forgotten when an account is removed', async () => {
    const [account] = await listAccounts();
    if (!account) throw new Error('no account');
    expect((await removeAccount(account)).tone).toBe('info');
    expect(localStorage.getItem(COPY_KEY)).toBeNull();
  });
});
