/**
 * The outbox against the real reference service: changes made while it cannot be reached are
 * kept with their idempotency keys and sent in order once it answers, each done exactly once.
 * The way to the service is cut in the test's fetch; the service itself keeps running, so what
 * it did is read from it directly.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Account } from '../../lib/accounts';
import { createRuntimes } from '../../lib/background/account-runtime';
import { storeToken } from '../../lib/background/account-store';
import { registerHandlers } from '../../lib/background/handlers';
import { OUTBOX_LIMIT, outboxItem } from '../../lib/background/outbox';
import { accountStatusItem, accountsItem } from '../../lib/background/stored-items';
import { type MessageType, messaging, type OutboxEntry } from '../../lib/messaging';
import { ACCOUNT, anotherAccount, badge, grant } from '../support/background';
import { manualClock } from '../support/manual-clock';
import { deliver, EXTENSION_ID, popupSender } from '../support/messages';
import { startTestService, type TestService, type TestUser } from '../support/service';
import { until } from '../support/until';

let service: TestService;
let me: TestUser;
let unread: string[];

/** How the way to the service behaves: open, cut, answering late, or losing answers to changes. */
let way: 'open' | 'cut' | 'slow' | 'losing' = 'open';
const held: (() => void)[] = [];
const sent: { method: string; path: string; key: string | null; token: string | null }[] = [];

const wire: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const path = new URL(request.url).pathname.replace(/^\/api/, '');
  if (way === 'cut') throw new TypeError('fetch failed');
  if (way === 'slow' && request.method !== 'GET') await new Promise<void>((resolve) => held.push(resolve));
  sent.push({
    method: request.method,
    path,
    key: request.headers.get('idempotency-key'),
    token: request.headers.get('authorization'),
  });
  const response = await fetch(request);
  if (way === 'losing' && request.method !== 'GET') throw new TypeError('the connection dropped');
  return response;
};

const workers: { runtimes: ReturnType<typeof createRuntimes>; stop: AbortController }[] = [];

/** A background over this test's storage, as a fresh service worker starts; `stop` ends it. */
function startWorker(clock = manualClock()) {
  const stop = new AbortController();
  const runtimes = createRuntimes({ fetch: wire, retries: 0, isOnline: () => true, clock, signal: stop.signal });
  workers.push({ runtimes, stop });
  registerHandlers(
    { runtimes, extension: { id: EXTENSION_ID, baseUrl: fakeBrowser.runtime.getURL('/') } },
    stop.signal,
  );
  const runtime = async (id = ACCOUNT) => {
    await runtimes.sync();
    const found = runtimes.get(id);
    if (!found) throw new Error(`No account ${id}`);
    return found;
  };
  return { clock, runtime, stop: () => stop.abort() };
}

async function ask<T extends MessageType>(type: T, data?: unknown) {
  const answer = await deliver(type, data, popupSender);
  if (answer.error) throw answer.error;
  return answer.value as NonNullable<typeof answer.value>;
}

const changes = (path: string) => sent.filter((request) => request.method !== 'GET' && request.path === path);
const waiting = () => ask('outbox.state', { account: ACCOUNT });

/** Waits out every try to send that is under way, so the test changes nothing under one. */
const settled = async (worker: ReturnType<typeof startWorker>, id = ACCOUNT) =>
  (await worker.runtime(id)).outbox.flush();

/** The service answers again: the next check finds it, and what waits goes. */
async function reopen(worker: ReturnType<typeof startWorker>) {
  way = 'open';
  await (await worker.runtime()).poller.poll();
  await until(async () => (await waiting()).count === 0);
}

