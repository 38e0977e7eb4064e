import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  BulkResultSchema,
  CountSchema,
  createClient,
  InvalidArgumentError,
  InvalidResponseError,
  isUsername,
  LIMITS,
  NOTIFICATION_TYPES,
  PageSchema,
  ProfileSchema,
  REPORT_REASONS,
  ReportResultSchema,
  reviveError,
  TimeoutError,
  UndoResultSchema,
} from '../../../lib/api';
import { MAX_ANSWER_BYTES } from '../../../lib/api/http';
import { notificationFixture } from '../../support/fixtures';
import { json, recordingFetch } from '../../support/recording-fetch';

/**
 * The client against callers that pass anything and services that answer anything: bad input
 * never leaves the client, and a bad answer never reaches the caller as data.
 */

const baseUrl = 'http://api.test/api';
type Client = ReturnType<typeof createClient>;

function refusing() {
  const wire = recordingFetch();
  return { wire, api: createClient({ baseUrl, token: 't', fetch: wire.fetch, retries: 0 }) };
}

/** Calls `run`; the value it returned, or the error it threw, synchronously or not. */
async function outcome(run: () => unknown): Promise<{ value?: unknown; error?: unknown }> {
  try {
    return { value: await run() };
  } catch (error) {
    return { error };
  }
}

const notUuid = fc.anything().filter((value) => !(typeof value === 'string' && /^[0-9a-f-]{36}$/i.test(value)));

