import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { AlreadyFollowingError, UnauthenticatedError } from '../../../lib/api';
import { forgetToken } from '../../../lib/background/account-store';
import { unreadByTypeItem } from '../../../lib/background/stored-items';
import { readCachedFirstPage } from '../../../lib/inbox-cache';
import { messaging, profileFrom } from '../../../lib/messaging';
import { ACCOUNT, anotherAccount, signedIn, storedToken } from '../../support/background';
import { notificationFixture, profileFixture } from '../../support/fixtures';
import {
  answerMessages,
  deliver,
  EXTENSION_ID,
  optionsSender,
  popupSender,
  profileFrameSender,
  profileTabSender,
} from '../../support/messages';
import { hangUntilAborted, json, noContent, problem, recordingFetch } from '../../support/recording-fetch';

const TOKEN = 'very-secret-token-123';
const notification = (n: number) => notificationFixture(n);
const profile = profileFixture({ followedBy: false });
const bob = { account: ACCOUNT, username: 'bob' };

function start(...replies: Parameters<typeof recordingFetch>) {
  const wire = recordingFetch(...replies);
  answerMessages(wire.fetch);
  return wire;
}

describe('background messages', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    await signedIn(TOKEN);
  });

  it('gives the popup a page of the inbox and keeps the first page for the next opening', async () => {
    const page = { data: [notification(1)], cursor: 'next' };
    const wire = start(json(page));
    const { value } = await deliver('inbox.fetch', { account: ACCOUNT, cursor: null, unreadOnly: true }, popupSender);
    // Each item names its account, which triage then acts as.
    expect(value).toEqual({ ...page, data: page.data.map((item) => ({ ...item, account: ACCOUNT })) });
    expect(wire.requests[0]?.url.searchParams.get('limit')).toBe('25');
    expect((await readCachedFirstPage(ACCOUNT, true))?.page).toEqual(page);
    expect(await readCachedFirstPage(ACCOUNT, false)).toBeNull();
  });

  it('asks for one type only when the popup filters, and keeps no filtered page as the cache', async () => {
    const page = { data: [notification(1)], cursor: null };
    const wire = start(json(page));
    const { value } = await deliver(
      'inbox.fetch',
      { account: ACCOUNT, cursor: null, unreadOnly: false, types: ['mention', 'reply'] },
      popupSender,
    );
    expect(value?.data.map((item) => item.id)).toEqual([notification(1).id]);
    expect(wire.requests[0]?.url.searchParams.get('types')).toBe('mention,reply');
    expect(await readCachedFirstPage(ACCOUNT, false)).toBeNull();
  });

  it('gives the unread counts by type, and keeps them for the popup’s next opening', async () => {
    const byType = { follow: 0, mention: 2, reply: 1, like: 7, system: 0 };
    start(json({ count: 10, byType }));
    expect((await deliver('inbox.countByType', { account: ACCOUNT }, popupSender)).value).toEqual(byType);
    expect(await unreadByTypeItem(ACCOUNT).getValue()).toEqual(byType);
  });

  it('keeps each account’s counts by type apart, asked with that account’s token', async () => {
    await anotherAccount('account-2', 'second-token');
    const first = { follow: 0, mention: 2, reply: 0, like: 0, system: 0 };
    const second = { follow: 1, mention: 0, reply: 0, like: 4, system: 0 };
    const wire = start(json({ count: 2, byType: first }), json({ count: 5, byType: second }));
    await deliver('inbox.countByType', { account: ACCOUNT }, popupSender);
    await deliver('inbox.countByType', { account: 'account-2' }, popupSender);
    expect(wire.requests.map((r) => r.headers.get('authorization'))).toEqual([
      `Bearer ${TOKEN}`,
      'Bearer second-token',
    ]);
    expect(await unreadByTypeItem(ACCOUNT).getValue()).toEqual(first);
    expect(await unreadByTypeItem('account-2').getValue()).toEqual(second);
  });

  it('forgets an account’s counts by type when the account is removed, and keeps the others’', async () => {
    await anotherAccount('account-2', 'second-token');
    const byType = { follow: 0, mention: 2, reply: 0, like: 0, system: 0 };
    start(json({ count: 2, byType }), json({ count: 2, byType }), noContent());
    await deliver('inbox.countByType', { account: ACCOUNT }, popupSender);
    await deliver('inbox.countByType', { account: 'account-2' }, popupSender);
    expect((await deliver('accounts.remove', { account: 'account-2' }, optionsSender)).error).toBeUndefined();
    expect(await unreadByTypeItem('account-2').getValue()).toBeNull();
    expect(await unreadByTypeItem(ACCOUNT).getValue()).toEqual(byType);
  });

  it('lets a content script on a profile page use profile operations', async () => {
    const wire = start(json(profile), json({ data: [] }), json({ strangers: 'accept' }), noContent());
    expect((await deliver('profile.get', bob, profileTabSender())).value).toEqual({ ...profile, mute: null });
    expect((await deliver('profile.follow', bob, profileTabSender())).error).toBeUndefined();
    expect(wire.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
      'GET /api/user/bob',
      'GET /api/inbox/mutes',
      'GET /api/inbox/policy',
      'POST /api/user/bob/follow',
    ]);
  });

  it.each([
    'inbox.fetch',
    'inbox.markRead',
    'inbox.delete',
    'status.get',
    'connection.test',
    'accounts.add',
    'accounts.signIn',
    'accounts.signOut',
    'accounts.remove',
  ] as const)('refuses %s from a content script', async (type) => {
    const wire = start();
    const { error } = await deliver(
      type,
      {
        account: ACCOUNT,
        cursor: null,
        unreadOnly: false,
        ids: 'all',
        token: 'x',
        apiBaseUrl: 'http://evil.test/',
        siteOrigin: 'http://evil.test',
        profilePath: '/@:username',
        profileAnchor: 'x',
      },
      profileTabSender(),
    );
    expect(error).toMatchObject({ status: 403, code: 'forbidden' });
    expect(wire.requests).toHaveLength(0);
    expect((await storedToken())?.token).toBe(TOKEN);
  });

  it.each([
    ['a page on another origin', profileTabSender('https://evil.test/@bob')],
    ['the same host on another port', profileTabSender('http://127.0.0.1:9999/@bob')],
    ['a frame inside a site page', { ...profileTabSender(), frameId: 2 }],
    ['another extension', { ...popupSender, id: 'someone-else' }],
    ['a sender without a URL', { id: EXTENSION_ID }],
    ['an extension page framed in a web page', { ...popupSender, tab: { id: 1, url: 'https://evil.test/' } }],
    ['a site page claiming another origin', { ...profileTabSender(), origin: 'https://evil.test' }],
  ])('refuses %s', async (_, sender) => {
    const wire = start();
    const { error } = await deliver('profile.follow', bob, sender);
    expect(error).toMatchObject({ code: 'forbidden' });
    expect(wire.requests).toHaveLength(0);
  });

  it('lets the options page in a tab of its own do everything', async () => {
    start(json({ count: 2 }, { headers: { etag: '"2"' } }));
    const { value } = await deliver('status.refresh', undefined, optionsSender);
    expect(value).toMatchObject({ kind: 'ok', count: 2 });
  });

  it.each([
    ['profile.follow', { username: 'bob' }],
    ['profile.follow', 'bob'],
    ['profile.report', { account: ACCOUNT, username: 'bob', reason: 'rude', comment: '' }],
    ['inbox.fetch', { account: ACCOUNT, cursor: 5, unreadOnly: false }],
    ['inbox.fetch', { cursor: null, unreadOnly: false }],
    ['inbox.fetch', { account: ACCOUNT, cursor: null, unreadOnly: false, types: ['mentions'] }],
    ['inbox.countByType', undefined],
    ['inbox.markRead', { account: ACCOUNT, ids: 'ALL' }],
    ['accounts.signIn', { account: ACCOUNT, token: '   ' }],
  ] as const)('refuses a malformed %s message before any request', async (type, data) => {
    const wire = start();
    const { error } = await deliver(type, data, popupSender);
    expect(error).toMatchObject({ status: 0, code: 'invalid_message' });
    expect(wire.requests).toHaveLength(0);
  });

  it('hands typed errors across, so the caller can tell already_following from a failure', async () => {
    start(problem(400, 'already_following'));
    const { error } = await deliver('profile.follow', bob, profileTabSender());
    expect(error).toBeInstanceOf(AlreadyFollowingError);
  });

  it('refuses inbox operations when signed out without sending anything', async () => {
    await forgetToken(ACCOUNT);
    const wire = start();
    const { error } = await deliver('inbox.fetch', { account: ACCOUNT, cursor: null, unreadOnly: false }, popupSender);
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(wire.requests).toHaveLength(0);
  });

  it('tells a content script where the buttons go, and its frame the profile the tab shows, in one round trip', async () => {
    const wire = start(json(profile), json({ data: [] }), json({ strangers: 'accept' }));
    const started = await deliver('profile.start', { url: 'http://127.0.0.1:8787/@bob' }, profileTabSender());
    expect(started.value).toEqual({
      config: {
        signedIn: true,
        siteOrigin: 'http://127.0.0.1:8787',
        profilePath: '/@:username',
        profileAnchor: '[data-profile-actions]',
        account: ACCOUNT,
        accounts: [{ id: ACCOUNT, label: '127.0.0.1:8787' }],
      },
      claim: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const claim = started.value?.claim ?? '';
    const framed = await deliver('profile.frame', { claim }, profileFrameSender());
    expect(framed.value).toEqual({
      username: 'bob',
      // Whether the person is muted comes with the profile, read beside it.
      answer: { ok: true, profile: { ...profile, mute: null } },
      account: ACCOUNT,
      siteOrigin: 'http://127.0.0.1:8787',
      // The accounts signed in on the tab's site, to choose whom the buttons act as.
      accounts: [{ id: ACCOUNT, label: '127.0.0.1:8787' }],
    });
    expect(wire.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
      'GET /api/user/bob',
      'GET /api/inbox/mutes',
      'GET /api/inbox/policy',
    ]);
    expect(JSON.stringify([started.raw, framed.raw])).not.toContain(TOKEN);
  });

  it('answers only the frame that brings the tab’s claim, and lets no other frame of the tab act', async () => {
    const wire = start(json(profile), json({ data: [] }), json({ strangers: 'accept' }));
    const claim = (await deliver('profile.start', { url: 'http://127.0.0.1:8787/@bob' }, profileTabSender())).value
      ?.claim;
    const copy = { ...profileFrameSender(), frameId: 9 };
    expect((await deliver('profile.frame', { claim: 'guessed' }, copy)).error).toMatchObject({ code: 'forbidden' });
    const bob = { account: ACCOUNT, username: 'bob' };
    expect((await deliver('profile.follow', bob, copy)).error).toMatchObject({ code: 'forbidden' });
    expect((await deliver('profile.frame', { claim: claim ?? '' }, profileFrameSender())).error).toBeUndefined();
    expect((await deliver('profile.follow', bob, copy)).error).toMatchObject({ code: 'forbidden' });
    expect(wire.requests.map((r) => r.url.pathname)).not.toContain('/api/user/bob/follow');
  });

  it('gives a frame in a tab that shows no profile nothing, without asking the service', async () => {
    const wire = start();
    const about = 'http://127.0.0.1:8787/about';
    const started = await deliver('profile.start', { url: about }, profileTabSender(about));
    const claim = started.value?.claim ?? '';
    const { value } = await deliver('profile.frame', { claim }, profileFrameSender(about));
    expect(value).toBeNull();
    expect(wire.requests).toHaveLength(0);
  });

  it('gives the frame the reason a profile could not be fetched, as the typed error’s fields', async () => {
    start(problem(404, 'user_not_found'));
    const ghost = 'http://127.0.0.1:8787/@ghost';
    const claim = (await deliver('profile.start', { url: ghost }, profileTabSender(ghost))).value?.claim ?? '';
    const { value } = await deliver('profile.frame', { claim }, profileFrameSender(ghost));
    const answer = value?.answer;
    expect(answer?.ok).toBe(false);
    expect(() => profileFrom(answer ?? { ok: true, profile })).toThrow(
      expect.objectContaining({ status: 404, code: 'user_not_found' }),
    );
  });

  it('never lets the token out in an answer or an error', async () => {
    const slow = hangUntilAborted;
    const wire = recordingFetch(
      () => Promise.reject(new TypeError(`connect failed with ${TOKEN}`)),
      json({ data: [notification(1)], cursor: null }),
      problem(401, 'unauthenticated'),
      () => Promise.reject(new TypeError(`connect failed with ${TOKEN}`)),
      new Response('{"count":', { headers: { 'content-type': 'application/json' } }),
      json({ count: 1 }),
      slow,
    );
    // The mutes a profile is shown with fail the same way, whenever they are read.
    answerMessages((input, init) =>
      /\/inbox\/(mutes|policy)$/.test(new Request(input, init).url)
        ? Promise.reject(new TypeError(`connect failed with ${TOKEN}`))
        : wire.fetch(input, init),
    );
    const answers = [
      await deliver('profile.start', { url: 'http://127.0.0.1:8787/@bob' }, profileTabSender()),
      await deliver('inbox.fetch', { account: ACCOUNT, cursor: null, unreadOnly: false }, popupSender),
      await deliver('profile.follow', bob, profileTabSender()),
      await deliver('profile.get', bob, profileTabSender()),
      await deliver('profile.get', bob, profileTabSender()),
      await deliver('status.get', undefined, popupSender),
    ];
    for (const { raw } of answers) expect(JSON.stringify(raw)).not.toContain(TOKEN);
  });

  it('signs in by storing the token for the account’s API address only, and signs out by revoking and forgetting it', async () => {
    await forgetToken(ACCOUNT);
    const wire = start(json({ count: 4 }, { headers: { etag: '"4"' } }), json({}));
    const signedInStatus = await deliver(
      'accounts.signIn',
      { account: ACCOUNT, token: '  new-token  ' },
      optionsSender,
    );
    expect(signedInStatus.value).toMatchObject({ kind: 'ok', count: 4 });
    expect(await storedToken()).toEqual({ token: 'new-token', apiOrigin: 'http://127.0.0.1:8787' });
    const signedOutStatus = await deliver('accounts.signOut', { account: ACCOUNT }, optionsSender);
    expect(signedOutStatus.value).toMatchObject({ kind: 'signedOut' });
    expect(await storedToken()).toBeNull();
    // The service was told to stop taking the token, as a form, the way OAuth revocation is sent.
    const revoke = wire.requests.at(-1);
    expect(`${revoke?.method} ${revoke?.url.pathname}`).toBe('POST /api/oauth/revoke');
    expect(new URLSearchParams(revoke?.body).get('token')).toBe('new-token');
    expect(await readCachedFirstPage(ACCOUNT, false)).toBeNull();
  });

  it('adds an account with the token it was given, without the spaces around it', async () => {
    const wire = start(json(profileFixture({ username: 'carol' })), json({ count: 0 }));
    const address = {
      apiBaseUrl: 'http://localhost:8787/api',
      siteOrigin: 'http://localhost:8787',
      profilePath: '/@:username',
      profileAnchor: '[data-profile-actions]',
    };
    const { value } = await deliver('accounts.add', { ...address, token: '  added-token  ' }, optionsSender);
    expect(value).toMatchObject({ username: 'carol' });
    expect(wire.requests[0]?.url.pathname).toBe('/api/me');
    expect(wire.requests[0]?.headers.get('authorization')).toBe('Bearer added-token');
    expect(await storedToken(value?.id)).toEqual({ token: 'added-token', apiOrigin: 'http://localhost:8787' });
  });

  it('opens the options page for a content script that offers it', async () => {
    start();
    await deliver('options.open', undefined, profileTabSender());
    const tabs = await fakeBrowser.tabs.query({});
    expect(tabs.map((tab) => tab.url)).toContain(fakeBrowser.runtime.getURL('/options.html'));
  });
});
