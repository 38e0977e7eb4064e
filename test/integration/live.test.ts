/**
 * The background's live channel against the real reference service: an operator call moves the
 * badge with no check of the count, and a revoked token shows as refused at once. On PGlite, and
 * on PostgreSQL when DATABASE_URL is set.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { WebSocketConstructor } from '../../lib/api';
import { startBackground } from '../../lib/background';
import {
  accountStatusItem,
  liveModeItem,
  settingsItem,
  statusItem,
  unreadByTypeItem,
} from '../../lib/background/stored-items';
import { messaging } from '../../lib/messaging';
import { ACCOUNT, badge, signedIn } from '../support/background';
import { manualClock } from '../support/manual-clock';
import { deliver, popupSender } from '../support/messages';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../support/service';
import { until } from '../support/until';

/** The badge's text as the worker draws it, one entry per write from now on. */
function badgeTexts() {
  const texts: string[] = [];
  const { setBadgeText } = fakeBrowser.action;
  vi.spyOn(fakeBrowser.action, 'setBadgeText').mockImplementation((details) => {
    texts.push(details.text ?? '');
    return setBadgeText(details);
  });
  return texts;
}

const unreadByType = async () =>
  Object.values((await unreadByTypeItem(ACCOUNT).getValue()) ?? { unknown: -1 }).reduce((sum, n) => sum + n, 0);

/** A fetch that notes each request's method and path in `requests`, then sends it. */
const recordingInto =
  (requests: string[]): typeof fetch =>
  async (input, init) => {
    const request = new Request(input, init);
    requests.push(`${request.method} ${new URL(request.url).pathname}`);
    return fetch(request);
  };

/** "Mark all read" as the popup asks for it. */
async function markAllRead() {
  const { value, error } = await deliver(
    'inbox.markRead',
    { account: ACCOUNT, ids: 'all', unread: 3, seen: [] },
    popupSender,
  );
  expect(error).toBeUndefined();
  expect(value).toMatchObject({ success: true, count: 3, unreadCount: 0 });
}

