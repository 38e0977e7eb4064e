import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { startBackground } from '../../../lib/background';
import { claimFrame, isClaimedFrame, newClaim } from '../../../lib/background/profile-frames';
import { messaging } from '../../../lib/messaging';

let running: AbortController | undefined;
const kept = async () => Object.keys(await fakeBrowser.storage.session.get()).sort();

describe('the buttons’ frames of closed tabs', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    running = new AbortController();
    startBackground({ fetch: (() => Promise.reject(new Error('offline'))) as typeof fetch, signal: running.signal });
  });
  afterEach(() => running?.abort());

  it('are forgotten once their tab is closed, in the worker’s memory and in session storage', async () => {
    const closing = newClaim(7, 'account-1');
    const open = newClaim(8, 'account-1');
    expect(await claimFrame(7, 4, closing)).toBe('account-1');
    await vi.waitFor(async () => expect(await kept()).toEqual(['profileFrame:7', 'profileFrame:8']));
    await fakeBrowser.tabs.onRemoved.trigger(7, { windowId: 1, isWindowClosing: false });
    await vi.waitFor(async () => expect(await kept()).toEqual(['profileFrame:8']));
    expect(await isClaimedFrame(7, 4)).toBe(false);
    expect(await claimFrame(7, 4, closing)).toBeUndefined();
    // The other tab's buttons still act.
    expect(await claimFrame(8, 5, open)).toBe('account-1');
    expect(await isClaimedFrame(8, 5)).toBe(true);
  });
});
