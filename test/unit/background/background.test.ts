import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { type Account, accountsItem, listAccounts } from '../../../lib/accounts';
import { startBackground } from '../../../lib/background';
import { pollAlarmName, pollStateItem } from '../../../lib/background/poller';
import { statusItem } from '../../../lib/connection-status';
import { messaging } from '../../../lib/messaging';
import { ACCOUNT, badge, grant, signedIn, storedToken } from '../../support/background';
import { json, recordingFetch } from '../../support/recording-fetch';

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
    const { wire } = start([count(31), count(31)], { apiBaseUrl: 'http://127.0.0.1:8787/api', token: 'demo-token' });
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
    await signedIn();
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
    await signedIn();
    const { wire } = start([count(1), count(6)]);
    await settle();
    await fakeBrowser.runtime.onStartup.trigger();
    await settle();
    expect(wire.requests).toHaveLength(2);
    expect((await badge()).text).toBe('6');
  });

  it('polls at once when an account’s API address changes, forgetting its ETag', async () => {
    await signedIn('t', { apiBaseUrl: 'http://127.0.0.1:8787/api' });
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

  it('registers the profile script and polls once the person grants the site', async () => {
    await signedIn();
    await fakeBrowser.permissions.remove({ origins: ['http://127.0.0.1/*'] });
    const { wire } = start([count(5)]);
    await settle();
    expect((await statusItem.getValue()).kind).toBe('noPermission');
    expect(wire.requests).toHaveLength(0);
    await grant('http://127.0.0.1:8787');
    await settle();
    expect(await fakeBrowser.scripting.getRegisteredContentScripts()).toHaveLength(1);
    expect((await badge()).text).toBe('5');
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
