import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Notification, NotificationType } from '../../../lib/api';
import { createSession } from '../../../lib/background/api-session';
import {
  ALERT_WINDOW_MS,
  alertFlushAlarmName,
  createDigest,
  createNotifier,
  digestStateItem,
  QUIET_HOURS_ALARM,
} from '../../../lib/background/notifier';
import { getInboxFilter } from '../../../lib/inbox-filter';
import { quietHoursEnd } from '../../../lib/quiet-hours';
import { DEFAULT_SETTINGS, localTimeZone, type Settings } from '../../../lib/settings';
import { ACCOUNT, anotherAccount, signedIn } from '../../support/background';
import { notificationFixture } from '../../support/fixtures';
import { manualClock } from '../../support/manual-clock';
import { recordingFetch } from '../../support/recording-fetch';

const on: Settings = { ...DEFAULT_SETTINGS, desktopNotifications: true };
/** Quiet all day, every day, but for the last minute of it; the clock below never shows that minute. */
const quiet: Settings = {
  ...on,
  quietHours: { enabled: true, days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '23:59' },
};
const START = Date.parse('2026-11-23T12:00:00Z');

let made = 0;
function arrival(type: NotificationType): Notification {
  made += 1;
  return notificationFixture(made, {
    type,
    text: `${type} ${made}`,
    createdAt: new Date(START + made * 1000).toISOString(),
  });
}

function setup(account = ACCOUNT) {
  const clock = manualClock(START);
  const session = createSession(account, { fetch: recordingFetch().fetch, retries: 0 });
  const getClient = async () => (await session.client()).client;
  return { clock, getClient, notifier: createNotifier(account, getClient, { clock }), digest: createDigest(clock) };
}

const ALERT_FLUSH_ALARM = alertFlushAlarmName(ACCOUNT);

const shown = () => Object.values(fakeBrowser.notifications.getAllCreateOptions());
const alarm = (name: string) => fakeBrowser.alarms.get(name);
const fire = async (name: string) => {
  const found = await alarm(name);
  if (!found) throw new Error(`No ${name} alarm.`);
  await fakeBrowser.alarms.onAlarm.trigger(found);
};