describe('outbox', () => {
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());
  afterEach(async () => {
    // What a worker was still sending must not reach the next test's inbox.
    way = 'cut';
    for (const { runtimes, stop } of workers.splice(0)) {
      await Promise.all(runtimes.all().map((runtime) => runtime.outbox.flush()));
      stop.abort();
    }
  });

  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    way = 'open';
    sent.length = 0;
    held.length = 0;
    me = await service.newUser('me');
    await service.fillInbox(me.username, 5);
    unread = (await me.client.inbox.fetch({ unreadOnly: true })).data.map((item) => item.id);
    await anotherAccount(ACCOUNT, me.token, { apiBaseUrl: service.apiBaseUrl, siteOrigin: service.origin });
  });

  it('keeps a change the service cannot be reached for, shows it done, and sends it once it answers', async () => {
    const worker = startWorker();
    await (await worker.runtime()).poller.poll();
    expect((await badge()).text).toBe('5');
    way = 'cut';
    const result = await ask('inbox.markRead', { account: ACCOUNT, ids: unread.slice(0, 2), unread: 2 });
    expect(result).toMatchObject({ success: true, waiting: true, count: 2, undo: { action: 'markRead', count: 2 } });
    expect((await badge()).text).toBe('3');
    expect(await waiting()).toEqual({ count: 1, ids: unread.slice(0, 2), dropped: [] });
    expect(await me.client.inbox.count()).toBe(5);

    await reopen(worker);
    expect(await me.client.inbox.count()).toBe(3);
    expect(changes('/inbox/read')).toHaveLength(1);
  });

  it('keeps a change not answered within a second, and settles it by the late answer', async () => {
    const worker = startWorker();
    await (await worker.runtime()).poller.poll();
    way = 'slow';
    const result = ask('inbox.delete', { account: ACCOUNT, ids: [unread[0]], unread: 1 });
    await until(() => held.length === 1);
    worker.clock.advance(1_000);
    expect(await result).toMatchObject({ waiting: true, count: 1 });
    expect((await waiting()).ids).toEqual([unread[0]]);

    held.shift()?.();
    await until(async () => (await waiting()).count === 0);
    expect(changes('/inbox/delete')).toHaveLength(1);
    expect(await me.client.inbox.count()).toBe(4);
  });

  it('sends in order with the same keys, so a change whose answer was lost is not done twice', async () => {
    const bob = await service.newUser('bob');
    const worker = startWorker();
    await (await worker.runtime()).poller.poll();
    way = 'losing';
    expect(await ask('profile.follow', { account: ACCOUNT, username: bob.username })).toEqual({ waiting: true });
    way = 'cut';
    await ask('inbox.markRead', { account: ACCOUNT, ids: [unread[0]], unread: 1 });
    await ask('inbox.markUnread', { account: ACCOUNT, ids: [unread[0]] });
    expect((await outboxItem(ACCOUNT).getValue()).entries.map((entry) => entry.kind)).toEqual([
      'follow',
      'markRead',
      'markUnread',
    ]);

    await reopen(worker);
    const follows = changes(`/user/${bob.username}/follow`);
    expect(follows).toHaveLength(2);
    expect(follows[1]?.key).toBe(follows[0]?.key);
    expect(sent.filter((r) => r.method === 'POST').map((r) => r.path.split('/').at(-1))).toEqual([
      'follow',
      'follow',
      'read',
      'unread',
    ]);
    const bobsFollows = await bob.client.inbox.fetch({ types: ['follow'] });
    expect(bobsFollows.data).toHaveLength(1);
    expect(await me.client.inbox.count()).toBe(5);
  });

  it('drops a change the service refuses with a line saying why, and sends the rest', async () => {
    const worker = startWorker();
    await (await worker.runtime()).poller.poll();
    way = 'cut';
    await ask('profile.follow', { account: ACCOUNT, username: 'nobody_here' });
    await ask('inbox.markRead', { account: ACCOUNT, ids: [unread[0]], unread: 1 });
    way = 'open';
    await (await worker.runtime()).poller.poll();
    await until(async () => (await waiting()).count === 0);
    expect((await waiting()).dropped).toEqual([
      expect.objectContaining({ kind: 'follow', why: 'gone', username: 'nobody_here', account: ACCOUNT }),
    ]);
    expect(await me.client.inbox.count()).toBe(4);
    await ask('outbox.dismiss', { account: ACCOUNT });
    expect((await waiting()).dropped).toEqual([]);
  });

  it('after a day sends only what is harmless to repeat, and drops a snooze whose time has passed', async () => {
    const bob = await service.newUser('bob');
    const worker = startWorker();
    await (await worker.runtime()).poller.poll();
    way = 'cut';
    await ask('profile.follow', { account: ACCOUNT, username: bob.username });
    await ask('inbox.markRead', { account: ACCOUNT, ids: [unread[0]], unread: 1 });
    const until2h = new Date(Date.now() + 2 * 3_600_000).toISOString();
    await ask('inbox.snooze', { account: ACCOUNT, ids: [unread[1]], until: until2h, unread: 1 });
    await settled(worker);
    worker.clock.advance(25 * 3_600_000);

    await reopen(worker);
    expect((await waiting()).dropped.map((line) => [line.kind, line.why])).toEqual([
      ['follow', 'expired'],
      ['snooze', 'woke'],
    ]);
    expect(changes(`/user/${bob.username}/follow`)).toHaveLength(0);
    expect(changes('/inbox/snooze')).toHaveLength(0);
    expect(await me.client.inbox.count()).toBe(4);
  });

  it('undoes a change still waiting by taking it out, and puts the badge back', async () => {
    const worker = startWorker();
    await (await worker.runtime()).poller.poll();
    way = 'cut';
    await ask('inbox.markRead', { account: ACCOUNT, ids: unread.slice(0, 2), unread: 2 });
    expect((await badge()).text).toBe('3');
    expect(await ask('inbox.undo')).toMatchObject({ count: 2 });
    expect((await waiting()).count).toBe(0);
    expect((await accountStatusItem(ACCOUNT).getValue()).count).toBe(5);

    way = 'open';
    await (await worker.runtime()).poller.poll();
    expect(changes('/inbox/read')).toHaveLength(0);
    expect(await me.client.inbox.count()).toBe(5);
  });

  it('drops what waited for the service at the account’s old API address, with a line, when it changes', async () => {
    const worker = startWorker();
    await (await worker.runtime()).poller.poll();
    way = 'cut';
    await ask('inbox.markRead', { account: ACCOUNT, ids: unread.slice(0, 2), unread: 2 });
    await ask('inbox.delete', { account: ACCOUNT, ids: [unread[2]], unread: 1 });
    expect((await waiting()).count).toBe(2);

    // The same service under another name stands for another one: whose ids these are not.
    const moved = service.apiBaseUrl.replace('127.0.0.1', 'localhost');
    await grant(moved);
    const accounts = (await accountsItem.getValue()) ?? [];
    await accountsItem.setValue(
      accounts.map((account): Account => (account.id === ACCOUNT ? { ...account, apiBaseUrl: moved } : account)),
    );
    // Signed in there too, so a change sent there would be taken.
    await storeToken({ id: ACCOUNT, apiBaseUrl: moved }, me.token);
    await reopen(worker);
    expect(sent.at(-1)?.token).toBe(`Bearer ${me.token}`);
    expect((await waiting()).dropped).toEqual([
      expect.objectContaining({ kind: 'markRead', why: 'moved', count: 2, account: ACCOUNT }),
      expect.objectContaining({ kind: 'delete', why: 'moved', count: 1, account: ACCOUNT }),
    ]);
    expect(changes('/inbox/read')).toHaveLength(0);
    expect(changes('/inbox/delete')).toHaveLength(0);
    expect(await me.client.inbox.count()).toBe(5);
  });

  it('keeps at most 500 changes, dropping the oldest with a line', async () => {
    const worker = startWorker();
    await (await worker.runtime()).poller.poll();
    const old: OutboxEntry[] = Array.from({ length: OUTBOX_LIMIT }, (_, n) => ({
      kind: 'markRead',
      key: `key-${n}`,
      madeAt: Date.now(),
      ids: [unread[0] ?? ''],
    }));
    await outboxItem(ACCOUNT).setValue({ entries: old, dropped: [] });
    way = 'cut';
    await ask('inbox.markRead', { account: ACCOUNT, ids: [unread[1]], unread: 1 });
    const state = await waiting();
    expect(state.count).toBe(OUTBOX_LIMIT);
    expect(state.dropped).toEqual([expect.objectContaining({ why: 'overflow', count: 1 })]);
    expect((await outboxItem(ACCOUNT).getValue()).entries[0]?.key).toBe('key-1');
  });

  it('survives the worker stopping: a new worker over the same storage sends it', async () => {
    const first = startWorker();
    await (await first.runtime()).poller.poll();
    way = 'cut';
    await ask('inbox.markRead', { account: ACCOUNT, ids: unread.slice(0, 3), unread: 3 });
    await settled(first);
    first.stop();
    messaging.removeAllListeners();

    const second = startWorker();
    await reopen(second);
    expect(await me.client.inbox.count()).toBe(2);
    expect(changes('/inbox/read')).toHaveLength(1);
  });

  it('never sends one account’s changes as another, and forgets them when the account is removed', async () => {
    const other = await service.newUser('other');
    await anotherAccount('account-2', other.token, { apiBaseUrl: service.apiBaseUrl, siteOrigin: service.origin });
    const worker = startWorker();
    await (await worker.runtime()).poller.poll();
    await (await worker.runtime('account-2')).poller.poll();
    way = 'cut';
    await ask('inbox.markRead', { account: ACCOUNT, ids: [unread[0]], unread: 1 });
    await ask('inbox.markRead', { account: 'account-2', ids: [unread[1]], unread: 1 });
    expect((await ask('outbox.state', { account: '*' })).count).toBe(2);

    way = 'open';
    await (await worker.runtime('account-2')).poller.poll();
    await until(async () => (await ask('outbox.state', { account: 'account-2' })).count === 0);
    expect(changes('/inbox/read').map((request) => request.token)).toEqual([`Bearer ${other.token}`]);
    expect(await me.client.inbox.count()).toBe(5);

    way = 'cut';
    await ask('accounts.remove', { account: ACCOUNT });
    expect((await outboxItem(ACCOUNT).getValue()).entries).toEqual([]);
    way = 'open';
    await (await worker.runtime('account-2')).poller.poll();
    expect(changes('/inbox/read')).toHaveLength(1);
    // Removing the account signed it out: its own token is no more.
    expect(await service.client(await service.tokenFor(me.username)).inbox.count()).toBe(5);
  });
});
