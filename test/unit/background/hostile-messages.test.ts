import fc from 'fast-check';
import * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  ApiError,
  IdsBodySchema,
  isUsername,
  MuteBodySchema,
  PolicyBodySchema,
  parseOffsetTimestamp,
  ReportBodySchema,
} from '../../../lib/api';
import type { Sender } from '../../../lib/background/sender';
import { MESSAGE_SCOPE, type MessageType, messaging } from '../../../lib/messaging';
import { ACCOUNT, signedIn, storedToken } from '../../support/background';
import { answerMessages, deliver, EXTENSION_ID, popupSender, profileTabSender } from '../../support/messages';

/**
 * Messages from anyone, with anything in them. Whoever sends a message and whatever it holds,
 * the token stays in the background, and every request that leaves is one the contract allows,
 * sent with the token only to the API it was given for.
 */

const TOKEN = 'very-secret-token-123';
const API = 'http://127.0.0.1:8787';
const SITE = 'http://127.0.0.1:8787';
const TYPES = Object.keys(MESSAGE_SCOPE) as MessageType[];

/** Data each message type accepts, so that only the sender can be the reason for a refusal. */
const VALID: Record<MessageType, unknown> = {
  'inbox.fetch': { account: ACCOUNT, cursor: null, unreadOnly: false },
  'inbox.countByType': { account: ACCOUNT },
  'inbox.markRead': { account: ACCOUNT, ids: 'all' },
  'inbox.delete': { account: ACCOUNT, ids: 'all' },
  'inbox.markUnread': { account: ACCOUNT, ids: [] },
  'inbox.snooze': { account: ACCOUNT, ids: [], until: '2026-11-24T09:00:00+01:00' },
  'inbox.unsnooze': { account: ACCOUNT, ids: [] },
  'inbox.fetchSnoozed': { account: ACCOUNT, cursor: null },
  'inbox.features': { account: ACCOUNT },
  'inbox.mutes': { account: ACCOUNT },
  'inbox.mute': { account: ACCOUNT, target: { actor: 'bob' }, until: null },
  'inbox.unmute': { account: ACCOUNT, id: '00000000-0000-4000-8000-000000000000' },
  'inbox.setPolicy': { account: ACCOUNT, strangers: 'mute' },
  'inbox.undo': undefined,
  'inbox.lastUndo': undefined,
  'outbox.state': { account: ACCOUNT },
  'outbox.dismiss': { account: ACCOUNT },
  'status.get': undefined,
  'status.refresh': undefined,
  'connection.test': { apiBaseUrl: `${API}/api`, token: null },
  'status.account': { account: ACCOUNT },
  'accounts.add': {
    apiBaseUrl: `${API}/api`,
    siteOrigin: SITE,
    profilePath: '/@:username',
    profileAnchor: 'main',
    token: 'another-token',
  },
  'accounts.signIn': { account: ACCOUNT, token: 'another-token' },
  'accounts.signOut': { account: ACCOUNT },
  'accounts.remove': { account: ACCOUNT },
  'options.open': undefined,
  'profile.start': { url: `${SITE}/@bob` },
  'profile.frame': { claim: 'a claim the background never gave' },
  'profile.get': { account: ACCOUNT, username: 'bob' },
  'profile.follow': { account: ACCOUNT, username: 'bob' },
  'profile.unfollow': { account: ACCOUNT, username: 'bob' },
  'profile.report': { account: ACCOUNT, username: 'bob', reason: 'spam', comment: '' },
  'profile.mute': { account: ACCOUNT, username: 'bob' },
  'profile.unmute': { account: ACCOUNT, username: 'bob' },
  'priority.note': {
    account: ACCOUNT,
    signal: 'open',
    about: [{ actor: 'bob', url: `${SITE}/@bob/posts/1`, at: '2026-11-24T09:00:00Z' }],
  },
  'priority.forget': { account: ACCOUNT, username: 'bob' },
};

