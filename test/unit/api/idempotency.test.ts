import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  type Client,
  createClient,
  IdempotencyKeyReusedError,
  NetworkError,
  RateLimitedError,
  RequestInProgressError,
  ServerError,
} from '../../../lib/api';
import { uuid } from '../../support/fixtures';
import { json, noContent, problem, recordingFetch } from '../../support/recording-fetch';

const baseUrl = 'http://api.test/api';
const bulk = { success: true, count: 1, undo: null };

function client(...replies: Parameters<typeof recordingFetch>) {
  const wire = recordingFetch(...replies);
  const api = createClient({ baseUrl, token: 't', fetch: wire.fetch, retries: 2 });
  const keys = () => wire.requests.map((request) => request.headers.get('idempotency-key'));
  return { wire, api, keys };
}

const unavailable = (status = 503) => problem(status, 'service_unavailable', { 'retry-after': '0' });
const refuse = () => Promise.reject(new TypeError('fetch failed'));

describe('Idempotency-Key', () => {
  it.each<[string, (api: Client, key?: string) => Promise<unknown>, () => Response]>([
    ['follow', (api, key) => api.user('bob').follow({ idempotencyKey: key }), noContent],
    ['unfollow', (api, key) => api.user('bob').unfollow({ idempotencyKey: key }), noContent],
    [
      'report',
      (api, key) => api.user('bob').report('spam', '', { idempotencyKey: key }),
      () => json({ status: 'received', id: uuid(1), reason: 'spam', createdAt: '2026-01-01T00:00:00.000Z' }),
    ],
    ['markRead', (api, key) => api.inbox.markRead('all', { idempotencyKey: key }), () => json(bulk)],
    ['markUnread', (api, key) => api.inbox.markUnread([uuid(1)], { idempotencyKey: key }), () => json(bulk)],
    ['delete', (api, key) => api.inbox.delete([uuid(1)], { idempotencyKey: key }), () => json(bulk)],
    [
      'snooze',
      (api, key) => api.inbox.snooze([uuid(1)], new Date(Date.now() + 3_600_000), { idempotencyKey: key }),
      () => json(bulk),
    ],
    [
      'unsnooze',
      (api, key) => api.inbox.unsnooze([uuid(1)], { idempotencyKey: key }),
      () => json({ success: true, count: 1 }),
    ],
    ['undo', (api, key) => api.inbox.undo('u.s', { idempotencyKey: key }), () => json({ success: true, count: 1 })],
  ])('%s sends a fresh key, or the caller’s own on every try', async (_, call, answer) => {
    const fresh = client(answer(), answer());
    await call(fresh.api);
    await call(fresh.api);
    const [first, second] = fresh.keys();
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(second).not.toBe(first);

    const own = client(unavailable(), refuse, answer());
    await call(own.api, 'my-intent-1');
    expect(own.keys()).toEqual(['my-intent-1', 'my-intent-1', 'my-intent-1']);
  });

  it('sends no key with a read', async () => {
    const { api, keys } = client(json({ count: 1 }));
    await api.inbox.count();
    expect(keys()).toEqual([null]);
  });

  it.each([502, 503, 504])('retries a change after %i with the same key', async (status) => {
    const { api, keys } = client(unavailable(status), noContent());
    await api.user('bob').follow();
    expect(keys()).toHaveLength(2);
    expect(keys()[1]).toBe(keys()[0]);
  });

  it('retries a change after a network failure at most twice', async () => {
    const { api, keys } = client(refuse, refuse, refuse, noContent());
    await expect(api.user('bob').follow()).rejects.toBeInstanceOf(NetworkError);
    expect(keys()).toHaveLength(3);
    expect(new Set(keys()).size).toBe(1);
  });

  it.each([
    [problem(400, 'already_following'), BadRequestError],
    [problem(409, 'request_in_progress', { 'retry-after': '1' }), RequestInProgressError],
    [problem(422, 'idempotency_key_reused'), IdempotencyKeyReusedError],
    [problem(429, 'rate_limited', { 'retry-after': '0' }), RateLimitedError],
    [problem(500, 'internal_error'), ServerError],
  ])('does not retry a change refused with %o', async (answer, kind) => {
    const { api, keys } = client(answer, noContent());
    await expect(api.user('bob').follow()).rejects.toBeInstanceOf(kind);
    expect(keys()).toHaveLength(1);
  });

  it('tells a request still in progress, with the seconds to wait', async () => {
    const { api } = client(problem(409, 'request_in_progress', { 'retry-after': '1' }));
    await expect(api.inbox.markRead('all')).rejects.toMatchObject({
      name: 'RequestInProgressError',
      status: 409,
      retryAfter: 1,
    });
  });

  it('waits out Retry-After before retrying a change', async () => {
    const { api, wire } = client(problem(503, 'service_unavailable', { 'retry-after': '1' }), noContent());
    const started = Date.now();
    await api.user('bob').follow();
    expect(wire.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
