import fc from 'fast-check';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IdsBodySchema,
  IdsListBodySchema,
  isUsername,
  LIMITS,
  type Notification,
  type Page,
  REPORT_REASONS,
  ReportBodySchema,
} from '../../../lib/api';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../../support/service';
import { type Answer, databaseDigest, exchange, expectContractAnswer } from './support';

/** Requests any client could send, chosen at random; every endpoint, every part of a request. */

const API_PATHS = [
  '/api/inbox/fetch',
  '/api/inbox/count',
  '/api/inbox/read',
  '/api/inbox/delete',
  '/api/inbox/unread',
  '/api/inbox/undo',
  '/api/user/nobody',
  '/api/user/nobody/follow',
  '/api/user/nobody/report',
  '/api/openapi.json',
  '/',
  '/@nobody',
];
const NASTY = ['%', '%ZZ', '%E0%A4%A', '%00', '%2e%2e', '..', '.', '%2F', '\\', '//', '@', '*', ';', '%C0%AE', '+'];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'MKCOL'];

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), printable, fc.constantFrom(...NASTY));
const segment = fc.oneof(
  fc.constantFrom(...NASTY),
  text.map(encodeURIComponent),
  fc.constantFrom('api', 'inbox', 'user'),
);
const path = fc.oneof(
  fc.constantFrom(...API_PATHS),
  fc.tuple(fc.constantFrom(...API_PATHS), fc.array(segment, { maxLength: 3 })).map(([p, s]) => [p, ...s].join('/')),
  fc.array(segment, { maxLength: 5 }).map((s) => `/${s.join('/')}`),
);
const queryPart = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.tuple(fc.constantFrom('limit', 'cursor', 'unreadOnly', 'x'), text).map(([k, value]) => `${k}=${value}`),
  fc
    .tuple(fc.constantFrom('limit', 'cursor', 'unreadOnly'), text)
    .map(([k, value]) => `${k}=${encodeURIComponent(value)}`),
);
const query = fc.array(queryPart, { maxLength: 4 }).map((parts) => (parts.length ? `?${parts.join('&')}` : ''));
const headerName = fc.oneof(
  fc.constantFrom('accept', 'content-type', 'if-none-match', 'cookie', 'origin', 'referer', 'forwarded'),
  fc.constantFrom('x-forwarded-host', 'x-forwarded-for', 'x-http-method-override', 'accept-encoding', 'range'),
  fc.stringMatching(/^x-[a-z0-9-]{1,12}$/),
);
const jsonText = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.json(),
);
const nested = fc.integer({ min: 1, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`);
const body = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), jsonText, nested);
/**
 * Whether the service takes a body as JSON: an empty body is no body; fetch labels a string
 * body without a Content-Type as text/plain; JSON is UTF-8 only.
 */
function labelledJson(body: string, type: string | undefined): boolean {
  if (body === '') return true;
  if (type === undefined) return false;
  const [essence, ...parameters] = type.split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '');
  return essence === 'application/json' && (charset === undefined || charset === 'utf-8');
}

const contentType = fc.option(
  fc.oneof(
    fc.constantFrom('application/json', 'text/plain', 'text/html', 'application/x-www-form-urlencoded'),
    fc.constantFrom('multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/problem+json'),
    printable,
  ),
  { nil: undefined },
);

describe.each(BACKENDS)('the API under random requests on %s', (backend) => {
  let service: TestService;
  let me: TestUser;
  let other: TestUser;
  let target: TestUser;
  /** Every notification of `me`, newest first, as the service lists them. */
  let mine: Notification[];

  beforeAll(async () => {
    service = await startTestService({ backend });
    [me, other, target] = await Promise.all([service.newUser('me'), service.newUser('other'), service.newUser('tgt')]);
    await service.fillInbox(me.username, 25);
    await service.fillInbox(me.username, 15, { read: true, newest: new Date(Date.now() - 3_600_000).toISOString() });
    await service.fillInbox(other.username, 10);
    mine = (await me.client.inbox.fetch({ limit: 100 })).data;
  });
  afterAll(() => service?.close());

  const digest = () => databaseDigest(service.server.database);

  /**
   * Sends a request and checks what holds for every answer: no 5xx, no hang, problem+json for
   * every failure, and the stored data untouched unless the answer is a success.
   */
  async function send(
    method: string,
    url: string,
    init: { token?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answer & { code?: string }> {
    const before = await digest();
    const headers = new Headers(init.headers);
    if (init.token) headers.set('authorization', `Bearer ${init.token}`);
    const answer = await exchange(`${service.origin}${url}`, { method, headers, body: init.body });
    const contentType = answer.headers.get('content-type');
    // The web site's pages answer people in HTML; everything else is the API's.
    const page = !url.startsWith('/api/') && contentType?.startsWith('text/html');
    expect(answer.status).toBeLessThan(500);
    const code = method === 'HEAD' || page ? undefined : expectContractAnswer({ ...answer, contentType });
    if (answer.status >= 300) expect(await digest(), `${method} ${url} ${answer.status}`).toBe(before);
    return { ...answer, code };
  }

  it('answers any method, path, query, headers and body without a 5xx, and changes nothing it refuses', async () => {
    const request = fc.record({
      method: fc.constantFrom(...METHODS),
      path,
      query,
      auth: fc.constantFrom('none', 'valid', 'garbage'),
      headers: fc.dictionary(headerName, printable, { maxKeys: 4 }),
      body,
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const token = r.auth === 'valid' ? me.token : r.auth === 'garbage' ? 'x.y' : undefined;
        const withBody = r.method !== 'GET' && r.method !== 'HEAD';
        const answer = await send(r.method, `${r.path}${r.query}`, {
          token,
          headers: r.headers,
          body: withBody ? r.body : undefined,
        });
        // The only request here that may change data is one that never names an existing id or user.
        if (answer.status < 300 && r.method !== 'GET' && r.method !== 'HEAD') {
          expect(JSON.parse(answer.text)).toMatchObject({ count: 0 });
        }
      }),
      { numRuns: 150 },
    );
  });

  describe('GET /inbox/fetch', () => {
    const limitValid = (value: string) => /^[0-9]{1,3}$/.test(value) && Number(value) >= 1 && Number(value) <= 100;

    it('answers every query with the right page or the right problem', async () => {
      const firstPages = {
        all: await me.client.inbox.fetch({ limit: 7 }),
        unread: await me.client.inbox.fetch({ limit: 7, unreadOnly: true }),
      };
      const otherCursor = (await other.client.inbox.fetch({ limit: 3 })).cursor as string;
      const ownCursor = firstPages.all.cursor as string;
      const unreadCursor = firstPages.unread.cursor as string;
      const edit = fc.record({ at: fc.nat({ max: ownCursor.length }), cut: fc.nat({ max: 3 }), insert: printable });
      const cursor = fc.oneof(
        fc.constant({ value: ownCursor, listing: 'all' as const }),
        fc.constant({ value: unreadCursor, listing: 'unread' as const }),
        fc.constant({ value: otherCursor, listing: 'other' as const }),
        edit.map(({ at, cut, insert }) => ({
          value: ownCursor.slice(0, at) + insert + ownCursor.slice(at + cut),
          listing: 'altered' as const,
        })),
        fc.tuple(fc.nat({ max: 24 }), fc.constantFrom('=', '!', '~', '%20')).map(([back, noise]) => ({
          value: ownCursor.slice(0, ownCursor.length - back) + noise + ownCursor.slice(ownCursor.length - back),
          listing: 'altered' as const,
        })),
        text.map((value) => ({ value, listing: 'random' as const })),
      );
      const params = fc.record(
        {
          limit: fc.oneof(fc.integer({ min: -5, max: 150 }).map(String), text),
          unreadOnly: fc.oneof(fc.constantFrom('true', 'false'), text),
          cursor,
        },
        { requiredKeys: [] },
      );
      const repeat = fc.option(fc.constantFrom('limit', 'unreadOnly', 'cursor'), { nil: undefined });

      await fc.assert(
        fc.asyncProperty(params, repeat, async (p, repeated) => {
          const pairs: [string, string][] = [];
          if (p.limit !== undefined) pairs.push(['limit', p.limit]);
          if (p.unreadOnly !== undefined) pairs.push(['unreadOnly', p.unreadOnly]);
          if (p.cursor !== undefined) pairs.push(['cursor', p.cursor.value]);
          const again = pairs.find(([key]) => key === repeated);
          if (again) pairs.push(again);
          const qs = pairs.map(([k, value]) => `${k}=${encodeURIComponent(value)}`).join('&');
          const answer = await send('GET', `/api/inbox/fetch?${qs}`, { token: me.token });

          const unreadOnly = p.unreadOnly === 'true';
          const listing = unreadOnly ? 'unread' : 'all';
          const problems = new Set<string>();
          if (p.limit !== undefined && !limitValid(p.limit)) problems.add('invalid_limit');
          if (p.unreadOnly !== undefined && p.unreadOnly !== 'true' && p.unreadOnly !== 'false') {
            problems.add('invalid_parameter');
          }
          const cursorFits =
            p.cursor === undefined ||
            p.cursor.listing === listing ||
            (p.cursor.listing === 'altered' && p.cursor.value === ownCursor && listing === 'all');
          if (!cursorFits) problems.add('invalid_cursor');
          if (again)
            problems.add(
              again[0] === 'limit' ? 'invalid_limit' : again[0] === 'cursor' ? 'invalid_cursor' : 'invalid_parameter',
            );

          if (problems.size > 0) {
            expect(answer.status, qs).toBe(400);
            expect([...problems], qs).toContain(answer.code);
            return;
          }
          expect(answer.status, qs).toBe(200);
          const page = JSON.parse(answer.text) as Page;
          const limit = p.limit === undefined ? LIMITS.pageSizeDefault : Number(p.limit);
          const listed = unreadOnly ? mine.filter((n) => !n.read) : mine;
          const start = p.cursor === undefined ? 0 : 7;
          expect(page.data.map((n) => n.id)).toEqual(listed.slice(start, start + limit).map((n) => n.id));
        }),
        { numRuns: 150 },
      );
    });
  });

  describe.each([
    ['POST /inbox/read', '/api/inbox/read', IdsBodySchema],
    ['POST /inbox/delete', '/api/inbox/delete', IdsBodySchema],
    ['POST /inbox/unread', '/api/inbox/unread', IdsListBodySchema],
  ] as const)('%s', (_, url, schema) => {
    const ids = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom('ALL', 'All', ' all', 'all ', '*', '', 'all\u0000'),
      fc.array(
        fc.oneof(
          fc.uuid(),
          fc.uuid().map((id) => id.toUpperCase()),
          text,
          fc.jsonValue(),
        ),
        { maxLength: 8 },
      ),
      fc.array(fc.uuid(), { maxLength: 520 }),
    );
    const bodyText = fc.oneof(
      body,
      fc.record({ ids }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
      fc
        .tuple(fc.record({ ids }), fc.dictionary(printable, fc.jsonValue(), { maxKeys: 3 }))
        .map(([a, b]) => JSON.stringify({ ...b, ...a })),
      nested.map((array) => `{"ids":${array}}`),
    );

    it('answers any body as the contract says, and never touches a notification the ids do not name', async () => {
      await fc.assert(
        fc.asyncProperty(bodyText, contentType, async (sent, type) => {
          const answer = await send('POST', url, {
            token: me.token,
            body: sent,
            headers: type === undefined ? {} : { 'content-type': type },
          });
          let parsed: unknown;
          try {
            parsed = sent.trim() === '' ? undefined : JSON.parse(sent);
          } catch {
            parsed = undefined;
          }
          if (!labelledJson(sent, type)) {
            expect(answer.status, `${type} ${sent}`).toBe(415);
            expect(answer.code).toBe('unsupported_media_type');
          } else if (v.is(schema, parsed)) {
            expect(answer.status, sent).toBe(200);
            expect(JSON.parse(answer.text)).toEqual({ success: true, count: 0, undo: null });
          } else {
            expect(answer.status, sent).toBe(400);
            expect(answer.code).toBe('invalid_ids');
          }
        }),
        { numRuns: 120 },
      );
    });
  });

  describe('POST /inbox/undo', () => {
    it('puts back nothing for any token but a genuine one of the caller, and answers each as the contract says', async () => {
      const [first = ''] = (await other.client.inbox.fetch()).data.map((n) => n.id);
      const theirs = (await other.client.inbox.markRead([first])).undo as string;
      const used = (await me.client.inbox.markUnread([(mine.find((n) => n.read) as Notification).id])).undo as string;
      await me.client.inbox.undo(used);
      const genuine = [theirs, used];
      const edit = fc.oneof(
        fc.constantFrom(...genuine),
        fc
          .tuple(fc.constantFrom(...genuine), fc.nat(), printable)
          .map(
            ([token, at, insert]) => `${token.slice(0, at % token.length)}${insert}${token.slice(at % token.length)}`,
          ),
        fc
          .tuple(fc.constantFrom(...genuine), fc.nat())
          .map(([token, at]) => `${token.slice(0, at % token.length)}${token.slice((at % token.length) + 1)}`),
        fc.constantFrom(...genuine).map((token) => token.toUpperCase()),
        text,
      );
      const bodyText = fc.oneof(
        body,
        edit.map((undo) => JSON.stringify({ undo })),
        fc.record({ undo: fc.jsonValue() }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
      );
      await fc.assert(
        fc.asyncProperty(bodyText, async (sent) => {
          const answer = await send('POST', '/api/inbox/undo', {
            token: me.token,
            body: sent,
            headers: { 'content-type': 'application/json' },
          });
          expect([400, 410], `${sent} ${answer.text}`).toContain(answer.status);
          expect(answer.code).toBe(answer.status === 410 ? 'undo_expired' : 'invalid_undo');
          // Only the caller's own spent token is told apart, as spent.
          if (answer.status === 410) expect(JSON.parse(sent)).toEqual({ undo: used });
        }),
        { numRuns: 150 },
      );
      // The owner's token survived all of it.
      expect(await other.client.inbox.undo(theirs)).toEqual({ success: true, count: 1 });
    });
  });

  describe('usernames', () => {
    const known = () => [me, other, target].map((u) => u.username.toLowerCase());
    const username = fc.oneof(
      text,
      fc.stringMatching(/^[A-Za-z0-9_]{1,34}$/),
      fc.constantFrom('.', '..', '', ' ', 'nobody'),
      fc.constant(null).map(() => target.username.toUpperCase()),
    );

    it('finds exactly the users that exist, in any letter case, and nothing for anything else', async () => {
      await fc.assert(
        fc.asyncProperty(username, fc.boolean(), async (name, signedIn) => {
          const answer = await send('GET', `/api/user/${encodeURIComponent(name)}`, {
            token: signedIn ? me.token : undefined,
          });
          if (isUsername(name) && known().includes(name.toLowerCase())) {
            expect(answer.status).toBe(200);
            expect(JSON.parse(answer.text).username.toLowerCase()).toBe(name.toLowerCase());
          } else {
            expect(answer.status, name).toBe(404);
          }
        }),
        { numRuns: 100 },
      );
    });

    it('changes nothing when following, unfollowing or reporting a name that is no one', async () => {
      const actions = [
        ['POST', 'follow', undefined],
        ['DELETE', 'follow', undefined],
        ['POST', 'report', '{"reason":"spam","comment":""}'],
      ] as const;
      await fc.assert(
        fc.asyncProperty(
          // "." and ".." are path steps, not names: the URL they make addresses another route.
          username.filter(
            (name) => name !== '.' && name !== '..' && !(isUsername(name) && known().includes(name.toLowerCase())),
          ),
          fc.constantFrom(...actions),
          async (name, [method, action, sent]) => {
            // Follow calls count against the caller's hour even for no one; the limit is not what runs here.
            await service.server.database.query('DELETE FROM follow_calls');
            const answer = await send(method, `/api/user/${encodeURIComponent(name)}/${action}`, {
              token: me.token,
              body: sent,
              headers: sent === undefined ? {} : { 'content-type': 'application/json' },
            });
            expect(answer.status, name).toBe(404);
          },
        ),
        { numRuns: 100 },
      );
    });
  });

  describe('POST /user/{username}/report', () => {
    it('takes a report exactly when reason and comment are valid, and stores nothing else', async () => {
      const reporter = await service.newUser('reporter');
      const reportText = fc.oneof(
        body,
        fc
          .record(
            {
              reason: fc.oneof(fc.constantFrom(...REPORT_REASONS), text, fc.jsonValue()),
              comment: fc.oneof(
                fc.string({ maxLength: 40 }),
                fc.string({ minLength: 1995, maxLength: 2005 }),
                fc.constantFrom('a\u0000b', '<script>alert(1)</script>'),
                fc.jsonValue(),
              ),
            },
            { requiredKeys: [] },
          )
          .map((value) => JSON.stringify(value)),
      );
      let taken = 0;
      await fc.assert(
        fc.asyncProperty(reportText, contentType, async (sent, type) => {
          const answer = await send('POST', `/api/user/${target.username}/report`, {
            token: reporter.token,
            body: sent,
            headers: type === undefined ? {} : { 'content-type': type },
          });
          let parsed: unknown;
          try {
            parsed = JSON.parse(sent);
          } catch {
            parsed = undefined;
          }
          const valid = v.is(ReportBodySchema, parsed) && !parsed.comment.includes('\u0000');
          if (!labelledJson(sent, type)) {
            expect(answer.status, `${type} ${sent}`).toBe(415);
            expect(answer.code).toBe('unsupported_media_type');
          } else if (!valid) {
            expect(answer.status, sent).toBe(400);
            expect(answer.code).toBe('invalid_report');
          } else if (taken < LIMITS.reportsPerHour) {
            expect(answer.status, sent).toBe(201);
            taken += 1;
          } else {
            expect(answer.status, sent).toBe(429);
          }
        }),
        { numRuns: 80 },
      );
      const { rows } = await service.server.database.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM reports r JOIN users u ON u.id = r.reporter_id WHERE u.username = $1',
        [reporter.username],
      );
      expect(rows[0]?.n).toBe(taken);
    });
  });

  describe('headers', () => {
    it('takes exactly the caller’s own token, in any spelling of the scheme, and no other', async () => {
      const edit = fc.record({ at: fc.nat({ max: me.token.length }), cut: fc.nat({ max: 2 }), insert: printable });
      const header = fc.oneof(
        printable,
        fc
          .tuple(fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Token', ''), fc.stringMatching(/^ {0,3}$/))
          .map(([scheme, space]) => `${scheme} ${space}${me.token}`),
        edit.map(({ at, cut, insert }) => `Bearer ${me.token.slice(0, at)}${insert}${me.token.slice(at + cut)}`),
      );
      await fc.assert(
        fc.asyncProperty(header, fc.constantFrom('/api/inbox/count', '/api/inbox/fetch'), async (value, url) => {
          const answer = await send('GET', url, { headers: { authorization: value } });
          const given = /^bearer +(\S*) *$/i.exec(value.trim())?.[1];
          expect(answer.status, value).toBe(given === me.token ? 200 : 401);
        }),
        { numRuns: 100 },
      );
    });

    it('answers If-None-Match with 304 exactly when it names the current ETag or *', async () => {
      const tag = (await send('GET', '/api/inbox/count', { token: me.token })).headers.get('etag') as string;
      const list = fc.array(fc.oneof(printable, fc.constantFrom(tag, `W/${tag}`, '*', '"0"')), {
        minLength: 1,
        maxLength: 3,
      });
      await fc.assert(
        fc.asyncProperty(list, async (values) => {
          const value = values.join(', ');
          const answer = await send('GET', '/api/inbox/count', {
            token: me.token,
            headers: { 'if-none-match': value },
          });
          const matches = value
            .split(',')
            .map((candidate) => candidate.trim())
            .some((candidate) => candidate === '*' || candidate.replace(/^W\//, '') === tag);
          expect(answer.status, value).toBe(matches ? 304 : 200);
        }),
        { numRuns: 80 },
      );
    });
  });
});
