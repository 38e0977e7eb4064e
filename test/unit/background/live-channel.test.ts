import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { startBackground } from '../../../lib/background';
import { liveAlarmName, PONG_TIMEOUT_MS } from '../../../lib/background/live-channel';
import { ALERT_WINDOW_MS, notifierStateItem } from '../../../lib/background/notifier';
import { pollAlarmName } from '../../../lib/background/poller';
import { liveModeItem, statusItem } from '../../../lib/background/stored-items';
import { messaging, removeBroadcastListeners } from '../../../lib/messaging';
import { onBroadcast } from '../../../lib/messaging/on-broadcast';
import { LIVE_SAFETY_NET_SECONDS, PING_MAX_MS } from '../../../lib/poll-schedule';
import { updateSettings } from '../../../lib/settings';
import { ACCOUNT, badge, signedIn, storedToken } from '../../support/background';
import { type FakeLiveService, startFakeLiveService } from '../../support/fake-live-service';
import { notificationFixture, uuid } from '../../support/fixtures';
import { manualClock } from '../../support/manual-clock';
import { deliver, EXTENSION_ID, optionsSender, popupSender, sendMessagesAs } from '../../support/messages';
import { until } from '../../support/until';

let service: FakeLiveService;
let clock: ReturnType<typeof manualClock>;
let running: AbortController;
/** While set, answers to count checks reach the background only once it resolves. */
let countAnswersHeld: Promise<void> | null;
/** Likewise for answers to ticket calls. */
let ticketAnswersHeld: Promise<void> | null;
/** Likewise for answers to mark read. */
let readAnswersHeld: Promise<void> | null;

/** Tickets asked for: each ask is one call, however often the client retried it (with its key). */
const tickets = () => new Set(service.ticketKeys).size;
/** Lets what the background started run on, for asserting that something did not happen. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
/** A promise, and the function that resolves it. */
function held() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}
const polls = () => service.requests.filter((r) => r === 'GET /inbox/count').length;
const alarmIn = async (name: string) => {
  const alarm = await fakeBrowser.alarms.get(name);
  return alarm ? alarm.scheduledTime - clock.now() : null;
};

function start(options: { WebSocket?: null } = {}) {
  running = new AbortController();
  const background = startBackground({
    signal: running.signal,
    fetch: async (input, init) => {
      const answer = await service.fetch(input, init);
      if (countAnswersHeld && new Request(input, init).url.endsWith('/inbox/count')) await countAnswersHeld;
      if (ticketAnswersHeld && new Request(input, init).url.endsWith('/inbox/live/ticket')) await ticketAnswersHeld;
      if (readAnswersHeld && String(input instanceof Request ? input.url : input).endsWith('/inbox/read')) {
        await readAnswersHeld;
      }
      return answer;
    },
    WebSocket: options.WebSocket === null ? undefined : service.WebSocket,
    clock,
    now: clock.now,
    random: () => 0.5,
    isOnline: () => true,
  });
  return background;
}

async function startLive(count = 3) {
  service.count = count;
  await signedIn('secret-token', { apiBaseUrl: service.apiBaseUrl, siteOrigin: 'http://127.0.0.1:8787' });
  start();
  await service.opened(1);
  await until(async () => (await liveModeItem.getValue()) === 'live');
}

