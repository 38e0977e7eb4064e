import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { accountsItem, keepInMemory } from '../../../lib/background/stored-items';

const account = (id: string) => ({
  id,
  apiBaseUrl: 'http://127.0.0.1:8787/api',
  siteOrigin: 'http://127.0.0.1:8787',
  profilePath: '/@:username',
  profileAnchor: 'main',
  username: null,
  displayName: null,
});

describe('the items the worker keeps in memory', () => {
  beforeEach(() => fakeBrowser.reset());

  it('tell a watcher of a change written elsewhere only once a read gives the new value', async () => {
    const kept = new AbortController();
    keepInMemory(kept.signal);
    const heard: number[] = [];
    // Watched before anything was read, as the worker watches the accounts when it starts.
    accountsItem.watch(async () => {
      heard.push((await accountsItem.getValue())?.length ?? 0);
    }, kept.signal);
    expect(await accountsItem.getValue()).toBeNull();
    // The options page saves an account: the worker syncs its runtimes from the accounts it reads.
    await fakeBrowser.storage.local.set({ accounts: [account('one')] });
    await expect.poll(() => heard).toEqual([1]);
    await fakeBrowser.storage.local.set({ accounts: [account('one'), account('two')] });
    await expect.poll(() => heard).toEqual([1, 2]);
    kept.abort();
  });
});
