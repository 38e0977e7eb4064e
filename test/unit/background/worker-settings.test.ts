import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { startBackground } from '../../../lib/background';
import { messaging } from '../../../lib/messaging';
import { DEFAULT_SETTINGS } from '../../../lib/settings';
import { pollAlarm, signedIn } from '../../support/background';
import { deliver, popupSender } from '../../support/messages';
import { json } from '../../support/recording-fetch';

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

let running: AbortController | undefined;

/** The worker started, or started again after the browser stopped it: its memory is new. */
async function startWorker() {
  running?.abort();
  running = new AbortController();
  const fetch = async () => json({ count: 2 });
  startBackground({ fetch: fetch as typeof globalThis.fetch, isOnline: () => true, signal: running.signal });
  await settle();
}

/** The options page (or another computer, through sync) saves a check every `seconds`. */
async function savedElsewhere(seconds: number) {
  await fakeBrowser.storage.local.set({ settings: { ...DEFAULT_SETTINGS, pollIntervalSeconds: seconds } });
  await settle();
}

/** Seconds from now until the next check the worker scheduled. */
const nextCheckIn = async () => Math.round(((await pollAlarm())?.scheduledTime ?? 0) - Date.now()) / 1000;

/** Every read of the stored settings, in either storage area, from now on. */
function settingsReads() {
  const reads: unknown[] = [];
  for (const area of [browser.storage.local, browser.storage.sync]) {
    const get = area.get.bind(area);
    vi.spyOn(area, 'get').mockImplementation(((keys?: unknown) => {
      const names = typeof keys === 'string' ? [keys] : Array.isArray(keys) ? keys : [keys];
      if (keys === null || keys === undefined || names.includes('settings')) reads.push(keys);
      return get(keys as never);
    }) as typeof area.get);
  }
  return reads;
}

describe('the settings the worker answers from', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    vi.restoreAllMocks();
    await signedIn('secret-token', { pollIntervalSeconds: 60 }, undefined, 'demo');
  });
  afterEach(() => running?.abort());

  it('are read from memory, and a change saved elsewhere is in the next message’s answer', async () => {
    await startWorker();
    await deliver('status.refresh', undefined, popupSender);
    expect(await nextCheckIn()).toBeCloseTo(60, 0);
    await savedElsewhere(300);
    const reads = settingsReads();
    await deliver('status.refresh', undefined, popupSender);
    expect(await nextCheckIn()).toBeCloseTo(300, 0);
    await deliver('status.refresh', undefined, popupSender);
    expect(reads).toEqual([]);
  });

  it('are read from storage again by a worker started again, which then keeps them', async () => {
    await startWorker();
    await deliver('status.refresh', undefined, popupSender);
    running?.abort();
    // Saved while the browser had stopped the worker: no worker heard the change.
    await savedElsewhere(120);
    await startWorker();
    const reads = settingsReads();
    await deliver('status.refresh', undefined, popupSender);
    expect(await nextCheckIn()).toBeCloseTo(120, 0);
    const afterStart = reads.length;
    await deliver('status.refresh', undefined, popupSender);
    expect(reads).toHaveLength(afterStart);
  });
});
