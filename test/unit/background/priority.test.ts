import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { startBackground } from '../../../lib/background';
import { priorityItem, settingsItem, unreadSampleItem } from '../../../lib/background/stored-items';
import { messaging } from '../../../lib/messaging';
import { isPriority, type PriorityModel } from '../../../lib/priority/model';
import { ACCOUNT, anotherAccount, badge, signedIn } from '../../support/background';
import { notificationFixture, profileFixture } from '../../support/fixtures';
import { answerMessages, deliver, optionsSender, popupSender, profileTabSender } from '../../support/messages';
import { json, noContent, type RecordedRequest, recordingFetch } from '../../support/recording-fetch';
import { until } from '../../support/until';

const TOKEN = 'very-secret-token-123';
const SITE = 'http://127.0.0.1:8787';
const post = (n: number) => `${SITE}/@demo/posts/${n}`;
const justNow = () => new Date(Date.now() - 60_000).toISOString();

/** What the popup says when the person opens a notification of `actor`'s that came a minute ago. */
const opened = (actor: string, n: number, account = ACCOUNT) =>
  deliver('priority.note', { account, signal: 'open', about: [{ actor, url: post(n), at: justNow() }] }, popupSender);

/** What the account's model holds, as storage has it: the extension's own `storage.local`. */
async function stored(account = ACCOUNT): Promise<PriorityModel | undefined> {
  return (await fakeBrowser.storage.local.get(`priority:${account}`))[`priority:${account}`] as
    | PriorityModel
    | undefined;
}

const priorityNow = async (actor: string, account = ACCOUNT) =>
  isPriority(await priorityItem(account).getValue(), actor, null, Date.now());

describe('what priority learns in the background', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    await signedIn(TOKEN, {}, ACCOUNT, 'demo');
  });

  it('learns from what the popup says the person did, per account, in storage alone', async () => {
    await anotherAccount('account-2', 'second-token');
    const wire = recordingFetch();
    answerMessages(wire.fetch);
    for (const n of [1, 2]) expect((await opened('bob', n)).error).toBeUndefined();
    expect(await priorityNow('bob')).toBe(false);
    await opened('bob', 3);
    expect(await priorityNow('bob')).toBe(true);
    expect(Object.keys((await stored())?.people ?? {})).toEqual(['@bob']);
    expect(await priorityNow('bob', 'account-2')).toBe(false);
    expect(await stored('account-2')).toBeUndefined();

    // An account that does not exist learns nothing, so no model outlives its account.
    const unknown = await opened('bob', 4, 'no-such-account');
    expect(unknown.error?.code).toBe('unknown_account');
    expect(await stored('no-such-account')).toBeUndefined();
    // Nothing of it went anywhere.
    expect(wire.requests).toEqual([]);
  });

  it('starts from the follow state the buttons and the service report, and counts a mute against', async () => {
    const wire = recordingFetch(
      json(profileFixture({ following: true })),
      json({ data: [] }),
      json({ strangers: 'accept' }),
      noContent(),
      noContent(),
      json({ id: '00000000-0000-4000-8000-000000000001', actor: 'dave', url: null, until: null, createdAt: justNow() }),
      json({ count: 0 }),
    );
    answerMessages(wire.fetch);
    await deliver('profile.get', { account: ACCOUNT, username: 'bob' }, profileTabSender());
    await until(() => priorityNow('bob'));
    expect(
      (await deliver('profile.unfollow', { account: ACCOUNT, username: 'bob' }, profileTabSender())).error,
    ).toBeUndefined();
    expect(await priorityNow('bob')).toBe(false);
    expect(
      (await deliver('profile.follow', { account: ACCOUNT, username: 'bob' }, profileTabSender())).error,
    ).toBeUndefined();
    expect(await priorityNow('bob')).toBe(true);

    const muting = { account: ACCOUNT, target: { actor: 'dave' }, until: null };
    for (const n of [1, 2, 3]) await opened('dave', n);
    expect(await priorityNow('dave')).toBe(true);
    expect((await deliver('inbox.mute', muting, popupSender)).error).toBeUndefined();
    await until(async () => !(await priorityNow('dave')));
  });

  it('forgets a person when the options page asks, and everything when the account is removed', async () => {
    answerMessages(recordingFetch(noContent()).fetch);
    for (const n of [1, 2, 3]) {
      await opened('bob', n);
      await opened('carol', n);
    }
    expect(
      (await deliver('priority.forget', { account: ACCOUNT, username: 'Bob' }, optionsSender)).error,
    ).toBeUndefined();
    expect(await priorityNow('bob')).toBe(false);
    expect(await priorityNow('carol')).toBe(true);

    expect((await deliver('accounts.remove', { account: ACCOUNT }, optionsSender)).error).toBeUndefined();
    await until(async () => (await stored()) === undefined);
  });
});