describe.each(BACKENDS)('the live badge against the reference service on %s', (backend) => {
  let service: TestService;
  let operator: string;
  let me: TestUser;
  let running: AbortController;
  const requests: string[] = [];
  const recordingFetch = recordingInto(requests);

  const operatorCall = (path: string, body: unknown) =>
    fetch(`${service.apiBaseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    service = await startTestService({ backend });
    operator = await service.server.admin.issueOperatorToken();
  });
  afterAll(() => service.close());

  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    requests.length = 0;
    me = await service.newUser('live');
    await service.fillInbox(me.username, 3);
    // Known by name, so the only requests are the ones these tests are about.
    await signedIn(me.token, { apiBaseUrl: service.apiBaseUrl, siteOrigin: service.origin }, ACCOUNT, me.username);
    running = new AbortController();
    startBackground({
      signal: running.signal,
      fetch: recordingFetch,
      WebSocket: WebSocket as unknown as WebSocketConstructor,
      clock: manualClock(),
      isOnline: () => true,
    });
    await until(async () => (await liveModeItem.getValue()) === 'live');
  });
  afterEach(() => running.abort());

  it('moves the badge when the operator adds a notification, with no check of the count', async () => {
    expect((await badge()).text).toBe('3');
    const before = requests.length;
    const answer = await operatorCall('/operator/notifications', {
      username: me.username,
      type: 'system',
      text: 'Maintenance tonight',
    });
    expect(answer.status).toBe(201);
    await until(async () => (await badge()).text === '4');
    expect(requests.slice(before)).toEqual([]);
    expect((await badge()).title).toContain('Live');
  });

  it('marks all read with one request and no check of the count, drawing the badge once', async () => {
    expect((await badge()).text).toBe('3');
    const before = requests.length;
    const texts = badgeTexts();
    await markAllRead();
    // The channel's count after the change has come, and the counts by type with it.
    await until(async () => (await unreadByType()) === 0);
    // As the status changes, the popup asks for the counts by type of its chips.
    const chips = await deliver('inbox.countByType', { account: ACCOUNT }, popupSender);
    expect(Object.values(chips.value ?? { unknown: -1 }).every((n) => n === 0)).toBe(true);
    expect(requests.slice(before)).toEqual(['POST /api/inbox/read']);
    expect(texts).toEqual(['']);
    expect((await badge()).title).toContain('Live');
    vi.restoreAllMocks();
  });

  it('counts only the priority ones when the person chooses so, moving with each arrival the channel brings', async () => {
    const [ada, bo] = [await service.newUser('ada'), await service.newUser('bo')];
    await settingsItem.setValue({ ...(await settingsItem.getValue()), badgePriority: true });
    await until(async () => (await badge()).title.includes('0 priority of 3 unread'));
    expect((await badge()).text).toBe('');
    // Three of Ada's opened in the popup soon after they came make hers priority.
    const at = new Date().toISOString();
    for (const n of [1, 2, 3]) {
      const about = [{ actor: ada.username, url: `${service.origin}/@${me.username}/posts/${n}`, at }];
      expect(
        (await deliver('priority.note', { account: ACCOUNT, signal: 'open', about }, popupSender)).error,
      ).toBeUndefined();
    }

    const before = requests.length;
    const deliverFrom = (actor: string) =>
      operatorCall('/operator/notifications', { username: me.username, type: 'mention', text: 'hi', actor });
    expect((await deliverFrom(ada.username)).status).toBe(201);
    await until(async () => (await badge()).title.includes('1 priority of 4 unread'));
    expect((await badge()).text).toBe('1');
    expect((await deliverFrom(bo.username)).status).toBe(201);
    await until(async () => (await badge()).title.includes('1 priority of 5 unread'));
    expect((await badge()).text).toBe('1');
    expect((await badge()).title).toContain('Live');
    // The count came over the channel; the background read the newest unread ones to count them, nothing else.
    expect(new Set(requests.slice(before))).toEqual(new Set(['GET /api/inbox/fetch']));
  });

  it('follows triage made elsewhere', async () => {
    await me.client.inbox.markRead('all');
    await until(async () => (await badge()).text === '');
  });

  it('shows the token as refused at once when the operator revokes it', async () => {
    const answer = await operatorCall('/operator/tokens/revoke', { token: me.token });
    expect(await answer.json()).toEqual({ revoked: true });
    await until(async () => (await statusItem.getValue()).kind === 'unauthorized');
    expect((await badge()).text).toBe('!');
    expect(await liveModeItem.getValue()).toBe('off');
  });
});

describe('mark all read without the live channel', () => {
  let service: TestService;
  let me: TestUser;
  let running: AbortController;
  const requests: string[] = [];

  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    requests.length = 0;
    me = await service.newUser('polled');
    await service.fillInbox(me.username, 3);
    await signedIn(me.token, { apiBaseUrl: service.apiBaseUrl, siteOrigin: service.origin }, ACCOUNT, me.username);
    running = new AbortController();
    // No WebSocket: a background that cannot hold the channel polls.
    startBackground({
      signal: running.signal,
      fetch: recordingInto(requests),
      clock: manualClock(),
      isOnline: () => true,
    });
    await until(async () => (await badge()).text === '3');
  });
  afterEach(() => {
    running.abort();
    vi.restoreAllMocks();
  });

  it('confirms the count with one check after the request, and draws the badge’s text once', async () => {
    const before = requests.length;
    const checked = (await accountStatusItem(ACCOUNT).getValue()).checkedAt;
    const texts = badgeTexts();
    await markAllRead();
    await until(async () => (await accountStatusItem(ACCOUNT).getValue()).checkedAt !== checked);
    expect(requests.slice(before)).toEqual(['POST /api/inbox/read', 'GET /api/inbox/count']);
    expect(texts).toEqual(['']);
    expect((await badge()).text).toBe('');
  });
});
