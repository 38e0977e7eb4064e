import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { storage } from 'wxt/utils/storage';
import {
  followStored,
  readStored,
  snapshotStored,
  storedItem,
  storedKey,
  watchStored,
  writeStored,
} from '../../lib/stored';

const COUNT = storedKey<number>('local:count', 0);
const NAMES = storedKey<string[] | null>('local:names', null);
const UNDO = storedKey<string | null>('session:undo', null);

describe('stored values', () => {
  beforeEach(() => fakeBrowser.reset());

  it('reads what the previous versions stored with WXT’s storage, and they read what it writes', async () => {
    await storage.defineItem<number>('local:count', { fallback: 0, version: 1 }).setValue(7);
    await storage.defineItem<string | null>('session:undo', { fallback: null, version: 1 }).setValue('token');
    expect(await readStored(COUNT, UNDO, NAMES)).toEqual([7, 'token', null]);

    await writeStored(NAMES, ['ada']);
    expect(await storage.getItem('local:names')).toEqual(['ada']);
    expect(await fakeBrowser.storage.session.get(null)).toEqual({ undo: 'token' });
  });

  it('reads the fallback where nothing is stored, and writing null removes the value', async () => {
    expect(await readStored(COUNT)).toEqual([0]);
    await writeStored(COUNT, 3);
    await writeStored(COUNT, null);
    expect(await fakeBrowser.storage.local.get(null)).toEqual({});
    expect(await storedItem(COUNT).getValue()).toBe(0);
  });

  it('reads many values from one snapshot, as storage was when it was taken', async () => {
    await writeStored(COUNT, 2);
    await writeStored(UNDO, 'token');
    const read = await snapshotStored();
    await writeStored(COUNT, 3);
    expect(read(COUNT)).toBe(2);
    expect(read(NAMES)).toBeNull();
    // Session storage is not in the snapshot: it is read when asked for.
    expect(await read(UNDO)).toBe('token');
  });

  it('tells a watcher of each change with the value before, not of a write of the same value', async () => {
    const heard: [number, number][] = [];
    const watching = new AbortController();
    watchStored(COUNT, (value, previous) => heard.push([value, previous]), watching.signal);
    await writeStored(COUNT, 1);
    await writeStored(COUNT, 1);
    await writeStored(NAMES, ['ada']);
    await storedItem(COUNT).removeValue();
    watching.abort();
    await writeStored(COUNT, 5);
    expect(heard).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it('follows a value from what is stored now through each change', async () => {
    await writeStored(COUNT, 2);
    const heard: number[] = [];
    const following = new AbortController();
    followStored(COUNT, (value) => heard.push(value), following.signal);
    await expect.poll(() => heard).toEqual([2]);
    await writeStored(COUNT, 4);
    following.abort();
    await writeStored(COUNT, 6);
    expect(heard).toEqual([2, 4]);
  });
});