describe('desktop alerts', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    made = 0;
    await signedIn();
    await fakeBrowser.permissions.request({ permissions: ['notifications'] });
  });

  it('come for mentions and replies but not for likes, by default', async () => {
    const { notifier } = setup();
    await notifier.onArrival(arrival('like'), on);
    expect(shown()).toEqual([]);
    await notifier.onArrival(arrival('mention'), on);
    expect(shown()).toEqual([expect.objectContaining({ message: 'mention 2' })]);
  });

  it('follow the person’s choice of types', async () => {
    const { notifier } = setup();
    const likesOnly = { ...on, alertTypes: { ...on.alertTypes, like: true, mention: false } };
    await notifier.onArrival(arrival('mention'), likesOnly);
    await notifier.onArrival(arrival('like'), likesOnly);
    expect(shown()).toEqual([expect.objectContaining({ message: 'like 2' })]);
  });

  it('collapse arrivals within a few seconds into one alert with a count, never a burst', async () => {
    const { notifier, clock } = setup();
    const create = vi.spyOn(fakeBrowser.notifications, 'create');
    await notifier.onArrival(arrival('mention'), on);
    clock.advance(1_000);
    await notifier.onArrival(arrival('reply'), on);
    clock.advance(1_000);
    await notifier.onArrival(arrival('mention'), on);
    // The first shows at once; the others wait for the window to close.
    expect(create).toHaveBeenCalledTimes(1);
    expect((await alarm(ALERT_FLUSH_ALARM))?.scheduledTime).toBe(START + ALERT_WINDOW_MS);
    clock.advance(ALERT_WINDOW_MS);
    await vi.waitFor(() => expect(create).toHaveBeenCalledTimes(2));
    expect(shown()).toEqual([expect.objectContaining({ title: '3 new notifications' })]);
    expect(shown()[0]?.message.split('\n')).toEqual(['mention 3', 'reply 2', 'mention 1']);
  });

  it('show what collapsed when the alarm wakes a worker that was stopped meanwhile', async () => {
    const first = setup();
    await first.notifier.onArrival(arrival('mention'), on);
    first.clock.advance(500);
    await first.notifier.onArrival(arrival('mention'), on);
    // A new worker: the first one's timer is gone, its state and alarm are not.
    const clock = manualClock(START + ALERT_WINDOW_MS + 1_000);
    const restarted = createNotifier(ACCOUNT, first.getClient, { clock });
    fakeBrowser.alarms.onAlarm.addListener((fired) => {
      if (fired.name === ALERT_FLUSH_ALARM) void restarted.onFlushAlarm();
    });
    await fire(ALERT_FLUSH_ALARM);
    await vi.waitFor(() => expect(shown()).toEqual([expect.objectContaining({ title: '2 new notifications' })]));
  });

  it('stay silent during quiet hours, and give one digest when they end', async () => {
    const { notifier, digest } = setup();
    fakeBrowser.alarms.onAlarm.addListener((fired) => {
      if (fired.name === QUIET_HOURS_ALARM) void digest.onAlarm(quiet);
    });
    for (const type of ['mention', 'like', 'reply', 'mention', 'like', 'like'] as const) {
      await notifier.onArrival(arrival(type), quiet);
    }
    expect(shown()).toEqual([]);
    expect((await alarm(QUIET_HOURS_ALARM))?.scheduledTime).toBe(
      quietHoursEnd(quiet.quietHours, START, localTimeZone()),
    );
    await fire(QUIET_HOURS_ALARM);
    await vi.waitFor(() =>
      expect(shown()).toEqual([
        expect.objectContaining({
          title: 'While you were away',
          message: 'While you were away: 2 mentions, 1 reply, 3 likes',
        }),
      ]),
    );
    expect(await alarm(QUIET_HOURS_ALARM)).toBeUndefined();
  });

  it('open the popup on the digest’s types when it is clicked', async () => {
    const { notifier, digest } = setup();
    await notifier.onArrival(arrival('mention'), quiet);
    await notifier.onArrival(arrival('like'), quiet);
    await digest.onAlarm(on);
    const [id] = Object.keys(fakeBrowser.notifications.getAllCreateOptions());
    await digest.onClicked(id ?? '');
    expect(await getInboxFilter()).toEqual(['mention', 'like']);
    const tabs = (await fakeBrowser.tabs.query({})).map((tab) => tab.url).filter(Boolean);
    expect(tabs).toEqual([fakeBrowser.runtime.getURL('/popup.html')]);
  });

  it('give no digest when only types that raise no alert came', async () => {
    const { notifier, digest } = setup();
    await notifier.onArrival(arrival('like'), quiet);
    await digest.onAlarm(on);
    expect(shown()).toEqual([]);
    expect((await digestStateItem.getValue()).held).toBeNull();
  });

  it('give the digest at once when the person turns quiet hours off', async () => {
    const { notifier, digest } = setup();
    await notifier.onArrival(arrival('reply'), quiet);
    await digest.onSettings(on);
    expect(shown()).toEqual([expect.objectContaining({ message: 'While you were away: 1 reply' })]);
    expect(await alarm(QUIET_HOURS_ALARM)).toBeUndefined();
  });

  it('move the digest’s alarm when the quiet hours move', async () => {
    const { notifier, digest } = setup();
    await notifier.onArrival(arrival('reply'), quiet);
    const later = { ...quiet, quietHours: { ...quiet.quietHours, start: '00:00', end: '23:58' } };
    await digest.onSettings(later);
    expect(shown()).toEqual([]);
    expect((await alarm(QUIET_HOURS_ALARM))?.scheduledTime).toBe(
      quietHoursEnd(later.quietHours, START, localTimeZone()),
    );
  });

  it('alert again as usual once quiet hours are over', async () => {
    const { notifier, digest } = setup();
    await notifier.onArrival(arrival('mention'), quiet);
    await digest.onAlarm(on);
    await notifier.onArrival(arrival('mention'), on);
    expect(shown().map((options) => options.message)).toEqual(['While you were away: 1 mention', 'mention 2']);
  });

  it('give one digest for what came on every account during quiet hours', async () => {
    await anotherAccount('account-2', 'second-token');
    const first = setup();
    const second = setup('account-2');
    await first.notifier.onArrival(arrival('mention'), quiet);
    await second.notifier.onArrival(arrival('mention'), quiet);
    await second.notifier.onArrival(arrival('reply'), quiet);
    expect(shown()).toEqual([]);
    await first.digest.onAlarm(on);
    expect(shown()).toEqual([expect.objectContaining({ message: 'While you were away: 2 mentions, 1 reply' })]);
  });

  it('collapse each account’s arrivals apart, each alert opening its own account’s notification', async () => {
    await anotherAccount('account-2', 'second-token');
    const first = setup();
    const second = setup('account-2');
    await first.notifier.onArrival(arrival('mention'), on);
    await second.notifier.onArrival(arrival('mention'), on);
    expect(Object.keys(fakeBrowser.notifications.getAllCreateOptions()).sort()).toEqual([
      `${ACCOUNT}/inbox-${notificationFixture(1).id}`,
      `account-2/inbox-${notificationFixture(2).id}`,
    ]);
  });
});
