import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { type Account, listAccounts } from '../../../lib/accounts';
import { startBackground } from '../../../lib/background';
import { updateAccount } from '../../../lib/background/account-store';
import { outboxItem } from '../../../lib/background/outbox';
import { pollAlarmName, pollStateItem } from '../../../lib/background/poller';
import { accountsItem, statusItem } from '../../../lib/background/stored-items';
import { messaging } from '../../../lib/messaging';
import { ACCOUNT, anotherAccount, badge, grant, pollAlarm, signedIn, storedToken } from '../../support/background';
import { profileFixture } from '../../support/fixtures';
import { deliver, popupSender } from '../../support/messages';
import { json, problem, recordingFetch } from '../../support/recording-fetch';
import { until } from '../../support/until';

const count = (n: number) => json({ count: n }, { headers: { etag: `"${n}"` } });
const settle = () => new Promise((resolve) => setTimeout(resolve, 250));
const openedTabs = async () => (await fakeBrowser.tabs.query({})).map((tab) => tab.url).filter(Boolean);

let running: AbortController | undefined;

function start(replies: Parameters<typeof recordingFetch>, preset = {}) {
  const wire = recordingFetch(...replies);
  running = new AbortController();
  const background = startBackground({ fetch: wire.fetch, isOnline: () => true, preset, signal: running.signal });
  return { wire, background };
}

