import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { messaging } from '../../../lib/messaging';
import { ACCOUNT, badge, signedIn } from '../../support/background';
import { answerMessages, deliver, popupSender } from '../../support/messages';
import { json } from '../../support/recording-fetch';

/**
 * What one "Mark all read" costs the worker in storage calls and badge writes, once the account
 * is running: each call is a round trip to the browser between the click and the badge.
 */
function countCalls() {
  const reads: string[] = [];
  const writes: string[] = [];
  const badges: string[] = [];
  for (const name of ['local', 'session', 'sync'] as const) {
    const area = fakeBrowser.storage[name];
    const { get, set, remove } = area;
    vi.spyOn(area, 'get').mockImplementation((keys?: unknown) => {
      reads.push(`${name}:${JSON.stringify(keys ?? null)}`);
      return get(keys as never);
    });
    vi.spyOn(area, 'set').mockImplementation((items: Record<string, unknown>) => {
      writes.push(...Object.keys(items).map((key) => `${name}:${key}`));
      return set(items);
    });
    vi.spyOn(area, 'remove').mockImplementation((keys: string | string[]) => {
      writes.push(`${name}:${JSON.stringify(keys)}`);
      return remove(keys);
    });
  }
  const { setBadgeText, setTitle, setBadgeBackgroundColor } = fakeBrowser.action;
  vi.spyOn(fakeBrowser.action, 'setBadgeText').mockImplementation((details) => {
    badges.push(details.text ?? '');
    return setBadgeText(details);
  });
  const drawn: string[] = [];
  vi.spyOn(fakeBrowser.action, 'setTitle').mockImplementation((details) => {
    drawn.push('title');
    return setTitle(details);
  });
  vi.spyOn(fakeBrowser.action, 'setBadgeBackgroundColor').mockImplementation((details) => {
    drawn.push('color');
    return setBadgeBackgroundColor(details);
  });
  return { reads, writes, badges, drawn };
}

const ok = (count: number) => ({ kind: 'ok' as const, count, checkedAt: 1, nextCheckAt: null, detail: null });

describe('mark all read in the worker', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    await signedIn('secret-token', {}, ACCOUNT, 'demo');
  });
  afterEach(() => vi.restoreAllMocks());

  it('reads the accounts, their status and the outbox from memory and draws the badge once', async () => {
    const replies = [json({ success: true, count: 3, undo: 'op3.sig' }), json({ success: true, count: 0, undo: null })];
    const { runtime } = answerMessages(async () => replies.shift() ?? json({}));
    const running = await runtime();
    // The live channel confirms the count: no check goes out after the action.
    vi.spyOn(running.poller, 'poll').mockResolvedValue(ok(0));
    await running.status.set(ok(3));
    expect((await badge()).text).toBe('3');
    // A first message starts what the worker keeps; the one measured finds it ready.
    await deliver('status.account', { account: ACCOUNT }, popupSender);

    const calls = countCalls();
    const { value } = await deliver('inbox.markRead', { account: ACCOUNT, ids: 'all', seen: [] }, popupSender);
    expect(value?.unreadCount).toBe(0);
    expect((await badge()).text).toBe('');
    const accountState = calls.reads.filter((read) => /accounts|connectionStatus|liveMode|outbox/.test(read));
    expect(accountState).toEqual([]);
    // One drawing of the badge: its text and its tooltip change, its colour stays.
    expect(calls.badges).toEqual(['']);
    expect(calls.drawn).toEqual(['title']);
    expect(calls.writes.filter((write) => /connectionStatus|liveMode/.test(write))).toHaveLength(2);
  });

  it('hears a status and an account written elsewhere before the next message', async () => {
    const { runtime } = answerMessages(async () => json({}));
    await (await runtime()).status.set(ok(3));
    expect((await deliver('status.account', { account: ACCOUNT }, popupSender)).value?.count).toBe(3);
    await fakeBrowser.storage.local.set({ [`connectionStatus:${ACCOUNT}`]: ok(7) });
    expect((await deliver('status.account', { account: ACCOUNT }, popupSender)).value?.count).toBe(7);
    await fakeBrowser.storage.local.set({ accounts: [] });
    const { error } = await deliver('status.account', { account: ACCOUNT }, popupSender);
    expect(error).toMatchObject({ code: 'unknown_account' });
  });
});