describe('the client refuses what the contract forbids, before sending anything', () => {
  it('refuses any username that is not 1 to 30 letters, digits or underscores', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: 'binary' }), fc.anything()), async (name) => {
        fc.pre(!isUsername(name));
        const { wire, api } = refusing();
        for (const action of [
          (u: ReturnType<Client['user']>) => u.get(),
          (u: ReturnType<Client['user']>) => u.follow(),
          (u: ReturnType<Client['user']>) => u.report('spam', ''),
        ]) {
          const { error } = await outcome(() => action(api.user(name as string)));
          expect(error).toBeInstanceOf(InvalidArgumentError);
        }
        expect(wire.requests).toHaveLength(0);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses any selection that is not "all" or at most 500 UUIDs', async () => {
    const uuids = fc.array(fc.uuid(), { maxLength: 3 });
    const selection = fc.oneof(
      notUuid.filter((value) => value !== 'all' && !(Array.isArray(value) && value.length === 0)),
      fc.tuple(uuids, notUuid, uuids).map(([a, bad, b]) => [...a, bad, ...b]),
      fc.array(fc.uuid(), { minLength: LIMITS.idsPerCall + 1, maxLength: LIMITS.idsPerCall + 3 }),
      fc.constantFrom('ALL', 'All', ' all', [undefined], [null], [{}]),
    );
    await fc.assert(
      fc.asyncProperty(selection, fc.constantFrom('markRead' as const, 'delete' as const), async (ids, operation) => {
        const { wire, api } = refusing();
        const { error } = await outcome(() => api.inbox[operation](ids as never));
        expect(error).toBeInstanceOf(InvalidArgumentError);
        expect(error).toMatchObject({ code: 'invalid_ids', status: 0 });
        expect(wire.requests).toHaveLength(0);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses any mark-unread selection that is not at most 500 UUIDs, "all" included', async () => {
    const uuids = fc.array(fc.uuid(), { maxLength: 3 });
    const selection = fc.oneof(
      notUuid.filter((value) => !(Array.isArray(value) && value.length === 0)),
      fc.tuple(uuids, notUuid, uuids).map(([a, bad, b]) => [...a, bad, ...b]),
      fc.array(fc.uuid(), { minLength: LIMITS.idsPerCall + 1, maxLength: LIMITS.idsPerCall + 3 }),
      fc.constantFrom('all', 'ALL', [undefined], [null]),
    );
    await fc.assert(
      fc.asyncProperty(selection, async (ids) => {
        const { wire, api } = refusing();
        const { error } = await outcome(() => api.inbox.markUnread(ids as never));
        expect(error).toMatchObject({ code: 'invalid_ids', status: 0 });
        expect(wire.requests).toHaveLength(0);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses any undo token that is not a non-empty string of at most 256 characters', async () => {
    const token = fc.oneof(
      fc.anything().filter((value) => typeof value !== 'string'),
      fc.constant(''),
      fc.string({ minLength: LIMITS.undoTokenMax + 1, maxLength: LIMITS.undoTokenMax + 40 }),
    );
    await fc.assert(
      fc.asyncProperty(token, async (given) => {
        const { wire, api } = refusing();
        const { error } = await outcome(() => api.inbox.undo(given as never));
        expect(error).toMatchObject({ code: 'invalid_undo', status: 0 });
        expect(wire.requests).toHaveLength(0);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses any page size, cursor or unreadOnly the service would refuse', async () => {
    const options = fc.oneof(
      fc.record({
        limit: fc
          .anything()
          .filter((x) => x !== undefined && !(Number.isInteger(x) && (x as number) >= 1 && (x as number) <= 100)),
      }),
      fc.record({
        cursor: fc.anything().filter((x) => x !== undefined && x !== null && (typeof x !== 'string' || x === '')),
      }),
      fc.record({ unreadOnly: fc.anything().filter((x) => x !== undefined && typeof x !== 'boolean') }),
    );
    await fc.assert(
      fc.asyncProperty(options, async (given) => {
        const { wire, api } = refusing();
        const { error } = await outcome(() => api.inbox.fetch(given as never));
        expect(error).toBeInstanceOf(InvalidArgumentError);
        if (!('cursor' in given)) {
          const { error: walkError } = await outcome(() => api.inbox.pages(given as never).next());
          expect(walkError).toBeInstanceOf(InvalidArgumentError);
        }
        expect(wire.requests).toHaveLength(0);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses any reason outside the list and any comment that is not text of at most 2000 characters', async () => {
    const report = fc.oneof(
      fc.tuple(
        fc.anything().filter((x) => !(REPORT_REASONS as readonly unknown[]).includes(x)),
        fc.string(),
      ),
      fc.tuple(
        fc.constantFrom(...REPORT_REASONS),
        fc.oneof(
          fc.string({ minLength: LIMITS.reportCommentMax + 1, maxLength: LIMITS.reportCommentMax + 5 }),
          fc.anything().filter((x) => typeof x !== 'string' && x !== undefined),
        ),
      ),
    );
    await fc.assert(
      fc.asyncProperty(report, async ([reason, comment]) => {
        const { wire, api } = refusing();
        const { error } = await outcome(() => api.user('bob').report(reason as never, comment as never));
        expect(error).toBeInstanceOf(InvalidArgumentError);
        expect(wire.requests).toHaveLength(0);
      }),
      { numRuns: 150 },
    );
  });
});

/** Answers no service that keeps the contract would give, or any answer at all. */
const notification = notificationFixture(1);
const GOOD = {
  page: { data: [notification], cursor: 'abc' },
  count: { count: 3 },
  bulk: { success: true, count: 1, undo: 'b3BlcmF0aW9u.c2lnbmF0dXJl' },
  undo: { success: true, count: 1 },
  profile: {
    username: 'bob',
    displayName: 'Bob',
    bio: '',
    avatarUrl: null,
    followersCount: 1,
    followingCount: 2,
    createdAt: '2026-01-02T03:04:05.000Z',
  },
  report: { id: notification.id, status: 'received', reason: 'spam', createdAt: '2026-11-21T09:00:00.000Z' },
};

/** A JSON value with one part replaced by anything. */
function mutated(value: unknown): fc.Arbitrary<unknown> {
  if (Array.isArray(value)) {
    return fc.oneof(
      fc.jsonValue(),
      fc
        .nat({ max: Math.max(0, value.length - 1) })
        .chain((i) => mutated(value[i]).map((part) => value.map((item, j) => (i === j ? part : item)))),
    );
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    return fc.oneof(
      fc.jsonValue(),
      fc.constantFrom(...keys).map((key) => {
        const { [key]: _, ...rest } = value as Record<string, unknown>;
        return rest;
      }),
      fc
        .constantFrom(...keys)
        .chain((key) => mutated((value as Record<string, unknown>)[key]).map((part) => ({ ...value, [key]: part }))),
    );
  }
  return fc.oneof(
    fc.jsonValue(),
    fc.constantFrom(null, '', -1, 1.5, 1e308, 'javascript:alert(1)', '<img src=x onerror=alert(1)>', [], {}),
  );
}

const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/problem+json',
  'text/html',
  'text/plain',
  'application/octet-stream',
  '',
);

function answerText(good: unknown): fc.Arbitrary<string> {
  const text = JSON.stringify(good);
  return fc.oneof(
    mutated(good).map((value) => JSON.stringify(value) ?? ''),
    fc.nat({ max: text.length - 1 }).map((cut) => text.slice(0, cut)),
    fc.constantFrom('<!doctype html><h1>502 Bad Gateway</h1>', '', 'null', '\u0000\u0001', '{"count":1}{"count":2}'),
    fc.string({ unit: 'binary' }),
  );
}

const OPERATIONS: [string, unknown, v.GenericSchema | null, (api: Client) => Promise<unknown>][] = [
  ['fetch', GOOD.page, PageSchema, (api) => api.inbox.fetch()],
  ['count', GOOD.count, CountSchema, (api) => api.inbox.count().then((count) => ({ count }))],
  ['markRead', GOOD.bulk, BulkResultSchema, (api) => api.inbox.markRead('all')],
  ['delete', GOOD.bulk, BulkResultSchema, (api) => api.inbox.delete([notification.id])],
  ['markUnread', GOOD.bulk, BulkResultSchema, (api) => api.inbox.markUnread([notification.id])],
  ['undo', GOOD.undo, UndoResultSchema, (api) => api.inbox.undo('b3BlcmF0aW9u.c2lnbmF0dXJl')],
  ['profile', GOOD.profile, ProfileSchema, (api) => api.user('bob').get()],
  ['report', GOOD.report, ReportResultSchema, (api) => api.user('bob').report('spam', 'x')],
  ['follow', null, null, (api) => api.user('bob').follow()],
];

describe('the client hands on valid data or a typed error, whatever the service answers', () => {
  it.each(OPERATIONS)('%s', async (_, good, schema, run) => {
    const reply = fc.record({
      status: fc.oneof(
        fc.constantFrom(200, 201, 204, 304, 400, 401, 404, 429, 500, 502, 503),
        fc.integer({ min: 200, max: 599 }),
      ),
      type: contentTypes,
      text: answerText(good ?? { x: 1 }),
      retryAfter: fc.option(fc.oneof(fc.nat().map(String), fc.string()), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(reply, async ({ status, type, text, retryAfter }) => {
        const noBody = status === 204 || status === 205 || status === 304;
        const headers: Record<string, string> = type ? { 'content-type': type } : {};
        if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
        const wire = recordingFetch(new Response(noBody ? null : text, { status, headers }));
        const api = createClient({ baseUrl, token: 't', fetch: wire.fetch, retries: 0 });
        const { value, error } = await outcome(() => run(api));
        if (error !== undefined) {
          expect(error).toBeInstanceOf(ApiError);
          return;
        }
        expect(status).toBeLessThan(300);
        if (schema) expect(v.is(schema, value), JSON.stringify(value)).toBe(true);
        else expect(status).toBe(204);
      }),
      { numRuns: 150 },
    );
  });

  it('never lets a notification of a type outside the contract through', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string().filter((type) => !(NOTIFICATION_TYPES as readonly string[]).includes(type)),
        async (type) => {
          const wire = recordingFetch(json({ data: [{ ...notification, type }], cursor: null }));
          const api = createClient({ baseUrl, token: 't', fetch: wire.fetch, retries: 0 });
          await expect(api.inbox.fetch()).rejects.toBeInstanceOf(InvalidResponseError);
        },
      ),
      { numRuns: 50 },
    );
  });

  const streamOf = (bytes: number, chunk = 64 * 1024) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        const filler = new TextEncoder().encode(' '.repeat(chunk));
        for (let sent = 0; sent < bytes; sent += chunk)
          controller.enqueue(filler.subarray(0, Math.min(chunk, bytes - sent)));
        controller.close();
      },
    });

  it('reads an answer of exactly the size limit, and refuses one byte more, declared or streamed', async () => {
    const body = JSON.stringify({ count: 4 });
    const padded = (size: number) => body + ' '.repeat(size - body.length);
    const call = (response: Response) =>
      createClient({ baseUrl, token: 't', fetch: recordingFetch(response).fetch, retries: 0 }).inbox.count();
    const typed = { 'content-type': 'application/json' };
    await expect(call(new Response(padded(MAX_ANSWER_BYTES), { headers: typed }))).resolves.toBe(4);
    await expect(call(new Response(padded(MAX_ANSWER_BYTES + 1), { headers: typed }))).rejects.toBeInstanceOf(
      InvalidResponseError,
    );
    await expect(
      call(new Response(body, { headers: { ...typed, 'content-length': String(MAX_ANSWER_BYTES + 1) } })),
    ).rejects.toBeInstanceOf(InvalidResponseError);
    const stream = new Response(streamOf(MAX_ANSWER_BYTES + 1), { headers: typed });
    await expect(call(stream)).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('stops reading a body that never ends, with a TimeoutError', async () => {
    const server = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => response.write(' '), 10);
      response.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const api = createClient({ baseUrl: `http://127.0.0.1:${port}/api`, token: 't', retries: 0, timeout: 200 });
      await expect(api.inbox.count()).rejects.toBeInstanceOf(TimeoutError);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('errors that crossed a context boundary', () => {
  it('always come back as an ApiError, whatever arrived', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBigInt: true, withBoxedValues: true }), (value) => {
        expect(reviveError(value)).toBeInstanceOf(ApiError);
      }),
      { numRuns: 300 },
    );
  });
});