describe('the live channel in the background', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    removeBroadcastListeners();
    service = await startFakeLiveService();
    clock = manualClock();
    countAnswersHeld = null;
    ticketAnswersHeld = null;
    readAnswersHeld = null;
  });
  afterEach(async () => {
    running?.abort();
    vi.restoreAllMocks();
    await service.close();
  });

  it('opens when signed in, shows the count at once, says it is live, and makes polling a safety net', async () => {
    await startLive(4);
    expect((await badge()).text).toBe('4');
    expect((await badge()).title).toContain('Live: new notifications show at once.');
    expect(await alarmIn(pollAlarmName(ACCOUNT))).toBe(LIVE_SAFETY_NET_SECONDS * 1000);
    service.setCount(9);
    await until(async () => (await badge()).text === '9');
    expect(tickets()).toBe(1);
  });

  it('shows the newest count when a second comes while the first is still being put on show', async () => {
    sendMessagesAs({ id: EXTENSION_ID, url: `chrome-extension://${EXTENSION_ID}/background.js` });
    const heard: string[][] = [];
    onBroadcast('inbox.arrived', ({ ids }) => heard.push(ids));
    service.count = 3;
    await signedIn('secret-token', { apiBaseUrl: service.apiBaseUrl, siteOrigin: 'http://127.0.0.1:8787' });
    // Putting the first count on show stops where it records that the account is live.
    const { set } = fakeBrowser.storage.local;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let goingLive = false;
    vi.spyOn(fakeBrowser.storage.local, 'set').mockImplementation(async (items) => {
      if (!goingLive && (items as Record<string, unknown>)[`liveMode:${ACCOUNT}`] === 'live') {
        goingLive = true;
        await released;
      }
      return set(items);
    });
    start();
    await until(() => goingLive);
    // The second count, then a notification: once the popup hears of it, the count was handled.
    service.setCount(4);
    service.send({ type: 'notification', notification: notificationFixture(1) });
    await until(() => heard.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();
    await until(async () => (await liveModeItem.getValue()) === 'live');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await badge()).text).toBe('4');
    expect((await statusItem.getValue()).count).toBe(4);
  });

  it('keeps a live count that comes while a check is out, rather than the older count the check brings back', async () => {
    await startLive(3);
    let answer!: () => void;
    countAnswersHeld = new Promise((resolve) => {
      answer = resolve;
    });
    const checks = polls();
    const checked = deliver('status.refresh', undefined, popupSender);
    // The service answers the check with 3, then a notification arrives and the channel says 4
    // before the check's answer reaches the background.
    await until(() => polls() === checks + 1);
    service.setCount(4);
    await until(async () => (await badge()).text === '4');
    answer();
    expect((await checked).value?.count).toBe(4);
    expect((await badge()).text).toBe('4');
  });

  /** The popup marks one unread notification read. */
  const markOneRead = () => deliver('inbox.markRead', { account: ACCOUNT, ids: [uuid(1)], unread: 1 }, popupSender);

  /** The counts written from now on to the account's status and to the status of all accounts, as `key count`. */
  function countWrites(): string[] {
    const keys = [`connectionStatus:${ACCOUNT}`, 'connectionStatus'];
    const written: string[] = [];
    const { set } = fakeBrowser.storage.local;
    vi.spyOn(fakeBrowser.storage.local, 'set').mockImplementation(async (items) => {
      const record = items as Record<string, { count?: number }>;
      for (const key of keys) if (key in record) written.push(`${key} ${record[key]?.count}`);
      return set(items);
    });
    return written;
  }

  it('shows a mark read from the popup with one write of the count, and lets the channel confirm it without a check', async () => {
    await startLive(3);
    await settle();
    const written = countWrites();
    const checks = polls();
    const { value, error } = await markOneRead();
    expect(error).toBeUndefined();
    expect(value?.unreadCount).toBe(2);
    await until(async () => (await badge()).text === '2');
    await settle();
    expect(written).toEqual([`connectionStatus:${ACCOUNT} 2`, 'connectionStatus 2']);
    expect(polls()).toBe(checks);
  });

  it('takes the channel’s count that comes before the answer to a mark read as the count after it', async () => {
    await startLive(3);
    await settle();
    const written = countWrites();
    const checks = polls();
    const { promise, release } = held();
    readAnswersHeld = promise;
    const marked = markOneRead();
    await until(async () => (await badge()).text === '2');
    release();
    const answer = await marked;
    expect(answer.error).toBeUndefined();
    expect(answer.value?.unreadCount).toBe(2);
    await settle();
    expect((await badge()).text).toBe('2');
    expect(written).toEqual([`connectionStatus:${ACCOUNT} 2`, 'connectionStatus 2']);
    expect(polls()).toBe(checks);
  });

  it('checks the count after a mark read while the channel is down', async () => {
    service.count = 3;
    await signedIn('secret-token', { apiBaseUrl: service.apiBaseUrl, siteOrigin: 'http://127.0.0.1:8787' });
    start({ WebSocket: null });
    await until(async () => (await badge()).text === '3');
    const checks = polls();
    await markOneRead();
    await until(() => polls() === checks + 1);
    await until(async () => (await badge()).text === '2');
  });

  it('closes every channel for good when the background stops, and asks for no ticket after', async () => {
    await startLive(3);
    running.abort();
    await until(() => service.open === 0);
    clock.advance(10 * 60_000);
    await settle();
    expect(tickets()).toBe(1);
    expect(await fakeBrowser.alarms.get(liveAlarmName(ACCOUNT))).toBeUndefined();
  });

  it('closes the channel of an account that is removed', async () => {
    await startLive(3);
    await deliver('accounts.remove', { account: ACCOUNT }, optionsSender);
    await until(() => service.open === 0);
    clock.advance(10 * 60_000);
    await settle();
    expect(tickets()).toBe(1);
  });

  it('pings every 20–25 s and stays open while the service answers', async () => {
    await startLive();
    clock.advance(PING_MAX_MS);
    await until(() => service.received[0]?.length === 1);
    // The pong came back: the next ping is due 20–25 s from now, and no pong is awaited.
    await until(() => clock.timers().join() === String(22_500));
    clock.advance(PING_MAX_MS);
    await until(() => service.received[0]?.length === 2);
    expect(service.received[0]).toEqual(['{"type":"ping"}', '{"type":"ping"}']);
    expect(service.open).toBe(1);
    expect(await liveModeItem.getValue()).toBe('live');
  });

  it('takes an unanswered ping for a lost channel: polls meanwhile and reconnects with a new ticket', async () => {
    await startLive();
    service.answerPings = false;
    clock.advance(PING_MAX_MS);
    await until(() => service.received[0]?.length === 1);
    // To the moment the pong is late, and not on to the reconnection that follows it.
    expect(clock.timers()).toEqual([PONG_TIMEOUT_MS - (PING_MAX_MS - 22_500)]);
    clock.advance(clock.timers()[0] as number);
    const pollsBefore = polls();
    await until(async () => (await liveModeItem.getValue()) === 'reconnecting');
    await until(() => polls() === pollsBefore + 1);
    expect((await badge()).title).toContain('reconnecting');
    service.answerPings = true;
    clock.advance(1_000);
    await service.opened(2);
    await until(async () => (await liveModeItem.getValue()) === 'live');
    expect(tickets()).toBe(2);
  });

  it('reconnects after a drop with exponential backoff while polling as before', async () => {
    await startLive();
    service.refuse = { status: 503, code: 'service_unavailable' };
    service.dropAll();
    await until(async () => (await alarmIn(liveAlarmName(ACCOUNT))) !== null);
    // random() = 0.5: three quarters of 1 s, then of 2 s, then of 4 s.
    expect(await alarmIn(liveAlarmName(ACCOUNT))).toBe(750);
    await until(async () => (await statusItem.getValue()).kind === 'unreachable');
    expect(await alarmIn(pollAlarmName(ACCOUNT))).toBeLessThanOrEqual(60_000 * 2);
    const checks = polls();
    clock.advance(750);
    await until(() => tickets() === 2);
    await until(async () => (await alarmIn(liveAlarmName(ACCOUNT))) === 1_500);
    clock.advance(1_500);
    await until(() => tickets() === 3);
    await until(async () => (await alarmIn(liveAlarmName(ACCOUNT))) === 3_000);
    // Failed attempts leave the checks to the poller's own schedule.
    expect(polls()).toBe(checks);
    service.refuse = null;
    clock.advance(3_000);
    await service.opened(2);
    await until(async () => (await liveModeItem.getValue()) === 'live');
    expect((await badge()).text).toBe('3');
  });

  it('reconnects when the reconnection alarm wakes a worker that lost its timers', async () => {
    await startLive();
    service.dropAll();
    await until(async () => (await alarmIn(liveAlarmName(ACCOUNT))) !== null);
    const alarm = await fakeBrowser.alarms.get(liveAlarmName(ACCOUNT));
    clock.advance(1_000);
    await fakeBrowser.alarms.onAlarm.trigger(alarm as never);
    await service.opened(2);
    expect(tickets()).toBe(2);
  });

  it('falls back to polling where the background cannot hold a channel, and says so', async () => {
    service.count = 2;
    await signedIn('secret-token', { apiBaseUrl: service.apiBaseUrl, siteOrigin: 'http://127.0.0.1:8787' });
    start({ WebSocket: null });
    await until(async () => (await badge()).text === '2');
    await until(async () => (await liveModeItem.getValue()) === 'unavailable');
    expect((await badge()).title).toContain('Live updates are not available in this browser');
    expect(tickets()).toBe(0);
    expect(await alarmIn(pollAlarmName(ACCOUNT))).toBe(60_000);
  });

  it('shows a refused ticket as a refused token, keeps the token, and tries no more', async () => {
    service.refuse = { status: 401, code: 'unauthenticated' };
    await signedIn('secret-token', { apiBaseUrl: service.apiBaseUrl, siteOrigin: 'http://127.0.0.1:8787' });
    start();
    await until(async () => (await statusItem.getValue()).kind === 'unauthorized');
    expect((await badge()).text).toBe('!');
    expect(await storedToken()).toMatchObject({ token: 'secret-token' });
    clock.advance(10 * 60_000);
    expect(await alarmIn(liveAlarmName(ACCOUNT))).toBeNull();
    expect(tickets()).toBe(1);
  });

  it('on close code 4401 shows the token as refused at once, as a refused poll does', async () => {
    await startLive();
    service.refuse = { status: 401, code: 'unauthenticated' };
    await service.closeAll(4401, 'revoked');
    await until(async () => (await statusItem.getValue()).kind === 'unauthorized');
    expect((await badge()).text).toBe('!');
    expect((await badge()).title).toContain('Your token was not accepted');
    expect(await storedToken()).toMatchObject({ token: 'secret-token' });
    expect(await liveModeItem.getValue()).toBe('off');
    clock.advance(10 * 60_000);
    expect(await alarmIn(liveAlarmName(ACCOUNT))).toBeNull();
    expect(tickets()).toBe(1);
  });

  it('closes when the person signs out, and opens a new channel for a new sign-in', async () => {
    await startLive();
    await deliver('accounts.signOut', { account: ACCOUNT }, optionsSender);
    await until(() => service.open === 0);
    expect(await liveModeItem.getValue()).toBe('off');
    expect((await badge()).title).not.toContain('Live');
    await deliver('accounts.signIn', { account: ACCOUNT, token: 'other-token' }, optionsSender);
    await service.opened(2);
    expect(tickets()).toBe(2);
    await until(() => service.open === 1);
  });

  it('opens a new channel when another token is stored while one is open', async () => {
    await startLive();
    await deliver('accounts.signIn', { account: ACCOUNT, token: 'other-token' }, optionsSender);
    await service.opened(2);
    await until(() => service.open === 1);
    expect(tickets()).toBe(2);
  });

  it('keeps one channel however a drop, checks, reconnection alarms and a worker start come together', async () => {
    await startLive();
    const alarm = { name: liveAlarmName(ACCOUNT), scheduledTime: clock.now() } as never;
    await service.closeAll(1013, 'Try again later.');
    await Promise.all([
      deliver('status.refresh', undefined, popupSender),
      deliver('status.refresh', undefined, popupSender),
      fakeBrowser.alarms.onAlarm.trigger(alarm),
      fakeBrowser.alarms.onAlarm.trigger(alarm),
      fakeBrowser.runtime.onStartup.trigger(),
    ]);
    await until(async () => {
      clock.advance(1_000);
      return service.open === 1 && (await liveModeItem.getValue()) === 'live';
    });
    await fakeBrowser.alarms.onAlarm.trigger(alarm);
    await deliver('status.refresh', undefined, popupSender);
    clock.advance(PING_MAX_MS);
    await settle();
    expect(service.mostOpen).toBe(1);
    expect(service.open).toBe(1);
    expect(tickets()).toBe(2);
  });

  it('gives a token stored while a channel is opening the channel, after closing what the old token opened', async () => {
    await signedIn('secret-token', { apiBaseUrl: service.apiBaseUrl, siteOrigin: 'http://127.0.0.1:8787' });
    const ticketAnswer = held();
    ticketAnswersHeld = ticketAnswer.promise;
    start();
    await until(() => tickets() === 1);
    await deliver('accounts.signIn', { account: ACCOUNT, token: 'other-token' }, optionsSender);
    await until(() => polls() >= 2);
    ticketAnswersHeld = null;
    ticketAnswer.release();
    await until(() => tickets() === 2);
    await service.opened(2);
    await until(async () => service.open === 1 && (await liveModeItem.getValue()) === 'live');
    expect(service.ticketTokens).toEqual(['secret-token', 'other-token']);
  });

  it.each(['too_many_channels', 'rate_limited'])(
    'waits out Retry-After when the ticket is refused with 429 %s, the count on the badge meanwhile',
    async (code) => {
      service.count = 3;
      service.refuseTickets = { status: 429, code, retryAfter: 60 };
      await signedIn('secret-token', { apiBaseUrl: service.apiBaseUrl, siteOrigin: 'http://127.0.0.1:8787' });
      start();
      await until(() => tickets() === 1);
      // random() = 0.5: the 60 s asked for and a quarter of them again, rather than the backoff's 750 ms.
      await until(async () => (await alarmIn(liveAlarmName(ACCOUNT))) === 75_000);
      await until(async () => (await badge()).text === '3');
      expect(await liveModeItem.getValue()).toBe('reconnecting');

      service.count = 5;
      await deliver('status.refresh', undefined, popupSender);
      await until(async () => (await badge()).text === '5');
      clock.advance(74_999);
      await settle();
      expect(tickets()).toBe(1);

      service.refuseTickets = null;
      clock.advance(1);
      await service.opened(1);
      await until(async () => (await liveModeItem.getValue()) === 'live');
      expect(tickets()).toBe(2);
      expect(service.mostOpen).toBe(1);
    },
  );

  it('asks for no ticket sooner when a check succeeds while a refusal is still being recorded', async () => {
    service.refuseTickets = { status: 429, code: 'too_many_channels', retryAfter: 60 };
    await signedIn('secret-token', { apiBaseUrl: service.apiBaseUrl, siteOrigin: 'http://127.0.0.1:8787' });
    // Recording that the channel is reconnecting waits until the check below has been heard.
    const { set } = fakeBrowser.storage.local;
    const recording = held();
    let recordingHeld = false;
    vi.spyOn(fakeBrowser.storage.local, 'set').mockImplementation(async (items) => {
      if ((items as Record<string, unknown>)[`liveMode:${ACCOUNT}`] === 'reconnecting') {
        recordingHeld = true;
        await recording.promise;
      }
      return set(items);
    });
    start();
    await until(() => recordingHeld);
    const checks = polls();
    await deliver('status.refresh', undefined, popupSender);
    // The check the worker's start began may still be out too: any check after it will do.
    await until(() => polls() > checks);
    await settle();
    recording.release();
    await until(async () => (await liveModeItem.getValue()) === 'reconnecting');
    await settle();
    expect(tickets()).toBe(1);
    expect(await alarmIn(liveAlarmName(ACCOUNT))).toBe(75_000);
  });

  it('tells an open popup of each notification that arrives', async () => {
    sendMessagesAs({ id: EXTENSION_ID, url: `chrome-extension://${EXTENSION_ID}/background.js` });
    const heard: string[][] = [];
    onBroadcast('inbox.arrived', ({ ids }) => heard.push(ids));
    await startLive();
    service.send({ type: 'notification', notification: notificationFixture(1) });
    await until(() => heard.length === 1);
    expect(heard).toEqual([[notificationFixture(1).id]]);
  });

  it('shows desktop notifications at once, collapsing those that arrive together into one update', async () => {
    await fakeBrowser.permissions.request({ permissions: ['notifications'] });
    await startLive();
    await updateSettings({ desktopNotifications: true });
    const shown = () => Object.values(fakeBrowser.notifications.getAllCreateOptions());
    service.send({ type: 'notification', notification: notificationFixture(1) });
    await until(() => shown().length === 1);
    expect(shown()[0]).toMatchObject({ title: 'User 1', message: 'User 1 replied' });
    clock.advance(1_000);
    service.send({ type: 'notification', notification: notificationFixture(2) });
    await until(async () => (await notifierStateItem(ACCOUNT).getValue()).burst?.pending === 1);
    expect(shown()).toEqual([expect.objectContaining({ title: 'User 1' })]);
    clock.advance(ALERT_WINDOW_MS);
    await until(() => shown()[0]?.title === '2 new notifications');
    expect(shown()).toHaveLength(1);
    clock.advance(10_000);
    service.send({ type: 'notification', notification: notificationFixture(3) });
    await until(() => shown().length === 2);
    expect(shown()[1]).toMatchObject({ title: 'User 3' });
  });
});
