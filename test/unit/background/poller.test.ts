import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSession } from '../../../lib/background/api-session';
import { createPoller, pollStateItem } from '../../../lib/background/poller';
import { statusWriter } from '../../../lib/background/status-writer';
import { statusItem } from '../../../lib/background/stored-items';
import { ACCOUNT, badge, pollAlarm, signedIn } from '../../support/background';
import { hangUntilAborted, json, problem, recordingFetch } from '../../support/recording-fetch';

const NOW = Date.parse('2026-11-21T09:00:00Z');

function setup(replies: Parameters<typeof recordingFetch>, online = true) {
  const wire = recordingFetch(...replies);
  const session = createSession(ACCOUNT, { fetch: wire.fetch, retries: 0 });
  const poller = createPoller({ session, now: () => NOW, random: () => 0, isOnline: () => online });
  return { wire, poller };
}

const count = (n: number, etag = `"c${n}"`, interval?: number) =>
  json({ count: n }, { headers: { etag, ...(interval ? { 'x-poll-interval': String(interval) } : {}) } });
const notModified = (etag: string) => new Response(null, { status: 304, headers: { etag } });
const refused = () => Promise.reject(new TypeError('fetch failed'));

describe('poller', () => {
  beforeEach(() => fakeBrowser.reset());

  it('makes no request while signed out, and says so on the badge', async () => {
    const { wire, poller } = setup([]);
    const status = await poller.poll();
    expect(status.kind).toBe('signedOut');
    expect(wire.requests).toHaveLength(0);
    expect(await pollAlarm()).toBeUndefined();
    expect((await badge()).title).toContain('Signed out');
  });

  it('leaves nothing behind from a check answered after its account’s runtime stopped', async () => {
    await signedIn();
    await createPoller({
      session: createSession(ACCOUNT, { fetch: recordingFetch(count(3)).fetch, retries: 0 }),
    }).poll();
    const stopping = new AbortController();
    let fail: (error: Error) => void = () => {};
    const wire = recordingFetch(() => new Promise<Response>((_, reject) => (fail = reject)));
    const session = createSession(ACCOUNT, { fetch: wire.fetch, retries: 0 });
    const poller = createPoller({ session, now: () => NOW, random: () => 0, signal: stopping.signal });
    const checking = poller.poll();
    await vi.waitFor(() => expect(wire.requests).toHaveLength(1));
    const before = await statusItem.getValue();
    stopping.abort();
    // The service goes away after the stop, so the request fails.
    fail(new TypeError('fetch failed'));
    await checking;
    expect(await statusItem.getValue()).toEqual(before);
    expect((await badge()).text).toBe('3');
  });

  it('makes no request while offline, and checks again later', async () => {
    await signedIn();
    const { wire, poller } = setup([], false);
    expect((await poller.poll()).kind).toBe('offline');
    expect(wire.requests).toHaveLength(0);
    expect((await badge()).text).toBe('off');
    expect(await pollAlarm()).toBeDefined();
  });

  it('makes no request without permission for the API origin', async () => {
    await signedIn();
    await fakeBrowser.permissions.remove({ origins: ['http://127.0.0.1/*'] });
    const { wire, poller } = setup([]);
    expect((await poller.poll()).kind).toBe('noPermission');
    expect(wire.requests).toHaveLength(0);
  });

  it('shows the unread count and schedules the next check at the person’s interval', async () => {
    await signedIn('tok', { pollIntervalSeconds: 90 });
    const { wire, poller } = setup([count(5)]);
    const status = await poller.poll();
    expect(status).toMatchObject({ kind: 'ok', count: 5, checkedAt: NOW, nextCheckAt: NOW + 90_000 });
    expect(wire.requests[0]?.headers.get('authorization')).toBe('Bearer tok');
    expect((await pollAlarm())?.scheduledTime).toBe(NOW + 90_000);
    expect((await badge()).text).toBe('5');
  });

  it('asks conditionally with the last ETag and keeps the count on 304', async () => {
    await signedIn();
    const { wire, poller } = setup([count(5, '"e5"'), notModified('"e5"')]);
    await poller.poll();
    const status = await poller.poll();
    expect(wire.requests[1]?.headers.get('if-none-match')).toBe('"e5"');
    expect(status).toMatchObject({ kind: 'ok', count: 5 });
  });

  it('does not ask conditionally when it knows no count to keep', async () => {
    await signedIn();
    await pollStateItem(ACCOUNT).setValue({ etag: '"stale"', failures: 0, hint: null });
    const { wire, poller } = setup([count(2)]);
    await poller.poll();
    expect(wire.requests[0]?.headers.has('if-none-match')).toBe(false);
  });

  it('asks for the whole answer every time when conditional requests are turned off', async () => {
    await signedIn();
    const wire = recordingFetch(count(5, '"e5"'), count(5, '"e5"'));
    const session = createSession(ACCOUNT, { fetch: wire.fetch, retries: 0 });
    const poller = createPoller({ session, now: () => NOW, conditional: false });
    await poller.poll();
    expect(await poller.poll()).toMatchObject({ kind: 'ok', count: 5 });
    expect(wire.requests.map((request) => request.headers.has('if-none-match'))).toEqual([false, false]);
  });

  it('after triage changed the count on show, asks for the count again rather than trusting the old ETag', async () => {
    await signedIn();
    // A service whose count is 3 again: it answers 304 to the ETag it gave for 3.
    const service = (request: Request) =>
      request.headers.get('if-none-match') === '"e3"' ? notModified('"e3"') : count(3, '"e3"');
    const { poller } = setup([service, service]);
    await poller.poll();
    await statusWriter(ACCOUNT).showCount(0);
    expect(await poller.poll()).toMatchObject({ kind: 'ok', count: 3 });
    expect((await badge()).text).toBe('3');
  });

  it('keeps the service’s longer poll interval', async () => {
    await signedIn('t', { pollIntervalSeconds: 60 });
    const { poller } = setup([count(1, '"a"', 300)]);
    expect((await poller.poll()).nextCheckAt).toBe(NOW + 300_000);
  });

  it('says a refused token in words and backs off', async () => {
    await signedIn();
    const { poller } = setup([problem(401, 'unauthenticated', { 'www-authenticate': 'Bearer' })]);
    const status = await poller.poll();
    expect(status.kind).toBe('unauthorized');
    expect((await pollStateItem(ACCOUNT).getValue()).failures).toBe(1);
    expect((await badge()).title).toContain('token was not accepted');
  });

  it('honours Retry-After on a rate limit', async () => {
    await signedIn();
    const { poller } = setup([problem(429, 'rate_limited', { 'retry-after': '900' })]);
    const status = await poller.poll();
    expect(status.kind).toBe('rateLimited');
    expect(status.nextCheckAt).toBe(NOW + 900_000);
  });

  it('honours Retry-After on a 503', async () => {
    await signedIn();
    const unavailable = () => problem(503, 'service_unavailable', { 'retry-after': '700' });
    const { poller } = setup([unavailable(), unavailable(), unavailable()]);
    const status = await poller.poll();
    expect(status.kind).toBe('unreachable');
    expect(status.nextCheckAt).toBe(NOW + 700_000);
  });

  it('backs off exponentially while the service answers with errors', async () => {
    await signedIn();
    const failing = () => problem(500, 'internal_error');
    const { poller } = setup([count(4), failing, failing, failing]);
    await poller.poll();
    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      const status = await poller.poll();
      expect(status).toMatchObject({ kind: 'unreachable', count: 4 });
      delays.push((status.nextCheckAt ?? 0) - NOW);
    }
    expect(delays).toEqual([60_000, 120_000, 240_000]);
    expect((await badge()).title).toContain('Last known: 4 unread');
  });

  it('backs off after timeouts too', async () => {
    await signedIn();
    const hang = hangUntilAborted;
    const wire = recordingFetch(hang, hang);
    const session = createSession(ACCOUNT, { fetch: wire.fetch, retries: 0, timeout: 20 });
    const poller = createPoller({ session, now: () => NOW, random: () => 0.999, isOnline: () => true });
    await poller.poll();
    expect((await poller.poll()).nextCheckAt).toBeGreaterThan(NOW + 200_000);
  });

  it('keeps checking at the regular interval while nothing accepts the connection, so it recovers within one', async () => {
    await signedIn();
    const { poller } = setup([count(4), refused, refused, refused, count(6)]);
    await poller.poll();
    for (let i = 0; i < 3; i++) {
      expect(await poller.poll()).toMatchObject({ kind: 'unreachable', count: 4, nextCheckAt: NOW + 60_000 });
    }
    expect(await poller.poll()).toMatchObject({ kind: 'ok', count: 6 });
  });

  it('checks again at the person’s interval when a check fails while the live channel still looks open', async () => {
    await signedIn();
    const wire = recordingFetch(count(4), refused);
    const session = createSession(ACCOUNT, { fetch: wire.fetch, retries: 0 });
    const poller = createPoller({ session, now: () => NOW, random: () => 0, isLive: () => true });
    expect((await poller.poll()).nextCheckAt).toBeGreaterThan(NOW + 60_000);
    expect(await poller.poll()).toMatchObject({ kind: 'unreachable', nextCheckAt: NOW + 60_000 });
  });

  it('goes back to the regular interval after a success', async () => {
    await signedIn();
    const failing = () => problem(502, 'internal_error');
    const { poller } = setup([failing, failing, count(1)]);
    await poller.poll();
    expect((await pollStateItem(ACCOUNT).getValue()).failures).toBe(1);
    await poller.poll();
    expect((await poller.poll()).nextCheckAt).toBe(NOW + 60_000);
    expect((await pollStateItem(ACCOUNT).getValue()).failures).toBe(0);
  });

  it('calls an address that is not the Inbox API what it is', async () => {
    await signedIn();
    const { poller } = setup([new Response('<html></html>', { headers: { 'content-type': 'text/html' } })]);
    expect((await poller.poll()).kind).toBe('notThisService');
  });

  it('runs one check at a time: calls made while one runs share a single check after it', async () => {
    await signedIn();
    const { wire, poller } = setup([count(3), count(4)]);
    const results = await Promise.all([poller.poll(), poller.poll(), poller.poll(), poller.poll()]);
    expect(wire.requests).toHaveLength(2);
    expect(results.map((status) => status.count)).toEqual([3, 4, 4, 4]);
  });

  it('a check asked for after a new sign-in uses the new token, even while an older check runs', async () => {
    await signedIn('old');
    let release: (response: Response) => void = () => undefined;
    const held = new Promise<Response>((resolve) => {
      release = resolve;
    });
    const { wire, poller } = setup([() => held, count(2)]);
    const before = poller.poll();
    // The older check is out, its request sent with the token of then.
    await vi.waitFor(() => expect(wire.requests).toHaveLength(1));
    await signedIn('fresh');
    const after = poller.poll();
    release(count(1));
    expect((await before).count).toBe(1);
    expect((await after).count).toBe(2);
    expect(wire.requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer old', 'Bearer fresh']);
  });

  it('keeps its state in storage, so a restarted worker carries on', async () => {
    await signedIn();
    await setup([count(8, '"e8"')]).poller.poll();
    const restarted = setup([notModified('"e8"')]);
    expect(await restarted.poller.poll()).toMatchObject({ kind: 'ok', count: 8 });
    expect(restarted.wire.requests[0]?.headers.get('if-none-match')).toBe('"e8"');
    expect((await statusItem.getValue()).count).toBe(8);
  });

  it('has the next check scheduled while a check waits for the service, so a worker stopped then still wakes', async () => {
    await signedIn('t', { pollIntervalSeconds: 60 });
    const { wire, poller } = setup([() => new Promise<Response>(() => undefined)]);
    void poller.poll();
    await expect.poll(() => wire.requests.length).toBe(1);
    expect((await pollAlarm())?.scheduledTime).toBe(NOW + 60_000);
  });

  it('never sends the token to an address it was not given for', async () => {
    await signedIn('tok', { apiBaseUrl: 'http://127.0.0.1:8787/api' });
    // The account's address changes under the stored token: the token stays with the origin it was given for.
    const { listAccounts } = await import('../../../lib/accounts');
    const { accountsItem } = await import('../../../lib/background/stored-items');
    const [account] = await listAccounts();
    await accountsItem.setValue([
      { ...(account as NonNullable<typeof account>), apiBaseUrl: 'http://127.0.0.1:9999/api' },
    ]);
    const { wire, poller } = setup([]);
    expect((await poller.poll()).kind).toBe('signedOut');
    expect(wire.requests).toHaveLength(0);
  });
});
