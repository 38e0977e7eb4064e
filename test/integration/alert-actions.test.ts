/**
 * The buttons on a desktop alert, clicked as Chrome reports it (`notifications.onButtonClicked`),
 * in the background against the real reference service: each acts as the popup's buttons do.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { startBackground } from '../../lib/background';
import { digestStateItem, notifierStateItem } from '../../lib/background/notifier';
import { pollAlarmName } from '../../lib/background/poller';
import { lastUndo } from '../../lib/background/triage';
import { messaging } from '../../lib/messaging';
import { type Settings, updateSettings } from '../../lib/settings';
import { ACCOUNT, anotherAccount, badge } from '../support/background';
import { startTestService, type TestService, type TestUser } from '../support/service';
import { until } from '../support/until';

let service: TestService;
let me: TestUser;
let ada: TestUser;
let running: AbortController | undefined;

const alerts = () => fakeBrowser.notifications.getAllCreateOptions();
const alertIds = async () => Object.keys(await fakeBrowser.notifications.getAll());

async function poll() {
  await fakeBrowser.alarms.onAlarm.trigger({
    name: pollAlarmName(ACCOUNT),
    scheduledTime: Date.now(),
    persistAcrossSessions: true,
  });
}

/** A mention from Ada arrives, the background checks, and the one alert for it is on screen. */
async function mentionArrives(text: string): Promise<string> {
  const before = new Set(await alertIds());
  await service.deliver({ username: me.username, type: 'mention', text, actor: ada.username });
  let id: string | undefined;
  await until(async () => {
    await poll();
    id = (await alertIds()).find((each) => !before.has(each));
    return id;
  });
  return id as string;
}

const unread = () => me.client.inbox.count();

describe('buttons on desktop alerts', () => {
  beforeAll(async () => {
    service = await startTestService();
    ada = await service.newUser('ada', { displayName: 'Ada Lovelace' });
  });
  afterAll(() => service.close());

  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    me = await service.newUser('me');
    await service.deliver({ username: me.username, type: 'mention', text: 'Already there', actor: ada.username });
    await anotherAccount(ACCOUNT, me.token, { apiBaseUrl: service.apiBaseUrl, siteOrigin: service.origin });
    await fakeBrowser.permissions.request({ permissions: ['notifications'] });
  });
  afterEach(() => running?.abort());

  /** The background with alerts on, once it has looked at the inbox: alerts start from what it held then. */
  async function start(settings: Partial<Settings> = {}) {
    await updateSettings({ desktopNotifications: true, ...settings });
    running = new AbortController();
    startBackground({ isOnline: () => true, signal: running.signal });
    await until(async () => {
      await poll();
      return (await notifierStateItem(ACCOUNT).getValue()).newest !== null;
    });
    await until(async () => (await badge()).text === '1');
  }

  it('“Mark read” marks that notification read, drops the badge at once, closes the alert and offers Undo', async () => {
    await start();
    const id = await mentionArrives('Ada mentioned you');
    expect(alerts()[id]?.buttons?.map((button) => button.title)).toEqual(['Mark read', 'Snooze 1 h']);
    await until(async () => (await badge()).text === '2');

    await fakeBrowser.notifications.onButtonClicked.trigger(id, 0);
    await until(async () => (await badge()).text === '1');
    expect(await unread()).toBe(1);
    const [newest] = (await me.client.inbox.fetch()).data;
    expect(newest).toMatchObject({ text: 'Ada mentioned you', read: true });
    expect(await alertIds()).not.toContain(id);
    expect(await lastUndo()).toMatchObject({ account: ACCOUNT, action: 'markRead', count: 1 });
  });

  it('“Snooze 1 h” takes it out of the inbox and the badge until an hour from now', async () => {
    await start();
    const id = await mentionArrives('Ada asked a question');
    const clicked = Date.now();
    await fakeBrowser.notifications.onButtonClicked.trigger(id, 1);
    await until(async () => (await badge()).text === '1');
    const [snoozed] = (await me.client.inbox.fetch({ snoozed: true })).data;
    expect(snoozed?.text).toBe('Ada asked a question');
    const wakes = Date.parse(snoozed?.snoozedUntil ?? '') - clicked;
    expect(wakes).toBeGreaterThan(3_590_000);
    expect(wakes).toBeLessThan(3_660_000);
    expect(await alertIds()).not.toContain(id);
    expect(await lastUndo()).toMatchObject({ action: 'snooze', count: 1 });
  });

  it('the quiet hours’ digest offers “Mark all N read” for what came, and marks only that', async () => {
    await start({ quietHours: { enabled: true, days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '23:59' } });
    for (const text of ['First while away', 'Second while away']) {
      await service.deliver({ username: me.username, type: 'reply', text, actor: ada.username });
    }
    await until(async () => {
      await poll();
      return (await badge()).text === '3';
    });
    await until(async () => (await digestStateItem.getValue()).held?.reply === 2);
    expect(await alertIds()).toEqual([]);

    await updateSettings({ quietHours: { enabled: false, days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '23:59' } });
    let digest: string | undefined;
    await until(async () => {
      digest = (await alertIds()).find((each) => each.startsWith('digest-'));
      return digest;
    });
    expect(alerts()[digest as string]?.buttons).toEqual([{ title: 'Mark all 2 read' }]);

    await fakeBrowser.notifications.onButtonClicked.trigger(digest as string, 0);
    await until(async () => (await badge()).text === '1');
    const texts = (await me.client.inbox.fetch({ unreadOnly: true })).data.map((item) => item.text);
    expect(texts).toEqual(['Already there']);
    expect(await alertIds()).toEqual([]);
  });

  it('shows no buttons in Firefox, where a click still opens the notification', async () => {
    Object.assign(fakeBrowser.runtime, { getBrowserInfo: async () => ({ name: 'Firefox' }) });
    try {
      await start();
      const id = await mentionArrives('Ada, in Firefox');
      expect(alerts()[id]).toBeDefined();
      expect(alerts()[id]?.buttons).toBeUndefined();
    } finally {
      delete (fakeBrowser.runtime as { getBrowserInfo?: unknown }).getBrowserInfo;
    }
  });
});
