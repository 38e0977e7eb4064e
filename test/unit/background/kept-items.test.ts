import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { accountStatusItem, accountsItem, keepInMemory } from '../../../lib/background/stored-items';
import type { ConnectionStatus } from '../../../lib/messaging';

const account = (id: string) => ({
  id,
  apiBaseUrl: 'http://127.0.0.1:8787/api',
  siteOrigin: 'http://127.0.0.1:8787',
  profilePath: '/@:username',
  profileAnchor: 'main',
  username: null,
  displayName: null,
});

const status = (count: number): ConnectionStatus => ({
  kind: 'ok',
  count,
  checkedAt: 1_000,
  nextCheckAt: 61_000,
  detail: null,
});

/** Stores objects as Chrome does: their keys come back in order, not in the order written. */
function keysInOrderLikeChrome() {
  const set = fakeBrowser.storage.local.set.bind(fakeBrowser.storage.local);
  const inOrder = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, inOrder((value as Record<string, unknown>)[key])]),
        )
      : value;
  vi.spyOn(fakeBrowser.storage.local, 'set').mockImplementation((items) => set(inOrder(items) as typeof items));
}

/** The items kept in memory until the test ends, however it ends, as a worker keeps them while it runs. */
function keptForTheTest() {
  const kept = new AbortController();
  keepInMemory(kept.signal);
  onTestFinished(() => kept.abort());
  return kept;
}

describe('the items the worker keeps in memory', () => {
  beforeEach(() => fakeBrowser.reset());
  afterEach(() => vi.restoreAllMocks());

  it('tell a watcher of a change written elsewhere only once a read gives the new value', async () => {
    const kept = keptForTheTest();
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
  });

  it('keep their newest write when the browser gives an older one back late, keys in another order', async () => {
    keysInOrderLikeChrome();
    const kept = keptForTheTest();
    const item = accountStatusItem('one');
    await item.getValue();
    const read: (number | null)[] = [];
    item.watch(async () => read.push((await item.getValue()).count), kept.signal);
    // Marking all read shows 0, and the live channel's 3 comes before that write is back.
    await Promise.all([item.setValue(status(0)), item.setValue(status(3))]);
    await expect.poll(() => read).toHaveLength(2);
    expect(read).toEqual([3, 3]);
    expect((await item.getValue()).count).toBe(3);
  });

  it('write to storage in the order the writes were made, even while the first read is out', async () => {
    keptForTheTest();
    const item = accountStatusItem('one');
    await Promise.all([item.setValue(status(0)), item.setValue(status(3))]);
    const stored = await fakeBrowser.storage.local.get('connectionStatus:one');
    expect(stored['connectionStatus:one']).toEqual(status(3));
  });
});
