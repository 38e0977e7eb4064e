import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';

/** The module as a worker that has just started finds it: nothing in its memory, which it keeps until the test ends. */
const freshWorker = async () => {
  vi.resetModules();
  const frames = await import('../../../lib/background/profile-frames');
  const { keepInMemory } = await import('../../../lib/background/stored-items');
  const running = new AbortController();
  keepInMemory(running.signal);
  onTestFinished(() => running.abort());
  return frames;
};

beforeEach(() => fakeBrowser.reset());

describe('the tab’s buttons’ frame', () => {
  it('is known at once by the worker that made the claim, with no storage to wait for', async () => {
    const frames = await freshWorker();
    const get = vi.spyOn(browser.storage.session, 'get');
    const claim = frames.newClaim(7, 'account-1');
    expect(await frames.claimFrame(7, 4, claim)).toBe('account-1');
    expect(await frames.isClaimedFrame(7, 4)).toBe(true);
    expect(await frames.isClaimedFrame(7, 9)).toBe(false);
    expect(get).not.toHaveBeenCalled();
  });

  it('is still known to a worker started after the claim was made and brought', async () => {
    const before = await freshWorker();
    const claim = before.newClaim(7, 'account-1');
    await before.claimFrame(7, 4, claim);
    await vi.waitFor(async () => expect(Object.keys(await browser.storage.session.get())).toHaveLength(1));
    const after = await freshWorker();
    await vi.waitFor(async () => expect(await after.isClaimedFrame(7, 4)).toBe(true));
    expect(await after.claimFrame(7, 5, 'guessed')).toBeUndefined();
    expect(await after.isClaimedFrame(7, 5)).toBe(false);
  });

  it('takes no claim but the tab’s latest, and a new claim leaves the earlier frame unable to act', async () => {
    const frames = await freshWorker();
    const first = frames.newClaim(7, 'account-1');
    await frames.claimFrame(7, 4, first);
    const second = frames.newClaim(7, 'account-1');
    expect(await frames.isClaimedFrame(7, 4)).toBe(false);
    expect(await frames.claimFrame(7, 4, first)).toBeUndefined();
    expect(await frames.claimFrame(3, 4, second)).toBeUndefined();
    expect(await frames.claimFrame(7, 5, second)).toBe('account-1');
  });
});
