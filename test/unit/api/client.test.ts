import { describe, expect, it } from 'vitest';
import {
  AlreadyFollowingError,
  ApiError,
  BadRequestError,
  CannotFollowSelfError,
  CannotReportSelfError,
  createClient,
  InvalidArgumentError,
  InvalidResponseError,
  InvalidUndoError,
  InvalidUntilError,
  NetworkError,
  NotFollowingError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthenticatedError,
  UndoExpiredError,
  UnsupportedMediaTypeError,
  UserNotFoundError,
} from '../../../lib/api';
import { notificationFixture, profileFixture, uuid } from '../../support/fixtures';
import { hangUntilAborted, json, noContent, problem, recordingFetch } from '../../support/recording-fetch';

const baseUrl = 'http://api.test/api';
const id = uuid;
const notification = (n: number) => notificationFixture(n);
const profile = profileFixture();

function client(...replies: Parameters<typeof recordingFetch>) {
  const wire = recordingFetch(...replies);
  return { wire, api: createClient({ baseUrl, token: 'secret', fetch: wire.fetch, retries: 0 }) };
}

describe('createClient', () => {
  it('sends nothing until an operation is called', () => {
    const { wire, api } = client();
    api.user('bob');
    expect(api.baseUrl).toBe('http://api.test/api/');
    expect(wire.requests).toHaveLength(0);
  });

  it.each(['not a url', 'ftp://api.test/', 'http://user:pw@api.test/api', 'http://api.test/api?x=1'])(
    'refuses the base URL %s',
    (bad) => {
      expect(() => createClient({ baseUrl: bad })).toThrow(InvalidArgumentError);
    },
  );

  it('reads a token function before every request, so a new token takes effect at once', async () => {
    let token = 'first';
    const wire = recordingFetch(json({ count: 1 }), json({ count: 2 }));
    const api = createClient({ baseUrl, token: async () => token, fetch: wire.fetch });
    await api.inbox.count();
    token = 'second';
    await api.inbox.count();
    expect(wire.requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer first', 'Bearer second']);
  });

  it('sends no Authorization header without a token', async () => {
    const wire = recordingFetch(json(profile));
    const api = createClient({ baseUrl, fetch: wire.fetch });
    await api.user('bob');
    expect(wire.requests[0]?.headers.has('authorization')).toBe(false);
  });
});

describe('inbox', () => {
  it('fetches one page with the query the caller gave', async () => {
    const page = { data: [notification(1)], cursor: 'next' };
    const { wire, api } = client(json(page));
    expect(await api.inbox.fetch({ limit: 5, cursor: 'abc', unreadOnly: true })).toEqual(page);
    const [request] = wire.requests;
    expect(request?.method).toBe('GET');
    expect(request?.url.pathname).toBe('/api/inbox/fetch');
    expect(Object.fromEntries(request?.url.searchParams ?? [])).toEqual({
      limit: '5',
      cursor: 'abc',
      unreadOnly: 'true',
    });
    expect(request?.headers.get('authorization')).toBe('Bearer secret');
  });

  it('leaves out what the caller left out', async () => {
    const { wire, api } = client(json({ data: [], cursor: null }));
    await api.inbox.fetch();
    expect(wire.requests[0]?.url.search).toBe('');
  });

  it('counts unread notifications', async () => {
    const { wire, api } = client(json({ count: 7 }));
    expect(await api.inbox.count()).toBe(7);
    expect(wire.requests[0]?.url.pathname).toBe('/api/inbox/count');
  });

  it('asks for the count conditionally and reads 304 as unchanged', async () => {
    const { wire, api } = client(
      json({ count: 7 }, { headers: { etag: '"c7"', 'x-poll-interval': '60' } }),
      new Response(null, { status: 304, headers: { etag: '"c7"', 'x-poll-interval': '120' } }),
    );
    expect(await api.inbox.checkCount()).toEqual({ changed: true, count: 7, etag: '"c7"', pollInterval: 60 });
    expect(await api.inbox.checkCount('"c7"')).toEqual({ changed: false, etag: '"c7"', pollInterval: 120 });
    expect(wire.requests[0]?.headers.has('if-none-match')).toBe(false);
    expect(wire.requests[1]?.headers.get('if-none-match')).toBe('"c7"');
  });

  it.each([
    ['markRead', '/api/inbox/read'],
    ['delete', '/api/inbox/delete'],
  ] as const)('%s sends the chosen ids, or "all", in one POST', async (operation, path) => {
    const { wire, api } = client(
      json({ success: true, count: 2, undo: 'u1.s' }),
      json({ success: true, count: 9, undo: 'u2.s' }),
    );
    expect(await api.inbox[operation]([id(1), id(2)])).toEqual({ success: true, count: 2, undo: 'u1.s' });
    expect(await api.inbox[operation]('all')).toEqual({ success: true, count: 9, undo: 'u2.s' });
    expect(wire.requests.map((r) => [r.method, r.url.pathname, JSON.parse(r.body)])).toEqual([
      ['POST', path, { ids: [id(1), id(2)] }],
      ['POST', path, { ids: 'all' }],
    ]);
    expect(wire.requests.map((r) => r.headers.get('content-type'))).toEqual(['application/json', 'application/json']);
  });

  it('markUnread sends a list of ids, and undo sends its token, each in one POST', async () => {
    const { wire, api } = client(
      json({ success: true, count: 1, undo: 'u3.s' }),
      json({ success: true, count: 0, undo: null }),
      json({ success: true, count: 1 }),
    );
    expect(await api.inbox.markUnread([id(1)])).toEqual({ success: true, count: 1, undo: 'u3.s' });
    expect(await api.inbox.markUnread([])).toEqual({ success: true, count: 0, undo: null });
    expect(await api.inbox.undo('u3.s')).toEqual({ success: true, count: 1 });
    expect(wire.requests.map((r) => [r.method, r.url.pathname, JSON.parse(r.body)])).toEqual([
      ['POST', '/api/inbox/unread', { ids: [id(1)] }],
      ['POST', '/api/inbox/unread', { ids: [] }],
      ['POST', '/api/inbox/undo', { undo: 'u3.s' }],
    ]);
  });

  it('refuses "all" for markUnread and an empty or oversized undo token before sending', async () => {
    const { wire, api } = client();
    await expect(api.inbox.markUnread('all' as never)).rejects.toMatchObject({ code: 'invalid_ids', status: 0 });
    for (const token of ['', 'x'.repeat(257), 5, null]) {
      await expect(api.inbox.undo(token as never)).rejects.toMatchObject({ code: 'invalid_undo', status: 0 });
    }
    expect(wire.requests).toHaveLength(0);
  });

  it.each([
    [410, 'undo_expired', UndoExpiredError],
    [400, 'invalid_undo', InvalidUndoError],
  ] as const)('turns %s %s into its typed error', async (status, code, ErrorClass) => {
    const { api } = client(problem(status, code));
    const error = await api.inbox.undo('u.s').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ status, code });
  });

  it('refuses a triage answer without its undo field', async () => {
    const { api } = client(json({ success: true, count: 2 }));
    await expect(api.inbox.markRead('all')).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('accepts upper-case UUIDs and exactly 500 ids', async () => {
    const ids = Array.from({ length: 500 }, (_, n) => id(n).toUpperCase());
    const { wire, api } = client(json({ success: true, count: 0, undo: null }));
    await api.inbox.markRead(ids);
    expect(JSON.parse(wire.requests[0]?.body ?? '').ids).toHaveLength(500);
  });

  it.each([
    ['"ALL"', 'ALL'],
    ['a non-UUID', ['not-a-uuid']],
    ['a number', [42]],
    ['501 ids', Array.from({ length: 501 }, (_, n) => id(n))],
    ['null', null],
    ['an undefined item', [id(1), undefined]],
  ])('refuses %s before sending', async (_, ids) => {
    const { wire, api } = client();
    for (const operation of ['markRead', 'delete'] as const) {
      const error = await api.inbox[operation](ids as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error).toMatchObject({ code: 'invalid_ids', status: 0 });
    }
    expect(wire.requests).toHaveLength(0);
  });

  it.each([0, 101, 1.5, Number.NaN])('refuses limit %s before sending', async (limit) => {
    const { wire, api } = client();
    await expect(api.inbox.fetch({ limit })).rejects.toMatchObject({ code: 'invalid_limit' });
    expect(wire.requests).toHaveLength(0);
  });

  it('refuses an empty cursor before sending', async () => {
    const { wire, api } = client();
    await expect(api.inbox.fetch({ cursor: '' })).rejects.toMatchObject({ code: 'invalid_cursor' });
    expect(wire.requests).toHaveLength(0);
  });
});

describe('snooze and types', () => {
  const byType = { follow: 1, mention: 2, reply: 0, like: 4, system: 0 };

  it('snoozes ids until a Date or an ISO time with its offset, and unsnoozes, each in one POST', async () => {
    const { wire, api } = client(
      json({ success: true, count: 2, undo: 'u4.s' }),
      json({ success: true, count: 1, undo: 'u5.s' }),
      json({ success: true, count: 1 }),
    );
    const until = new Date('2026-11-23T08:00:00.000Z');
    expect(await api.inbox.snooze([id(1), id(2)], until)).toEqual({ success: true, count: 2, undo: 'u4.s' });
    expect(await api.inbox.snooze([id(3)], '2026-11-23T09:00:00+01:00')).toMatchObject({ undo: 'u5.s' });
    expect(await api.inbox.unsnooze([id(1)])).toEqual({ success: true, count: 1 });
    expect(wire.requests.map((r) => [r.method, r.url.pathname, JSON.parse(r.body)])).toEqual([
      ['POST', '/api/inbox/snooze', { ids: [id(1), id(2)], until: '2026-11-23T08:00:00.000Z' }],
      ['POST', '/api/inbox/snooze', { ids: [id(3)], until: '2026-11-23T09:00:00+01:00' }],
      ['POST', '/api/inbox/unsnooze', { ids: [id(1)] }],
    ]);
  });

  it.each([
    ['a time without an offset', '2026-11-23T09:00:00'],
    ['a date alone', '2026-11-23'],
    ['words', 'tomorrow'],
    ['a day that does not exist', '2027-02-30T09:00:00Z'],
    ['an invalid Date', new Date(Number.NaN)],
    ['a number', 1_800_000_000_000],
  ])('refuses %s as until before sending', async (_, until) => {
    const { wire, api } = client();
    const error = await api.inbox.snooze([id(1)], until as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ code: 'invalid_until', status: 0 });
    await expect(api.inbox.snooze('all' as never, new Date())).rejects.toMatchObject({ code: 'invalid_ids' });
    await expect(api.inbox.unsnooze(['nope'])).rejects.toMatchObject({ code: 'invalid_ids' });
    expect(wire.requests).toHaveLength(0);
  });

  it('turns 400 invalid_until into InvalidUntilError', async () => {
    const { api } = client(problem(400, 'invalid_until'));
    const error = await api.inbox.snooze([id(1)], new Date()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidUntilError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_until' });
  });

  it('fetches the snoozed listing and a types filter', async () => {
    const snoozed = notificationFixture(1, { snoozedUntil: '2026-11-23T09:00:00.000Z' });
    const { wire, api } = client(json({ data: [snoozed], cursor: null }));
    expect((await api.inbox.fetch({ snoozed: true, types: ['reply', 'mention'] })).data).toEqual([snoozed]);
    expect(Object.fromEntries(wire.requests[0]?.url.searchParams ?? [])).toEqual({
      snoozed: 'true',
      types: 'reply,mention',
    });
  });

  it.each([
    ['an unknown type', ['mentions']],
    ['a type twice', ['like', 'like']],
    ['no type', []],
    ['a string', 'like'],
  ])('refuses %s in types before sending', async (_, types) => {
    const { wire, api } = client();
    await expect(api.inbox.fetch({ types: types as never })).rejects.toMatchObject({ code: 'invalid_parameter' });
    expect(wire.requests).toHaveLength(0);
  });

  it('reads a version 1 notification as not snoozed, sorted by when it was made', async () => {
    const { snoozedUntil: _, sortedAt: __, ...versionOne } = notificationFixture(2);
    const { api } = client(json({ data: [versionOne], cursor: null }));
    expect((await api.inbox.fetch()).data).toEqual([notificationFixture(2)]);
  });

  it('counts by type, keeps count() a number, and hands the counts by type on from a conditional check', async () => {
    const { wire, api } = client(
      json({ count: 7, byType }),
      json({ count: 7, byType }),
      json({ count: 7, byType }, { headers: { etag: '"b7"' } }),
    );
    expect(await api.inbox.countByType()).toEqual(byType);
    expect(await api.inbox.count()).toBe(7);
    expect(await api.inbox.checkCount()).toEqual({ changed: true, count: 7, byType, etag: '"b7"', pollInterval: null });
    expect(wire.requests.map((r) => r.url.pathname)).toEqual([
      '/api/inbox/count',
      '/api/inbox/count',
      '/api/inbox/count',
    ]);
  });

  it('refuses counts by type that leave a type out or a count without them', async () => {
    const { mention: _, ...partial } = byType;
    const { api } = client(json({ count: 7, byType: partial }), json({ count: 7 }));
    await expect(api.inbox.countByType()).rejects.toBeInstanceOf(InvalidResponseError);
    await expect(api.inbox.countByType()).rejects.toBeInstanceOf(InvalidResponseError);
  });
});

describe('walking the inbox', () => {
  it('passes each cursor back until the service answers null', async () => {
    const { wire, api } = client(
      json({ data: [notification(1), notification(2)], cursor: 'c1' }),
      json({ data: [notification(3)], cursor: 'c2' }),
      json({ data: [notification(4)], cursor: null }),
    );
    const ids: string[] = [];
    for await (const item of api.inbox.items({ unreadOnly: true, limit: 2 })) ids.push(item.id);
    expect(ids).toEqual([id(1), id(2), id(3), id(4)]);
    expect(wire.requests.map((r) => r.url.searchParams.get('cursor'))).toEqual([null, 'c1', 'c2']);
    expect(wire.requests.every((r) => r.url.searchParams.get('unreadOnly') === 'true')).toBe(true);
  });

  it('yields whole pages too, and stops after the last', async () => {
    const { wire, api } = client(json({ data: [notification(1)], cursor: null }));
    const pages = [];
    for await (const page of api.inbox.pages()) pages.push(page);
    expect(pages).toHaveLength(1);
    expect(wire.requests).toHaveLength(1);
  });

  it('refuses a service that hands out the same cursor twice instead of looping forever', async () => {
    const { api } = client(
      json({ data: [], cursor: 'same' }),
      json({ data: [], cursor: 'same' }),
      json({ data: [], cursor: 'same' }),
    );
    const walk = async () => {
      for await (const _ of api.inbox.pages());
    };
    await expect(walk()).rejects.toBeInstanceOf(InvalidResponseError);
  });
});

describe('user handle', () => {
  it('fetches the profile fresh on every await', async () => {
    const { wire, api } = client(json(profile), json({ ...profile, following: true }));
    const bob = api.user('bob');
    expect(wire.requests).toHaveLength(0);
    expect(await bob).toEqual(profile);
    expect((await bob).following).toBe(true);
    expect(wire.requests.map((r) => [r.method, r.url.pathname])).toEqual([
      ['GET', '/api/user/bob'],
      ['GET', '/api/user/bob'],
    ]);
  });

  it('asks who the token belongs to with one GET of /me, and refuses an answer that is not a profile', async () => {
    const { wire, api } = client(json({ ...profile, self: true }), json({ username: 'bob' }));
    expect(await api.me()).toEqual({ ...profile, self: true });
    expect(wire.requests.map((r) => [r.method, r.url.pathname])).toEqual([['GET', '/api/me']]);
    await expect(api.me()).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('accepts a public profile without the relation fields', async () => {
    const { following: _, followedBy: __, self: ___, ...publicProfile } = profile;
    const { api } = client(json(publicProfile));
    expect(await api.user('bob')).toEqual(publicProfile);
  });

  it('follows with exactly one POST and no profile fetch', async () => {
    const { wire, api } = client(noContent());
    await expect(api.user('bob').follow()).resolves.toBeUndefined();
    expect(wire.requests.map((r) => [r.method, r.url.pathname, r.body])).toEqual([
      ['POST', '/api/user/bob/follow', ''],
    ]);
  });

  it('unfollows with exactly one DELETE', async () => {
    const { wire, api } = client(noContent());
    await api.user('bob').unfollow();
    expect(wire.requests.map((r) => [r.method, r.url.pathname])).toEqual([['DELETE', '/api/user/bob/follow']]);
  });

  it('reports with reason and comment in one POST', async () => {
    const result = { id: id(9), status: 'received', reason: 'spam', createdAt: '2026-11-21T09:00:00.000Z' };
    const { wire, api } = client(json(result, { status: 201 }));
    expect(await api.user('bob').report('spam', 'buys followers')).toEqual(result);
    expect(wire.requests.map((r) => [r.method, r.url.pathname, JSON.parse(r.body)])).toEqual([
      ['POST', '/api/user/bob/report', { reason: 'spam', comment: 'buys followers' }],
    ]);
    expect(wire.requests[0]?.headers.get('content-type')).toBe('application/json');
  });

  it('sends an empty comment when none is given', async () => {
    const result = { id: id(9), status: 'received', reason: 'other', createdAt: '2026-11-21T09:00:00.000Z' };
    const { wire, api } = client(json(result, { status: 201 }));
    await api.user('bob').report('other');
    expect(JSON.parse(wire.requests[0]?.body ?? '')).toEqual({ reason: 'other', comment: '' });
  });

  it.each(['', 'a b', 'x'.repeat(31), '../admin', 'bob/follow', 'bob?x=1', 'bób'])(
    'refuses the username %j before sending',
    (username) => {
      const { wire, api } = client();
      expect(() => api.user(username)).toThrow(InvalidArgumentError);
      expect(wire.requests).toHaveLength(0);
    },
  );

  it('refuses a reason outside the list and a comment over 2000 characters', async () => {
    const { wire, api } = client();
    const bob = api.user('bob');
    await expect(bob.report('rude' as never, '')).rejects.toMatchObject({ code: 'invalid_report' });
    await expect(bob.report('spam', 'x'.repeat(2001))).rejects.toMatchObject({ code: 'invalid_report' });
    expect(wire.requests).toHaveLength(0);
  });

  it('accepts a comment of exactly 2000 characters', async () => {
    const result = { id: id(9), status: 'received', reason: 'spam', createdAt: '2026-11-21T09:00:00.000Z' };
    const { wire, api } = client(json(result, { status: 201 }));
    await api.user('bob').report('spam', 'x'.repeat(2000));
    expect(wire.requests).toHaveLength(1);
  });
});

describe('errors', () => {
  it.each([
    [400, 'already_following', AlreadyFollowingError],
    [400, 'not_following', NotFollowingError],
    [400, 'cannot_follow_self', CannotFollowSelfError],
    [400, 'cannot_report_self', CannotReportSelfError],
    [400, 'invalid_cursor', BadRequestError],
    [400, 'invalid_limit', BadRequestError],
    [400, 'invalid_ids', BadRequestError],
    [400, 'invalid_report', BadRequestError],
    [401, 'unauthenticated', UnauthenticatedError],
    [404, 'user_not_found', UserNotFoundError],
    [404, 'not_found', NotFoundError],
    [405, 'method_not_allowed', ApiError],
    [413, 'payload_too_large', ApiError],
    [415, 'unsupported_media_type', UnsupportedMediaTypeError],
    [429, 'rate_limited', RateLimitedError],
    [500, 'internal_error', ServerError],
  ])('maps %i %s to its class with status, code and detail', async (status, code, ErrorClass) => {
    const { api } = client(problem(status, code));
    const error = await api
      .user('bob')
      .follow()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ status, code, detail: `detail of ${code}` });
  });

  it('a user that is not found is also a NotFoundError', async () => {
    const { api } = client(problem(404, 'user_not_found'));
    await expect(api.user('nobody')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('carries Retry-After seconds on a rate limit', async () => {
    const { api } = client(problem(429, 'rate_limited', { 'retry-after': '120' }));
    const error = await api
      .user('bob')
      .report('spam')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfter).toBe(120);
  });

  it('retries an idempotent read after a 503 and honours Retry-After', async () => {
    const wire = recordingFetch(problem(503, 'service_unavailable', { 'retry-after': '0' }), json({ count: 3 }));
    const api = createClient({ baseUrl, token: 't', fetch: wire.fetch, retries: 2 });
    expect(await api.inbox.count()).toBe(3);
    expect(wire.requests).toHaveLength(2);
  });

  it('does not wait out a long Retry-After: the caller gets the rate limit at once', async () => {
    const wire = recordingFetch(problem(429, 'rate_limited', { 'retry-after': '3600' }));
    const api = createClient({ baseUrl, token: 't', fetch: wire.fetch, retries: 2 });
    await expect(api.inbox.count()).rejects.toMatchObject({ retryAfter: 3600 });
    expect(wire.requests).toHaveLength(1);
  });

  it.each([
    ['follow', (api: ReturnType<typeof createClient>) => api.user('bob').follow()],
    ['unfollow', (api: ReturnType<typeof createClient>) => api.user('bob').unfollow()],
    ['report', (api: ReturnType<typeof createClient>) => api.user('bob').report('spam')],
    ['markRead', (api: ReturnType<typeof createClient>) => api.inbox.markRead('all')],
    ['delete', (api: ReturnType<typeof createClient>) => api.inbox.delete('all')],
    ['markUnread', (api: ReturnType<typeof createClient>) => api.inbox.markUnread([id(1)])],
    ['undo', (api: ReturnType<typeof createClient>) => api.inbox.undo('u.s')],
  ])('re-sends %s after a 503 with the same Idempotency-Key, at most twice', async (_, operation) => {
    const unavailable = () => problem(503, 'service_unavailable', { 'retry-after': '0' });
    const wire = recordingFetch(unavailable(), unavailable(), unavailable());
    const api = createClient({ baseUrl, token: 't', fetch: wire.fetch, retries: 2 });
    await expect(operation(api)).rejects.toBeInstanceOf(ServerError);
    const keys = wire.requests.map((request) => request.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('turns a failed connection into a NetworkError, after retrying a read', async () => {
    const refuse = () => Promise.reject(new TypeError('fetch failed'));
    const wire = recordingFetch(refuse, refuse);
    const api = createClient({ baseUrl, token: 't', fetch: wire.fetch, retries: 1 });
    await expect(api.inbox.count()).rejects.toBeInstanceOf(NetworkError);
    expect(wire.requests).toHaveLength(2);
  });

  it('gives up after the timeout with a TimeoutError', async () => {
    const hang = hangUntilAborted;
    const wire = recordingFetch(hang);
    const api = createClient({ baseUrl, token: 't', fetch: wire.fetch, timeout: 50, retries: 0 });
    await expect(api.inbox.count()).rejects.toBeInstanceOf(TimeoutError);
  });

  it.each([
    ['a count of the wrong type', () => json({ count: '7' })],
    ['a negative count', () => json({ count: -1 })],
    ['a missing field', () => json({})],
    ['truncated JSON', () => new Response('{"count": 7', { headers: { 'content-type': 'application/json' } })],
    ['an HTML page', () => new Response('<html>hello</html>', { headers: { 'content-type': 'text/html' } })],
    [
      'an HTML error page',
      () => new Response('<h1>Bad gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } }),
    ],
    ['a huge body', () => json({ count: 1, padding: 'x'.repeat(3 * 1024 * 1024) })],
  ])('refuses %s with a typed error, never as data', async (_, reply) => {
    const { api } = client(reply());
    const error = await api.inbox.count().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(NetworkError);
  });

  it('refuses a page whose notifications break the contract', async () => {
    const { api } = client(json({ data: [{ ...notification(1), type: 'poke' }], cursor: null }));
    await expect(api.inbox.fetch()).rejects.toThrow(/data\.0\.type/);
  });

  it('refuses a follow answered with anything but 204', async () => {
    const { api } = client(json({ ok: true }));
    await expect(api.user('bob').follow()).rejects.toBeInstanceOf(InvalidResponseError);
  });
});