describe('the badge counting priority notifications only', () => {
  let running: AbortController;
  const requests: RecordedRequest[] = [];
  /** The pages of unread notifications the background read, by their query. */
  const pagesRead = () =>
    requests.filter((request) => request.url.pathname === '/api/inbox/fetch').map((request) => request.url.search);

  /** The service: `count` unread, the newest of them these notifications. */
  function serve(count: number, unread: ReturnType<typeof notificationFixture>[]) {
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      requests.push({ method: request.method, url, headers: request.headers, body: '' });
      if (url.pathname === '/api/inbox/count') return json({ count });
      if (url.pathname === '/api/inbox/fetch')
        return json({ data: unread, cursor: count > unread.length ? 'more' : null });
      throw new TypeError('fetch failed');
    };
    running = new AbortController();
    startBackground({ fetch, isOnline: () => true, signal: running.signal });
  }

  beforeEach(() => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    requests.length = 0;
  });
  afterEach(() => running.abort());

  const from = (n: number, actor: string) => notificationFixture(n, { actor: { username: actor, displayName: actor } });

  it('shows the priority ones of the unread, says so in the tooltip, and follows the model without asking again', async () => {
    await signedIn(TOKEN, { badgePriority: true }, ACCOUNT, 'demo');
    await priorityItem(ACCOUNT).setValue({ people: { '@carol': { follow: true } }, threads: {} });
    serve(3, [from(3, 'carol'), from(2, 'bob'), from(1, 'carol')]);
    await until(async () => (await badge()).text === '2');
    expect((await badge()).title).toContain('2 priority of 3 unread');
    expect(pagesRead()).toEqual(['?limit=100&unreadOnly=true']);

    await deliver('priority.forget', { account: ACCOUNT, username: 'carol' }, optionsSender);
    await until(async () => (await badge()).text === '');
    expect((await badge()).title).toContain('0 priority of 3 unread');
    expect(pagesRead()).toHaveLength(1);
  });

  it('shows the unread count again when turned off, and reads the newest unread afresh when turned on again', async () => {
    await signedIn(TOKEN, { badgePriority: true }, ACCOUNT, 'demo');
    await priorityItem(ACCOUNT).setValue({ people: { '@carol': { follow: true } }, threads: {} });
    serve(3, [from(3, 'carol'), from(2, 'bob'), from(1, 'carol')]);
    await until(async () => (await badge()).text === '2');
    const switchTo = async (badgePriority: boolean) =>
      settingsItem.setValue({ ...(await settingsItem.getValue()), badgePriority });
    await switchTo(false);
    await until(async () => (await badge()).text === '3');
    expect(await unreadSampleItem(ACCOUNT).getValue()).toBeNull();
    await switchTo(true);
    await until(async () => (await badge()).text === '2');
    expect(pagesRead()).toHaveLength(2);
  });

  it('says it counted only the newest unread when there are more than it reads', async () => {
    await signedIn(TOKEN, { badgePriority: true }, ACCOUNT, 'demo');
    await priorityItem(ACCOUNT).setValue({ people: { '@bob': { follow: true } }, threads: {} });
    serve(250, [from(2, 'bob'), from(1, 'carol')]);
    await until(async () => (await badge()).title.includes('1 priority in the newest 2 of 250 unread'));
    expect((await badge()).text).toBe('1');
  });

  it('shows every unread one, and reads no notification, while the switch is off', async () => {
    await signedIn(TOKEN, {}, ACCOUNT, 'demo');
    await priorityItem(ACCOUNT).setValue({ people: { '@carol': { follow: true } }, threads: {} });
    serve(3, [from(3, 'carol')]);
    await until(async () => (await badge()).text === '3');
    expect((await badge()).title).toContain('3 unread notifications');
    expect(pagesRead()).toEqual([]);
  });
});
