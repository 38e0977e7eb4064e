import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient, NetworkError, ServerError, TimeoutError } from '../../../lib/api';
import { MAX_RETRY_WAIT_MS } from '../../../lib/api/http';
import { hangUntilAborted, json, noContent, problem, recordingFetch } from '../../support/recording-fetch';

const baseUrl = 'http://api.test/api';
const refuse = () => Promise.reject(new TypeError('fetch failed'));

/** The client with fake timers: a retry's wait passes only when the test moves the clock. */
function client(...replies: Parameters<typeof recordingFetch>) {
  return clientRetrying(2, ...replies);
}

function clientRetrying(retries: number, ...replies: Parameters<typeof recordingFetch>) {
  const wire = recordingFetch(...replies);
  return { wire, api: createClient({ baseUrl, token: 't', fetch: wire.fetch, retries, timeout: 60_000 }) };
}

/** How many requests were sent by the time the clock has moved `ms` on. */
async function sentAfter(wire: ReturnType<typeof recordingFetch>, ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
  return wire.requests.length;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the transport’s retries', () => {
  it('backs off exponentially from 300 ms, at a random point below each step', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const { wire, api } = client(problem(500, 'internal_error'), problem(502, 'bad_gateway'), json({ count: 4 }));
    const count = api.inbox.count();
    expect(await sentAfter(wire, 0)).toBe(1);
    expect(await sentAfter(wire, 149)).toBe(1);
    expect(await sentAfter(wire, 1)).toBe(2);
    expect(await sentAfter(wire, 299)).toBe(2);
    expect(await sentAfter(wire, 1)).toBe(3);
    expect(await count).toBe(4);
  });

  it('waits at most 3 s between tries, however many there were', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.99);
    const slow = client(refuse, refuse, refuse);
    const failed = slow.api.inbox.count().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(297 + 594);
    expect(slow.wire.requests).toHaveLength(3);
    expect(await failed).toBeInstanceOf(NetworkError);

    const many = clientRetrying(5, refuse, refuse, refuse, refuse, refuse, refuse);
    const sent = many.api.inbox.count().catch((error: unknown) => error);
    expect(await sentAfter(many.wire, 297 + 594 + 1188 + 2376)).toBe(5);
    expect(await sentAfter(many.wire, 2_999)).toBe(5);
    expect(await sentAfter(many.wire, 1)).toBe(6);
    expect(await sent).toBeInstanceOf(NetworkError);
  });

  it('waits what Retry-After asks on 429 and 503, up to 5 s, and gives a longer ask to the caller at once', async () => {
    const seconds = MAX_RETRY_WAIT_MS / 1000;
    const limited = client(problem(429, 'rate_limited', { 'retry-after': String(seconds) }), json({ count: 1 }));
    const count = limited.api.inbox.count();
    expect(await sentAfter(limited.wire, MAX_RETRY_WAIT_MS - 1)).toBe(1);
    expect(await sentAfter(limited.wire, 1)).toBe(2);
    expect(await count).toBe(1);

    const long = client(problem(503, 'service_unavailable', { 'retry-after': String(seconds + 1) }), noContent());
    await expect(long.api.user('bob').follow()).rejects.toBeInstanceOf(ServerError);
    expect(long.wire.requests).toHaveLength(1);
  });

  it('retries a change of the policy (PUT) after a 503 with the same key, and not after a 500', async () => {
    const policy = { strangers: 'accept' } as const;
    const unavailable = client(problem(503, 'service_unavailable', { 'retry-after': '0' }), json(policy));
    const changed = unavailable.api.inbox.setPolicy(policy);
    await vi.advanceTimersByTimeAsync(0);
    await changed;
    const keys = unavailable.wire.requests.map((request) => request.headers.get('idempotency-key'));
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);

    const failing = client(problem(500, 'internal_error'), json(policy));
    await expect(failing.api.inbox.setPolicy(policy)).rejects.toBeInstanceOf(ServerError);
    expect(failing.wire.requests).toHaveLength(1);
  });

  it('gives up with a TimeoutError when the time runs out while it waits to retry', async () => {
    vi.useRealTimers();
    const wire = recordingFetch(problem(503, 'service_unavailable', { 'retry-after': '5' }), hangUntilAborted);
    const api = createClient({ baseUrl, token: 't', fetch: wire.fetch, retries: 2, timeout: 50 });
    await expect(api.inbox.count()).rejects.toBeInstanceOf(TimeoutError);
    expect(wire.requests).toHaveLength(1);
  });

  it('sends every try without cookies, past any cache and refusing redirects', async () => {
    const seen: Request[] = [];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Request(input, init));
      return seen.length === 1 ? problem(503, 'service_unavailable', { 'retry-after': '0' }) : json({ count: 2 });
    };
    const api = createClient({ baseUrl, token: 't', fetch, retries: 1 });
    const count = api.inbox.count();
    await vi.advanceTimersByTimeAsync(0);
    expect(await count).toBe(2);
    expect(seen.map(({ cache, credentials, redirect }) => ({ cache, credentials, redirect }))).toEqual([
      { cache: 'no-store', credentials: 'omit', redirect: 'error' },
      { cache: 'no-store', credentials: 'omit', redirect: 'error' },
    ]);
  });
});
