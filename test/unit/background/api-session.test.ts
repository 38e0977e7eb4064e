import { createStore, get } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSession, tokenItem } from '../../../lib/background/api-session';

const secrets = () => get('token', createStore('inbox-companion', 'secrets'));

describe('where the token is kept', () => {
  beforeEach(() => fakeBrowser.reset());

  it('keeps it out of storage.local, which Firefox lets content scripts read', async () => {
    await createSession().signIn(' tok-1 ');
    expect(await fakeBrowser.storage.local.get(null)).not.toHaveProperty('token');
    expect(JSON.stringify(await fakeBrowser.storage.local.get(null))).not.toContain('tok-1');
    expect(await secrets()).toEqual({ token: 'tok-1', apiOrigin: 'http://127.0.0.1:8787' });
    expect(await createSession().token()).toBe('tok-1');
  });

  it('moves a token stored by the previous version out of storage.local on first read', async () => {
    // The shape the previous version wrote, under its key.
    await fakeBrowser.storage.local.set({ token: { token: 'old-tok', apiOrigin: 'http://127.0.0.1:8787' } });
    expect(await createSession().token()).toBe('old-tok');
    expect(await fakeBrowser.storage.local.get('token')).toEqual({});
    expect(await secrets()).toEqual({ token: 'old-tok', apiOrigin: 'http://127.0.0.1:8787' });
    expect(await createSession().token()).toBe('old-tok');
  });

  it('forgets it everywhere on sign-out, and ignores a damaged old value', async () => {
    await fakeBrowser.storage.local.set({ token: { token: 'old-tok', apiOrigin: 'http://127.0.0.1:8787' } });
    await createSession().signOut();
    expect(await tokenItem.getValue()).toBeNull();
    expect(await fakeBrowser.storage.local.get('token')).toEqual({});
    await fakeBrowser.storage.local.set({ token: 'just a string' });
    expect(await tokenItem.getValue()).toBeNull();
  });
});