/** What a request must look like to be one the contract allows; null when it is. */
async function contractViolation(request: Request): Promise<string | null> {
  const url = new URL(request.url);
  // A token the message itself carried (the options page testing one) may go where it says.
  if (url.origin !== API)
    return request.headers.get('authorization')?.includes(TOKEN) ? `the token went to ${url.origin}` : null;
  const path = url.pathname.replace(/^\/api\/user\/[^/]+/, '/api/user/:u');
  const route = `${request.method} ${path.replace(/^\/api\/inbox\/mutes\/[0-9a-f-]{36}$/, '/api/inbox/mutes/:id')}`;
  const body = await request.text();
  const username = decodeURIComponent(url.pathname.split('/')[3] ?? '');
  switch (route) {
    case 'GET /api/inbox/count':
      return null;
    case 'GET /api/inbox/fetch': {
      const p = url.searchParams;
      const ok =
        p.get('limit') === '25' &&
        ['true', 'false', null].includes(p.get('unreadOnly')) &&
        [null, 'true'].includes(p.get('snoozed')) &&
        [null, 'true'].includes(p.get('muted')) &&
        (p.get('q') === null || ((p.get('q') as string).length > 0 && (p.get('q') as string).length <= 100)) &&
        (p.get('cursor') === null || (p.get('cursor') as string).length > 0);
      return ok ? null : `fetch with ${url.search}`;
    }
    case 'POST /api/inbox/read':
    case 'POST /api/inbox/delete':
      return v.is(IdsBodySchema, JSON.parse(body)) ? null : `${route} with ${body.slice(0, 80)}`;
    case 'POST /api/inbox/snooze': {
      const { until, ...ids } = JSON.parse(body);
      const ok = v.is(IdsBodySchema, ids) && Array.isArray(ids.ids) && parseOffsetTimestamp(until) !== null;
      return ok ? null : `${route} with ${body.slice(0, 80)}`;
    }
    case 'POST /api/inbox/unsnooze':
      return v.is(IdsBodySchema, JSON.parse(body)) && Array.isArray(JSON.parse(body).ids)
        ? null
        : `${route} with ${body.slice(0, 80)}`;
    case 'GET /api/inbox/policy':
    case 'GET /api/inbox/mutes':
      return null;
    case 'DELETE /api/inbox/mutes/:id':
      return null;
    case 'PUT /api/inbox/policy':
      return v.is(PolicyBodySchema, JSON.parse(body)) ? null : `${route} with ${body.slice(0, 80)}`;
    case 'POST /api/inbox/mutes':
      return v.is(MuteBodySchema, JSON.parse(body)) ? null : `${route} with ${body.slice(0, 80)}`;
    case 'GET /api/user/:u':
    case 'POST /api/user/:u/follow':
    case 'DELETE /api/user/:u/follow':
      return isUsername(username) ? null : `${route} for ${username}`;
    case 'POST /api/user/:u/report':
      return isUsername(username) && v.is(ReportBodySchema, JSON.parse(body)) ? null : `report ${body.slice(0, 80)}`;
    default:
      return `unexpected ${route}`;
  }
}

const jsonAnswer = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', etag: '"1"' } });

/** A service that keeps the contract and records every request and every breach of it. */
function contractService() {
  const requests: Request[] = [];
  const violations: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push(request);
    const problem = await contractViolation(request.clone());
    if (problem) violations.push(problem);
    const path = new URL(request.url).pathname;
    if (path.endsWith('/follow')) return new Response(null, { status: 204 });
    if (path.endsWith('/report')) {
      const reportResult = {
        id: crypto.randomUUID(),
        status: 'received',
        reason: 'spam',
        createdAt: new Date().toISOString(),
      };
      return jsonAnswer(reportResult, 201);
    }
    if (path.startsWith('/api/user/')) {
      return jsonAnswer({
        username: 'bob',
        displayName: 'Bob',
        bio: '',
        avatarUrl: null,
        followersCount: 0,
        followingCount: 0,
        createdAt: new Date().toISOString(),
      });
    }
    if (path.endsWith('/policy')) return jsonAnswer({ strangers: 'accept' });
    if (path.endsWith('/mutes') && request.method === 'GET') return jsonAnswer({ data: [] });
    if (path.endsWith('/mutes')) {
      const now = new Date().toISOString();
      return jsonAnswer({ id: crypto.randomUUID(), actor: 'bob', url: null, until: null, createdAt: now }, 201);
    }
    if (path.endsWith('/fetch')) return jsonAnswer({ data: [], cursor: null });
    if (path.endsWith('/count')) return jsonAnswer({ count: 1 });
    return jsonAnswer({ success: true, count: 0, undo: null });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests, violations };
}

