/**
 * The background's logic against the real reference service over HTTP: the messages the popup,
 * options page and profile content script send, answered as the browser would deliver them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DEFAULT_ADDRESSES } from '../../lib/account-addresses';
import { findAccount, listAccounts } from '../../lib/accounts';
import { AlreadyFollowingError, type Notification, RateLimitedError } from '../../lib/api';
import { createSession } from '../../lib/background/api-session';
import { createPoller, type Poller } from '../../lib/background/poller';
import { messaging } from '../../lib/messaging';
import { ACCOUNT, anotherAccount, badge, grant } from '../support/background';
import { answerMessages, deliver, optionsSender, popupSender, profileTabSender } from '../support/messages';
import { startTestService, type TestService, type TestUser } from '../support/service';

let service: TestService;
let poller: Pick<Poller, 'poll' | 'reset'>;
let me: TestUser;
const answers: { path: string; status: number }[] = [];

const recordingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  answers.push({
    path: new URL(input instanceof Request ? input.url : String(input)).pathname,
    status: response.status,
  });
  return response;
};

async function walk(unreadOnly: boolean): Promise<Notification[]> {
  const items: Notification[] = [];
  let cursor: string | null = null;
  do {
    const answer: Awaited<ReturnType<typeof deliver<'inbox.fetch'>>> = await deliver(
      'inbox.fetch',
      { account: ACCOUNT, cursor, unreadOnly },
      popupSender,
    );
    if (answer.error) throw answer.error;
    items.push(...(answer.value?.data ?? []));
    cursor = answer.value?.cursor ?? null;
  } while (cursor !== null);
  return items;
}

describe('background against the reference service', () => {
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    answers.length = 0;
    me = await service.newUser('me');
    await service.fillInbox(me.username, 40, { read: true });
    await service.fillInbox(me.username, 32, { read: false });
    await anotherAccount(ACCOUNT, null, { apiBaseUrl: service.apiBaseUrl, siteOrigin: service.origin });
    poller = answerMessages(recordingFetch, { retries: 2 }).poller;
    const signIn = await deliver('accounts.signIn', { account: ACCOUNT, token: me.token }, optionsSender);
    expect(signIn.value).toMatchObject({ kind: 'ok', count: 32 });
  });

  it('shows the unread count on the badge, and asks conditionally afterwards', async () => {
    expect((await badge()).text).toBe('32');
    await poller.poll();
    expect(answers.filter((a) => a.path.endsWith('/inbox/count')).map((a) => a.status)).toEqual([200, 304]);
  });

  it('raises the count at the next check after someone follows', async () => {
    const fan = await service.newUser('fan');
    await fan.client.user(me.username).follow();
    await poller.poll();
    expect((await badge()).text).toBe('33');
  });

  it('pages the popup through the whole inbox with the service’s cursors', async () => {
    const all = await walk(false);
    expect(all).toHaveLength(72);
    expect(new Set(all.map((n) => n.id)).size).toBe(72);
    expect(await walk(true)).toHaveLength(32);
  });

  it('marks read and deletes, lowering the badge at once, and the service agrees', async () => {
    const unread = await walk(true);
    const read = await deliver(
      'inbox.markRead',
      { account: ACCOUNT, ids: unread.slice(0, 5).map((n) => n.id), unread: 5 },
      popupSender,
    );
    expect(read.value).toMatchObject({
      success: true,
      count: 5,
      unreadCount: 27,
      undo: { action: 'markRead', count: 5 },
    });
    expect((await badge()).text).toBe('27');

    const gone = await deliver(
      'inbox.delete',
      { account: ACCOUNT, ids: unread.slice(5, 8).map((n) => n.id), unread: 3 },
      popupSender,
    );
    expect(gone.value).toMatchObject({ count: 3, unreadCount: 24 });
    expect((await badge()).text).toBe('24');
    expect(await me.client.inbox.count()).toBe(24);

    await deliver('inbox.markRead', { account: ACCOUNT, ids: 'all' }, popupSender);
    expect((await badge()).text).toBe('');
    expect(await me.client.inbox.count()).toBe(0);
    expect(await walk(false)).toHaveLength(69);
  });

  it('undoes the last action once, and the badge follows at once', async () => {
    const unread = await walk(true);
    const gone = await deliver(
      'inbox.delete',
      { account: ACCOUNT, ids: unread.slice(0, 4).map((n) => n.id), unread: 4 },
      popupSender,
    );
    expect(gone.value?.undo).toMatchObject({ action: 'delete', all: false, count: 4 });
    expect((await badge()).text).toBe('28');
    expect((await deliver('inbox.lastUndo', undefined, popupSender)).value).toEqual(gone.value?.undo);

    const undone = await deliver('inbox.undo', undefined, popupSender);
    expect(undone.value).toEqual({ count: 4, unreadCount: 32 });
    expect((await badge()).text).toBe('32');
    expect(await walk(true)).toEqual(unread);
    expect((await deliver('inbox.lastUndo', undefined, popupSender)).value).toBeNull();
    expect((await deliver('inbox.undo', undefined, popupSender)).error).toMatchObject({ code: 'undo_expired' });

    const read = (await walk(false)).filter((n) => n.read).slice(0, 3);
    const marked = await deliver('inbox.markUnread', { account: ACCOUNT, ids: read.map((n) => n.id) }, popupSender);
    expect(marked.value).toMatchObject({ count: 3, unreadCount: 35 });
    expect((await badge()).text).toBe('35');
    await deliver('inbox.undo', undefined, popupSender);
    expect((await badge()).text).toBe('32');
    expect(await me.client.inbox.count()).toBe(32);
  });

  it('lets no content script undo or mark unread', async () => {
    await deliver('inbox.markRead', { account: ACCOUNT, ids: 'all' }, popupSender);
    for (const type of ['inbox.undo', 'inbox.lastUndo'] as const) {
      expect((await deliver(type, undefined, profileTabSender(`${service.origin}/@bob`))).error).toMatchObject({
        status: 403,
      });
    }
    expect(
      (await deliver('inbox.markUnread', { account: ACCOUNT, ids: [] }, profileTabSender(`${service.origin}/@bob`)))
        .error,
    ).toMatchObject({ status: 403 });
    expect(await me.client.inbox.count()).toBe(0);
  });

  it('follows, reconciles already_following, and reports from a profile page', async () => {
    const bob = await service.newUser('bob');
    const page = profileTabSender(`${service.origin}/@${bob.username}`);
    expect((await deliver('profile.get', { account: ACCOUNT, username: bob.username }, page)).value).toMatchObject({
      following: false,
      self: false,
    });
    expect((await deliver('profile.follow', { account: ACCOUNT, username: bob.username }, page)).error).toBeUndefined();
    expect((await me.client.user(bob.username).get()).following).toBe(true);
    expect((await deliver('profile.follow', { account: ACCOUNT, username: bob.username }, page)).error).toBeInstanceOf(
      AlreadyFollowingError,
    );
    expect(
      (await deliver('profile.unfollow', { account: ACCOUNT, username: bob.username }, page)).error,
    ).toBeUndefined();
    const report = await deliver(
      'profile.report',
      { account: ACCOUNT, username: bob.username, reason: 'spam', comment: 'sells followers' },
      page,
    );
    expect(report.value).toMatchObject({ status: 'received', reason: 'spam' });
  });

  it('says when the report limit is reached, and when the person can report again', async () => {
    const bob = await service.newUser('bob');
    const page = profileTabSender(`${service.origin}/@${bob.username}`);
    for (let i = 0; i < 10; i++) {
      expect(
        (
          await deliver(
            'profile.report',
            { account: ACCOUNT, username: bob.username, reason: 'other', comment: `${i}` },
            page,
          )
        ).error,
      ).toBeUndefined();
    }
    const { error } = await deliver(
      'profile.report',
      { account: ACCOUNT, username: bob.username, reason: 'other', comment: '' },
      page,
    );
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfter).toBeGreaterThan(3000);
  });

  it('shows a revoked token as unauthorised', async () => {
    await service.server.admin.revokeToken(me.token);
    const status = await poller.poll();
    expect(status.kind).toBe('unauthorized');
    expect((await badge()).text).toBe('!');
  });

  it('learns who each account is, and refuses adding the same person on the same service twice', async () => {
    // The account signed in in beforeEach came without a name, as one moved from the previous version.
    expect((await findAccount(ACCOUNT))?.username).toBe(me.username);
    const other = await service.newUser('other', { displayName: 'Other O' });
    const addresses = { ...DEFAULT_ADDRESSES, apiBaseUrl: service.apiBaseUrl, siteOrigin: service.origin };
    await grant(service.apiBaseUrl, service.origin);
    const add = (token: string) => deliver('accounts.add', { ...addresses, token }, optionsSender);
    const added = await add(other.token);
    expect(added.value).toMatchObject({ username: other.username, displayName: 'Other O' });
    const twice = await add(await service.server.admin.issueToken(other.username));
    expect(twice.error).toMatchObject({ code: 'account_exists', detail: `@${other.username}` });
    expect((await listAccounts()).map((account) => account.username)).toEqual([me.username, other.username]);
  });

  it('tests a connection without saving it', async () => {
    const test = (apiBaseUrl: string, token: string | null) =>
      deliver('connection.test', { apiBaseUrl, token }, optionsSender);
    expect((await test(service.apiBaseUrl, me.token)).value).toEqual({ ok: true, unreadCount: 32 });
    expect((await test(service.apiBaseUrl, null)).value).toMatchObject({ ok: false, problem: 'noToken' });
    const site = await test(service.origin, null);
    expect(site.value).toMatchObject({ ok: false, problem: 'notThisService' });
  });
});

describe('background while the service goes down and comes back', () => {
  // The service starts twice on a data folder of its own, which PGlite creates on disk: seconds
  // on a quiet machine, much longer on a busy one.
  it('shows the service as unreachable, keeps the last count, and recovers at the next check', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dataDir = await mkdtemp(join(tmpdir(), 'inbox-'));
    let running = await startTestService({ dataDir });
    try {
      fakeBrowser.reset();
      messaging.removeAllListeners();
      const user = await running.newUser('me');
      await running.fillInbox(user.username, 3);
      await anotherAccount(ACCOUNT, null, { apiBaseUrl: running.apiBaseUrl, siteOrigin: running.origin });
      const session = createSession(ACCOUNT, { retries: 0 });
      await session.signIn(user.token);
      const background = createPoller({ session, isOnline: () => true });
      expect(await background.poll()).toMatchObject({ kind: 'ok', count: 3 });

      const port = running.server.port;
      await running.close();
      expect(await background.poll()).toMatchObject({ kind: 'unreachable', count: 3 });
      expect((await badge()).title).toContain('cannot be reached');

      running = await startTestService({ dataDir, port });
      expect(await background.poll()).toMatchObject({ kind: 'ok', count: 3 });
      expect((await badge()).text).toBe('3');
    } finally {
      await running.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