describe('background', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
  });
  afterEach(() => running?.abort());

  it('opens the options page on first install when it has no token', async () => {
    start([]);
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'install' } as never);
    await settle();
    expect(await openedTabs()).toContain(fakeBrowser.runtime.getURL('/options.html'));
    expect((await statusItem.getValue()).kind).toBe('signedOut');
  });

  it('a preset build is signed in on install and shows the count with no typing', async () => {
    await grant('http://127.0.0.1:8787');
    // The start-up check and the preset's sign-in may overlap; a sign-in during a check gets a
    // fresh check after it, so one or two checks go out.
    // After its first good check it asks the service who the account is, in any order with those checks.
    const reply = (request: Request) =>
      new URL(request.url).pathname === '/api/me' ? json(profileFixture({ username: 'demo' })) : count(31);
    const { wire } = start([reply, reply, reply], { apiBaseUrl: 'http://127.0.0.1:8787/api', token: 'demo-token' });
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'install' } as never);
    await settle();
    expect(await openedTabs()).toEqual([]);
    expect(await storedToken((await listAccounts())[0]?.id)).toEqual({
      token: 'demo-token',
      apiOrigin: 'http://127.0.0.1:8787',
    });
    expect((await badge()).text).toBe('31');
    expect(wire.requests.length).toBeGreaterThan(0);
    for (const request of wire.requests) expect(request.headers.get('authorization')).toBe('Bearer demo-token');
  });

  it('polls when the alarm fires', async () => {
    await signedIn(undefined, {}, ACCOUNT, 'me');
    const { wire } = start([count(1), count(2)]);
    await settle();
    await fakeBrowser.alarms.onAlarm.trigger({
      name: pollAlarmName(ACCOUNT),
      scheduledTime: Date.now(),
      persistAcrossSessions: true,
    });
    await settle();
    expect(wire.requests).toHaveLength(2);
    expect((await badge()).text).toBe('2');
  });

  it('polls at once on browser start-up', async () => {
    await signedIn(undefined, {}, ACCOUNT, 'me');
    const { wire } = start([count(1), count(6)]);
    await settle();
    await fakeBrowser.runtime.onStartup.trigger();
    await settle();
    expect(wire.requests).toHaveLength(2);
    expect((await badge()).text).toBe('6');
  });

  it('checks nothing again when only an account’s name becomes known', async () => {
    await signedIn(undefined, {}, ACCOUNT, null);
    const { wire } = start([count(3), json(profileFixture({ username: 'carol' })), count(4)]);
    await settle();
    await until(async () => (await listAccounts())[0]?.username === 'carol');
    await settle();
    expect(wire.requests.map((request) => request.url.pathname)).toEqual(['/api/inbox/count', '/api/me']);
  });

  it('polls at once when an account’s API address changes, forgetting its ETag', async () => {
    await signedIn('t', { apiBaseUrl: 'http://127.0.0.1:8787/api' }, ACCOUNT, 'me');
    await grant('http://localhost:8787');
    const { wire } = start([count(1), count(1)]);
    await settle();
    await pollStateItem(ACCOUNT).setValue({ etag: '"1"', failures: 3, hint: null });
    const [account] = await listAccounts();
    await accountsItem.setValue([{ ...(account as Account), apiBaseUrl: 'http://localhost:8787/api' }]);
    await settle();
    // The token was given for 127.0.0.1, so the new address gets none: signed out, nothing sent.
    expect(wire.requests).toHaveLength(1);
    expect((await statusItem.getValue()).kind).toBe('signedOut');
    expect(await pollStateItem(ACCOUNT).getValue()).toEqual({ etag: null, failures: 0, hint: null });
  });

  it('drops the changes waiting for an account’s old API address as soon as the address changes', async () => {
    await signedIn('t', { apiBaseUrl: 'http://127.0.0.1:8787/api' }, ACCOUNT, 'me');
    await grant('http://localhost:8787');
    // The service takes checks but no change reaches it.
    const reply = (request: Request) =>
      request.method === 'GET' ? count(4) : Promise.reject(new TypeError('fetch failed'));
    start(Array.from({ length: 6 }, () => reply));
    await until(async () => (await badge()).text === '4');
    const held = await deliver(
      'inbox.markRead',
      { account: ACCOUNT, ids: [crypto.randomUUID(), crypto.randomUUID()], unread: 2 },
      popupSender,
    );
    expect(held).toMatchObject({ value: { waiting: true, count: 2 } });
    const [account] = await listAccounts();
    await accountsItem.setValue([{ ...(account as Account), apiBaseUrl: 'http://localhost:8787/api' }]);
    // Signed out at the new address: no check answers there, and still the line comes at once.
    await until(async () => (await outboxItem(ACCOUNT).getValue()).dropped.length > 0);
    expect(await outboxItem(ACCOUNT).getValue()).toMatchObject({
      entries: [],
      dropped: [{ kind: 'markRead', why: 'moved', count: 2 }],
    });
  });

  it('registers the profile script, puts it into the site’s open pages and polls once the person grants the site', async () => {
    await signedIn();
    await fakeBrowser.permissions.remove({ origins: ['http://127.0.0.1/*'] });
    const profile = await fakeBrowser.tabs.create({ url: 'http://127.0.0.1:8787/@alice' });
    const injected = vi.spyOn(fakeBrowser.scripting, 'executeScript');
    const { wire } = start([count(5)]);
    await settle();
    expect((await statusItem.getValue()).kind).toBe('noPermission');
    expect(wire.requests).toHaveLength(0);
    expect(injected).not.toHaveBeenCalled();
    await grant('http://127.0.0.1:8787');
    await settle();
    expect(await fakeBrowser.scripting.getRegisteredContentScripts()).toHaveLength(1);
    expect(injected.mock.calls.filter(([{ files }]) => files).map(([{ target }]) => target.tabId)).toEqual([
      profile.id,
    ]);
    expect((await badge()).text).toBe('5');
  });

  it('puts the profile script into the site’s open pages on install and on the browser’s start, not each time the worker wakes', async () => {
    await signedIn();
    const profile = await fakeBrowser.tabs.create({ url: 'http://127.0.0.1:8787/@alice' });
    await fakeBrowser.tabs.create({ url: 'https://elsewhere.example/@alice' });
    const injected = vi.spyOn(fakeBrowser.scripting, 'executeScript');
    start([count(1), count(1), count(1)]);
    await settle();
    expect(injected).not.toHaveBeenCalled();
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'install' } as never);
    await until(() => injected.mock.calls.length > 0);
    const scripts = () => injected.mock.calls.filter(([{ files }]) => files).map(([{ target }]) => target.tabId);
    expect(scripts()).toEqual([profile.id]);
    // The browser's start empties session storage, where the tab's claim was.
    await fakeBrowser.storage.session.clear();
    running?.abort();
    start([count(1), count(1)]);
    await fakeBrowser.runtime.onStartup.trigger();
    await until(() => scripts().length > 1);
    await settle();
    expect(scripts()).toEqual([profile.id, profile.id]);
  });

  it('removes the profile script when the site permission is taken back', async () => {
    await signedIn();
    start([count(1), count(1), count(1)]);
    await settle();
    await grant('http://127.0.0.1:8787');
    await settle();
    await fakeBrowser.permissions.remove({ origins: ['http://127.0.0.1/*'] });
    await settle();
    expect(await fakeBrowser.scripting.getRegisteredContentScripts()).toEqual([]);
  });
});

