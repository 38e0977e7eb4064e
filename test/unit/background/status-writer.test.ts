import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { statusWriter } from '../../../lib/background/status-writer';
import { accountStatusItem, statusItem } from '../../../lib/background/stored-items';
import type { ConnectionStatus } from '../../../lib/messaging';
import { ACCOUNT, badge, signedIn } from '../../support/background';

const ok = (count: number): ConnectionStatus => ({
  kind: 'ok',
  count,
  checkedAt: 1,
  nextCheckAt: null,
  detail: null,
});

describe('the status writer', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    await signedIn();
  });
  afterEach(() => vi.restoreAllMocks());

  it('leaves the badge on the newest count when a render that read the older one finishes last', async () => {
    const writer = statusWriter(ACCOUNT);
    await writer.set(ok(3));
    // The next read of the account's status answers as storage was, but only once released.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { get } = fakeBrowser.storage.local;
    let held = false;
    vi.spyOn(fakeBrowser.storage.local, 'get').mockImplementation(async (keys) => {
      const answer = await get(keys as never);
      if (!held && JSON.stringify(keys ?? null).includes(`connectionStatus:${ACCOUNT}`)) {
        held = true;
        await released;
      }
      return answer;
    });
    const older = writer.set(ok(4));
    await vi.waitFor(() => expect(held).toBe(true));
    const newer = writer.set(ok(5));
    // The newer status is stored, and everything that can go on without the held read has.
    await vi.waitFor(async () => expect((await accountStatusItem(ACCOUNT).getValue()).count).toBe(5));
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();
    await Promise.all([older, newer]);
    expect((await badge()).text).toBe('5');
    expect((await statusItem.getValue()).count).toBe(5);
  });

  it('counts the statuses it writes, per account, so a check can tell a newer count came while it waited', async () => {
    const writer = statusWriter(ACCOUNT);
    const before = writer.writes();
    await writer.set(ok(3));
    await statusWriter(ACCOUNT).showCount(2);
    await writer.setLiveMode('live');
    expect(writer.writes()).toBe(before + 2);
    expect(statusWriter('another-account').writes()).toBe(0);
  });

  it('writes nothing when a count shown at once is the count on show already', async () => {
    const writer = statusWriter(ACCOUNT);
    await writer.set(ok(3));
    const before = writer.writes();
    await writer.showCount(3);
    expect(writer.writes()).toBe(before);
    await writer.showCount(2);
    expect(writer.writes()).toBe(before + 1);
  });

  it('counts the live channel’s counts apart, so a triage action can tell one came while it waited', async () => {
    const writer = statusWriter(ACCOUNT);
    const before = writer.liveCounts();
    await writer.showLiveCount(ok(4));
    await writer.set(ok(5));
    expect(writer.liveCounts()).toBe(before + 1);
    expect((await badge()).text).toBe('5');
  });

  describe('where the browser draws no badge (Firefox for Android, whose menu lists the button by its title)', () => {
    const onPhone = () =>
      vi.spyOn(fakeBrowser.runtime, 'getPlatformInfo').mockResolvedValue({ os: 'android', arch: 'arm' } as never);

    it('says the unread count in the title, on one line, and follows it as it changes', async () => {
      onPhone();
      const writer = statusWriter(ACCOUNT);
      await writer.set(ok(3));
      expect((await badge()).title).toBe('Inbox Companion: 3 unread notifications');
      await writer.showCount(1);
      expect((await badge()).title).toBe('Inbox Companion: 1 unread notification');
      await writer.showCount(0);
      expect((await badge()).title).toBe('Inbox Companion: No unread notifications');
    });

    it('says the account’s state in words when its count cannot be had', async () => {
      onPhone();
      await statusWriter(ACCOUNT).set({ ...ok(4), kind: 'unauthorized' });
      expect((await badge()).title).toBe(
        'Inbox Companion: Your token was not accepted. Open the settings to sign in again.',
      );
    });

    it('keeps the tooltip of several lines on a desktop', async () => {
      vi.spyOn(fakeBrowser.runtime, 'getPlatformInfo').mockResolvedValue({ os: 'linux', arch: 'x86-64' } as never);
      await statusWriter(ACCOUNT).set(ok(3));
      expect((await badge()).title.split('\n').slice(0, 2)).toEqual(['Inbox Companion', '3 unread notifications']);
      expect((await badge()).text).toBe('3');
    });
  });
});
