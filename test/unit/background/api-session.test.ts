import { createStore, get } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSession } from '../../../lib/background/api-session';
import { anotherAccount, signedIn } from '../../support/background';
import { json, recordingFetch } from '../../support/recording-fetch';

const secrets = (id: string) => get(`token:${id}`, createStore('inbox-companion', 'secrets'));

describe('each account’s session', () => {
  beforeEach(() => fakeBrowser.reset());

  it('keeps the token out of storage.local, which Firefox lets content scripts read', async () => {
    await anotherAccount('a', null);
    await createSession('a').signIn(' tok-1 ');
    expect(JSON.stringify(await fakeBrowser.storage.local.get(null))).not.toContain('tok-1');
    expect(await secrets('a')).toEqual({ token: 'tok-1', apiOrigin: 'http://127.0.0.1:8787' });
    expect(await createSession('a').token()).toBe('tok-1');
  });

  it('sends each account’s own token to its own API, and signs one out without the other', async () => {
    await signedIn('tok-a', {}, 'a');
    await anotherAccount('b', 'tok-b', {
      apiBaseUrl: 'http://localhost:9000/api',
      siteOrigin: 'http://localhost:9000',
    });
    const wire = recordingFetch(json({ count: 1 }), json({ count: 2 }));
    const a = createSession('a', { fetch: wire.fetch, retries: 0 });
    const b = createSession('b', { fetch: wire.fetch, retries: 0 });
    await (await a.client()).client.inbox.count();
    await (await b.client()).client.inbox.count();
    expect(wire.requests.map((r) => `${r.url.origin} ${r.headers.get('authorization')}`)).toEqual([
      'http://127.0.0.1:8787 Bearer tok-a',
      'http://localhost:9000 Bearer tok-b',
    ]);
    await a.signOut();
    expect(await a.token()).toBeNull();
    expect(await b.token()).toBe('tok-b');
  });

  it('has no token for an account that does not exist or was removed', async () => {
    expect(await createSession('nobody').token()).toBeNull();
    await createSession('nobody').signIn('tok');
    expect(await secrets('nobody')).toBeUndefined();
  });
});