describe('background with two accounts', () => {
  let running: AbortController | undefined;
  const HOME = { apiBaseUrl: 'http://localhost:9000/api', siteOrigin: 'http://localhost:9000' };

  /** Each account's service answers the count in its own way. */
  function serve(answers: Record<string, () => Response | Promise<Response>>) {
    const asked: string[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      const origin = new URL(request.url).origin;
      asked.push(`${origin} ${request.headers.get('authorization')}`);
      const answer = answers[origin];
      if (!answer) throw new TypeError('fetch failed');
      return answer();
    };
    running = new AbortController();
    startBackground({ fetch, isOnline: () => true, signal: running.signal });
    return asked;
  }

  beforeEach(() => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
  });
  afterEach(() => running?.abort());

  it('shows the sum of both counts, and each account’s count in the tooltip, each checked with its own token', async () => {
    await signedIn('tok-work');
    await anotherAccount('home', 'tok-home', HOME);
    const asked = serve({
      'http://127.0.0.1:8787': () => json({ count: 3 }),
      'http://localhost:9000': () => json({ count: 4 }),
    });
    await until(async () => (await badge()).text === '7');
    const { title } = await badge();
    expect(title.split('\n')).toEqual([
      'Inbox Companion',
      '7 unread notifications',
      '127.0.0.1:8787: 3 unread notifications',
      'localhost:9000: 4 unread notifications',
    ]);
    expect(new Set(asked)).toEqual(
      new Set(['http://127.0.0.1:8787 Bearer tok-work', 'http://localhost:9000 Bearer tok-home']),
    );
    expect(await pollAlarm(ACCOUNT)).toBeDefined();
    expect(await pollAlarm('home')).toBeDefined();
    expect(await statusItem.getValue()).toMatchObject({ kind: 'ok', count: 7 });
  });

  it('names an account in the tooltip once its name is known, and draws the badge for no message that changes nothing', async () => {
    await signedIn('tok-work');
    await anotherAccount('home', 'tok-home', HOME);
    serve({
      'http://127.0.0.1:8787': () => json({ count: 3 }),
      'http://localhost:9000': () => json({ count: 4 }),
    });
    await until(async () => (await badge()).text === '7');
    await settle();
    const drawn = vi.spyOn(fakeBrowser.action, 'setBadgeText');
    for (let i = 0; i < 3; i++)
      expect((await deliver('status.account', { account: 'home' }, popupSender)).value?.count).toBe(4);
    expect(drawn).not.toHaveBeenCalled();
    await updateAccount('home', { username: 'carol' });
    await until(async () => (await badge()).title.includes('@carol: 4 unread notifications'));
    vi.restoreAllMocks();
  });

  it('keeps showing one account’s count while the other is signed out or failing, and says which', async () => {
    await signedIn('tok-work');
    await anotherAccount('home', 'tok-home', HOME);
    await anotherAccount('old', null, { apiBaseUrl: 'http://localhost:9100/api', siteOrigin: 'http://localhost:9100' });
    serve({
      'http://127.0.0.1:8787': () => json({ count: 5 }),
      'http://localhost:9000': () => problem(401, 'unauthenticated'),
    });
    await until(async () => (await badge()).title.includes('localhost:9000: Your token was not accepted'));
    const { text, title } = await badge();
    expect(text).toBe('5');
    expect(title).toContain('127.0.0.1:8787: 5 unread notifications');
    expect(title).toContain('localhost:9100: Signed out');
    // A signed-out account sends nothing and has no check scheduled.
    expect(await pollAlarm('old')).toBeUndefined();
  });

  it('stops checking a removed account, and forgets what it kept', async () => {
    await signedIn('tok-work');
    await anotherAccount('home', 'tok-home', HOME);
    serve({ 'http://127.0.0.1:8787': () => json({ count: 1 }), 'http://localhost:9000': () => json({ count: 2 }) });
    await until(async () => (await badge()).text === '3');
    await accountsItem.setValue((await listAccounts()).filter((account) => account.id !== 'home'));
    await until(async () => (await badge()).text === '1');
    expect(await pollAlarm('home')).toBeUndefined();
    expect(await fakeBrowser.storage.local.get('connectionStatus:home')).toEqual({});
    expect(await fakeBrowser.storage.local.get('pollState:home')).toEqual({});
  });
});
