import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSession } from '../../../lib/background/api-session';
import { createNotifier } from '../../../lib/background/notifier';
import { DEFAULT_SETTINGS } from '../../../lib/settings';
import { ACCOUNT, signedIn } from '../../support/background';
import { notificationFixture, uuid } from '../../support/fixtures';
import { json, recordingFetch } from '../../support/recording-fetch';

const id = uuid;
const item = (n: number, url?: string) => notificationFixture(n, url === undefined ? {} : { url });
const page = (...ns: number[]) => json({ data: ns.map((n) => item(n)), cursor: null });
const on = { ...DEFAULT_SETTINGS, desktopNotifications: true };

function setup(...replies: Parameters<typeof recordingFetch>) {
  const wire = recordingFetch(...replies);
  const session = createSession(ACCOUNT, { fetch: wire.fetch, retries: 0 });
  return { wire, notifier: createNotifier(ACCOUNT, async () => (await session.client()).client) };
}

const openedTabs = async () => (await fakeBrowser.tabs.query({})).map((tab) => tab.url).filter(Boolean);
const shown = () => Object.values(fakeBrowser.notifications.getAllCreateOptions());

describe('desktop notifications', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    await signedIn();
    await fakeBrowser.permissions.request({ permissions: ['notifications'] });
  });

  it('stay silent while turned off, and send nothing', async () => {
    const { wire, notifier } = setup();
    await notifier.onCount(1, 5, DEFAULT_SETTINGS);
    expect(wire.requests).toHaveLength(0);
    expect(shown()).toEqual([]);
  });

  it('stay silent without the notifications permission', async () => {
    await fakeBrowser.permissions.remove({ permissions: ['notifications'] });
    const { wire, notifier } = setup();
    await notifier.onCount(1, 5, on);
    expect(wire.requests).toHaveLength(0);
  });

  it('do not announce what was already there when they were turned on, then announce one new one by itself', async () => {
    const { notifier } = setup(page(2, 1), page(3, 2, 1));
    await notifier.onCount(null, 2, on);
    expect(shown()).toEqual([]);
    await notifier.onCount(2, 3, on);
    expect(shown()).toEqual([expect.objectContaining({ title: 'User 3', message: 'User 3 replied' })]);
  });

  it('group several new ones into one notification', async () => {
    const { notifier } = setup(page(1), page(4, 3, 2, 1));
    await notifier.onCount(null, 1, on);
    await notifier.onCount(1, 4, on);
    expect(shown()).toEqual([expect.objectContaining({ title: '3 new notifications' })]);
    expect(shown()[0]?.message.split('\n')).toEqual(['User 4 replied', 'User 3 replied', 'User 2 replied']);
  });

  it('do not ask the service when the count did not rise', async () => {
    const { wire, notifier } = setup(page(1));
    await notifier.onCount(null, 1, on);
    await notifier.onCount(1, 1, on);
    await notifier.onCount(1, 0, on);
    expect(wire.requests).toHaveLength(1);
  });

  it('open the notification’s page when clicked, and mark it read through the popup’s path', async () => {
    const { notifier } = setup(page(1), page(2, 1));
    const marked: unknown[] = [];
    const actions = { markRead: async (...args: unknown[]) => marked.push(args), snooze: async () => undefined };
    await notifier.onCount(null, 1, on);
    await notifier.onCount(1, 2, on);
    const [notificationId] = Object.keys(fakeBrowser.notifications.getAllCreateOptions());
    await notifier.onClicked(notificationId ?? '', actions, true);
    expect(await openedTabs()).toEqual(['http://127.0.0.1:8787/@user2']);
    expect(marked).toEqual([[ACCOUNT, [id(2)], false]]);
    expect(shown()).toEqual([]);
  });

  it('open the page and leave it unread when "mark read when opened" is off', async () => {
    const { wire, notifier } = setup(page(1), page(2, 1));
    const marked: unknown[] = [];
    const actions = { markRead: async (...args: unknown[]) => marked.push(args), snooze: async () => undefined };
    await notifier.onCount(null, 1, on);
    await notifier.onCount(1, 2, on);
    const [notificationId] = Object.keys(fakeBrowser.notifications.getAllCreateOptions());
    await notifier.onClicked(notificationId ?? '', actions, false);
    expect(await openedTabs()).toEqual(['http://127.0.0.1:8787/@user2']);
    expect(marked).toEqual([]);
    expect(wire.requests).toHaveLength(2);
  });

  it('never open a link that is not http(s): the inbox opens instead', async () => {
    const { notifier } = setup(page(1), json({ data: [item(2, 'javascript:alert(1)'), item(1)], cursor: null }));
    await notifier.onCount(null, 1, on);
    await notifier.onCount(1, 2, on);
    const [notificationId] = Object.keys(fakeBrowser.notifications.getAllCreateOptions());
    await notifier.onClicked(notificationId ?? '', { markRead: async () => 0, snooze: async () => 0 }, true);
    expect(await openedTabs()).toEqual([fakeBrowser.runtime.getURL('/popup.html')]);
  });
});