const foreignUrl = fc.oneof(
  fc.constantFrom(
    'https://evil.test/@bob',
    'http://127.0.0.1:9999/@bob',
    'http://localhost:8787/@bob',
    'https://127.0.0.1:8787/@bob',
    'http://127.0.0.1:8787.evil.test/@bob',
    'http://127.0.0.1:8787@evil.test/@bob',
    `chrome-extension://someone-else/popup.html`,
    `chrome-extension://${EXTENSION_ID}.evil.test/popup.html`,
    'about:blank',
    'data:text/html,<p>hi',
    'javascript:alert(1)',
    'file:///etc/passwd',
    '',
  ),
  fc.webUrl().filter((url) => new URL(url).origin !== SITE),
);
const siteUrl = fc.constantFrom(`${SITE}/@bob`, `${SITE}/`, `${SITE}/@bob?tab=posts#top`, `${SITE}/@a/b`);
const extensionUrl = fc.constantFrom(
  `chrome-extension://${EXTENSION_ID}/popup.html`,
  `chrome-extension://${EXTENSION_ID}/options.html`,
);
const frameUrl = `chrome-extension://${EXTENSION_ID}/profile-frame.html`;
/** Whether a tab with this address shows the profile the valid messages name. */
const showsBob = (url: string | undefined) => /^http:\/\/127\.0\.0\.1:8787\/@bob(?:[?#]|$)/.test(url ?? '');
/** The messages that read or act on a named profile. */
const TARGETED: MessageType[] = [
  'profile.get',
  'profile.follow',
  'profile.unfollow',
  'profile.report',
  'profile.mute',
  'profile.unmute',
];
const anyUrl = fc.option(fc.oneof(foreignUrl, siteUrl, extensionUrl), { nil: undefined });
const tab = fc.option(fc.record({ id: fc.nat(), url: fc.oneof(foreignUrl, siteUrl) }), { nil: undefined });

/** Senders that must be refused whatever they ask, each by construction. */
const strangers: fc.Arbitrary<Sender> = fc.oneof(
  // Another extension, whatever page it claims.
  fc.record({
    id: fc.string().filter((id) => id !== EXTENSION_ID),
    url: anyUrl,
    tab,
    frameId: fc.option(fc.nat(), { nil: undefined }),
  }),
  // Something without a URL.
  fc.record({ id: fc.constant(EXTENSION_ID), tab, frameId: fc.option(fc.nat(), { nil: undefined }) }),
  // A page on another origin, or one with a lookalike address.
  fc.record({
    id: fc.constant(EXTENSION_ID),
    url: foreignUrl,
    origin: fc.option(foreignUrl, { nil: undefined }),
    tab,
    frameId: fc.constant(0),
  }),
  // An extension page framed inside a web page.
  fc.record({
    id: fc.constant(EXTENSION_ID),
    url: extensionUrl,
    tab: fc.record({ id: fc.nat(), url: fc.oneof(foreignUrl, siteUrl) }),
  }),
  // An extension page framed into a tab whose address the browser leaves out (no host
  // permission for it), or any page of the extension but the buttons' frame framed anywhere.
  fc.record({
    id: fc.constant(EXTENSION_ID),
    url: fc.oneof(extensionUrl, fc.constant(frameUrl)),
    tab: fc.record({ id: fc.nat() }),
    frameId: fc.integer({ min: 1 }),
  }),
  fc.record({
    id: fc.constant(EXTENSION_ID),
    url: extensionUrl,
    tab: fc.option(
      fc.record({ id: fc.nat(), url: fc.option(fc.oneof(foreignUrl, siteUrl, extensionUrl), { nil: undefined }) }),
      { nil: undefined },
    ),
    frameId: fc.integer({ min: 1 }),
  }),
  // The buttons' frame outside a tab of the site, or not framed at all.
  fc.record({
    id: fc.constant(EXTENSION_ID),
    url: fc.constant(frameUrl),
    tab: fc.record({ id: fc.nat(), url: foreignUrl }),
    frameId: fc.option(fc.nat(), { nil: undefined }),
  }),
  fc.record({
    id: fc.constant(EXTENSION_ID),
    url: fc.constant(frameUrl),
    tab: fc.record({ id: fc.nat(), url: siteUrl }),
    frameId: fc.option(fc.constant(0), { nil: undefined }),
  }),
  // A frame inside a site page, or a site page that is not in a tab.
  fc.record({
    id: fc.constant(EXTENSION_ID),
    url: siteUrl,
    tab,
    frameId: fc.option(fc.integer({ min: 1 }), { nil: undefined }),
  }),
  fc.record({ id: fc.constant(EXTENSION_ID), url: siteUrl, frameId: fc.constant(0) }),
  // A site page whose document claims another origin (a sandboxed or opaque frame).
  fc.record({
    id: fc.constant(EXTENSION_ID),
    url: siteUrl,
    origin: fc.oneof(
      foreignUrl.map((u) => (URL.canParse(u) ? new URL(u).origin : u)),
      fc.constant('null'),
    ),
    tab: fc.record({ id: fc.nat(), url: siteUrl }),
    frameId: fc.constant(0),
  }),
);

describe('the background against messages from anyone', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    await signedIn(TOKEN);
  });

  it('refuses every message from a sender that is neither an extension page nor the site’s top frame', async () => {
    await fc.assert(
      fc.asyncProperty(strangers, fc.constantFrom(...TYPES), async (sender, type) => {
        const service = contractService();
        messaging.removeAllListeners();
        answerMessages(service.fetch, { retries: 0 });
        const { error, raw } = await deliver(type, VALID[type], sender);
        expect(error).toMatchObject({ status: 403, code: 'forbidden' });
        expect(service.requests).toHaveLength(0);
        expect(JSON.stringify(raw)).not.toContain(TOKEN);
        expect((await storedToken())?.token).toBe(TOKEN);
      }),
      { numRuns: 300 },
    );
  });

  it('lets a page of the site ask only for profile operations', async () => {
    const sitePage = fc.record({
      id: fc.constant(EXTENSION_ID),
      url: siteUrl,
      origin: fc.option(fc.constant(SITE), { nil: undefined }),
      tab: fc.record({ id: fc.nat(), url: fc.oneof(siteUrl, foreignUrl) }),
      frameId: fc.constant(0),
    });
    await fc.assert(
      fc.asyncProperty(sitePage, fc.constantFrom(...TYPES), async (sender, type) => {
        const service = contractService();
        messaging.removeAllListeners();
        answerMessages(service.fetch, { retries: 0 });
        const { error } = await deliver(type, VALID[type], sender);
        const allowed =
          MESSAGE_SCOPE[type] === 'profile' &&
          (!TARGETED.includes(type) || showsBob(sender.url)) &&
          type !== 'profile.frame';
        if (allowed) expect(error).toBeUndefined();
        else expect(error).toMatchObject({ code: 'forbidden' });
        expect(service.violations).toEqual([]);
        expect((await storedToken())?.token).toBe(TOKEN);
      }),
      { numRuns: 150 },
    );
  });

  it('lets the buttons’ frame ask only for profile operations, and only on the profile its tab shows', async () => {
    const frame = fc.record({
      id: fc.constant(EXTENSION_ID),
      url: fc.constant(frameUrl),
      origin: fc.constant(`chrome-extension://${EXTENSION_ID}`),
      tab: fc.record({ id: fc.nat(), url: siteUrl }),
      frameId: fc.integer({ min: 1 }),
    });
    await fc.assert(
      fc.asyncProperty(frame, fc.constantFrom(...TYPES), async (sender, type) => {
        const service = contractService();
        messaging.removeAllListeners();
        answerMessages(service.fetch, { retries: 0 });
        // The tab's content script gave this frame its claim, and the frame brought it.
        const page = { ...profileTabSender(sender.tab.url), tab: sender.tab };
        const claim = (await deliver('profile.start', { url: sender.tab.url }, page)).value?.claim ?? '';
        expect((await deliver('profile.frame', { claim }, sender)).error).toBeUndefined();
        service.requests.length = 0;
        const data = type === 'profile.frame' ? { claim } : VALID[type];
        const { error } = await deliver(type, data, sender);
        const allowed = MESSAGE_SCOPE[type] === 'profile' && (!TARGETED.includes(type) || showsBob(sender.tab.url));
        if (allowed) {
          expect(error).toBeUndefined();
        } else {
          expect(error).toMatchObject({ code: 'forbidden' });
          expect(service.requests).toHaveLength(0);
        }
        expect(service.violations).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('acts on no profile but the one the tab shows now, whatever the frame or content script names', async () => {
    const service = contractService();
    answerMessages(service.fetch, { retries: 0 });
    // The buttons' frame for @bob, which brought the tab's claim.
    const frame = { ...profileTabSender(), url: frameUrl, frameId: 2 };
    const claim = (await deliver('profile.start', { url: `${SITE}/@bob` }, profileTabSender())).value?.claim ?? '';
    expect((await deliver('profile.frame', { claim }, frame)).error).toBeUndefined();
    service.requests.length = 0;
    // The page changed its address to another profile under the buttons, then the person clicked.
    const moved = 'http://127.0.0.1:8787/@alice';
    const movedTab = { id: 7, url: moved };
    for (const sender of [profileTabSender(moved), { ...frame, tab: movedTab }]) {
      for (const type of TARGETED) {
        expect((await deliver(type, VALID[type], sender)).error).toMatchObject({ code: 'forbidden' });
      }
    }
    expect(service.requests).toHaveLength(0);
  });

  it('takes the sender from the browser, never from the message', async () => {
    const service = contractService();
    answerMessages(service.fetch, { retries: 0 });
    const answer = await new Promise<unknown>((resolve) => {
      const forged = {
        id: 1,
        type: 'accounts.signOut',
        data: { account: ACCOUNT },
        timestamp: Date.now(),
        sender: popupSender,
      };
      void fakeBrowser.runtime.onMessage.trigger(forged, profileTabSender() as never, resolve);
    });
    expect(answer).toMatchObject({ err: { code: 'forbidden' } });
    expect((await storedToken())?.token).toBe(TOKEN);
  });

  it('answers message types outside the protocol, prototype names included, with nothing of the token', async () => {
    const service = contractService();
    answerMessages(service.fetch, { retries: 0 });
    const names = fc.oneof(
      fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'token.get', 'auth.token'),
      fc.string(),
    );
    await fc.assert(
      fc.asyncProperty(names, fc.jsonValue(), async (type, data) => {
        fc.pre(!(TYPES as string[]).includes(type));
        const answer = await Promise.race([
          new Promise<unknown>((resolve) => {
            void fakeBrowser.runtime.onMessage.trigger(
              { id: 1, type, data, timestamp: Date.now() },
              profileTabSender() as never,
              resolve,
            );
          }),
          new Promise((resolve) => setTimeout(() => resolve('no answer'), 20)),
        ]);
        expect(JSON.stringify(answer) ?? '').not.toContain(TOKEN);
        expect(service.requests).toHaveLength(0);
      }),
      { numRuns: 100 },
    );
  });

  it('sends only requests the contract allows, whatever data an extension page or the site puts in a message', async () => {
    const data = (type: MessageType) =>
      fc.oneof(
        fc.anything(),
        fc.constant(VALID[type]),
        fc.string({ unit: 'binary', maxLength: 50 }),
        fc.record({
          account: fc.oneof(fc.constant(ACCOUNT), fc.string()),
          cursor: fc.option(fc.string(), { nil: null }),
          unreadOnly: fc.boolean(),
          ids: fc.oneof(fc.constant('all'), fc.array(fc.oneof(fc.uuid(), fc.string(), fc.constant(undefined)))),
          unread: fc.anything(),
          username: fc.string(),
          reason: fc.oneof(fc.constantFrom('spam', 'other'), fc.string()),
          comment: fc.oneof(fc.string({ maxLength: 10 }), fc.string({ minLength: 1990, maxLength: 4200 })),
          apiBaseUrl: fc.oneof(fc.constant(`${API}/api`), fc.webUrl(), fc.string()),
          token: fc.option(fc.string(), { nil: null }),
        }),
      );
    const message = fc
      .constantFrom(...TYPES.filter((type) => !type.startsWith('accounts.')))
      .chain((type) => fc.tuple(fc.constant(type), data(type)));
    await fc.assert(
      fc.asyncProperty(message, fc.boolean(), async ([type, payload], fromSite) => {
        const service = contractService();
        messaging.removeAllListeners();
        answerMessages(service.fetch, { retries: 0 });
        const sender = fromSite ? profileTabSender() : popupSender;
        const { error, raw } = await deliver(type, payload, sender);
        if (error !== undefined) expect(error).toBeInstanceOf(ApiError);
        expect(service.violations).toEqual([]);
        expect(JSON.stringify(raw)).not.toContain(TOKEN);
        expect((await storedToken())?.token).toBe(TOKEN);
      }),
      { numRuns: 300 },
    );
  });
});
