import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { UndoExpiredError } from '../../../lib/api';
import { createSession } from '../../../lib/background/api-session';
import { statusWriter } from '../../../lib/background/status-writer';
import {
  deleteNotifications,
  lastUndo,
  lastUndoItem,
  markRead,
  markUnread,
  snooze,
  undoLast,
  unsnooze,
} from '../../../lib/background/triage';
import { readCachedFirstPage, writeCachedFirstPage } from '../../../lib/inbox-cache';
import { ACCOUNT, badge, signedIn } from '../../support/background';
import { notificationFixture, uuid } from '../../support/fixtures';
import { json, problem, recordingFetch } from '../../support/recording-fetch';
import { until } from '../../support/until';

const id = uuid;
const item = (n: number, read = false) => notificationFixture(n, { read });

async function client(...replies: Parameters<typeof recordingFetch>) {
  const wire = recordingFetch(...replies);
  const { client } = await createSession(ACCOUNT, { fetch: wire.fetch, retries: 0 }).client();
  return { wire, client: { id: ACCOUNT, client, status: statusWriter(ACCOUNT) } };
}

describe('triage', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    await signedIn();
    await statusWriter(ACCOUNT).set({ kind: 'ok', count: 10, checkedAt: 1, nextCheckAt: null, detail: null });
    await writeCachedFirstPage(ACCOUNT, false, { data: [item(1), item(2), item(3, true)], cursor: 'c' });
    await writeCachedFirstPage(ACCOUNT, true, { data: [item(1), item(2)], cursor: 'u' });
  });

  it('lowers the badge at once by the number marked read, and updates both cached pages', async () => {
    const { client: api } = await client(json({ success: true, count: 2, undo: 'op2.sig' }));
    const result = await markRead(api, { ids: [id(1), id(2)] });
    expect(result).toEqual({
      success: true,
      count: 2,
      unreadCount: 8,
      undo: { account: ACCOUNT, action: 'markRead', all: false, count: 2, expiresAt: expect.any(Number) },
    });
    expect((await badge()).text).toBe('8');
    expect((await readCachedFirstPage(ACCOUNT, false))?.page.data.map((n) => n.read)).toEqual([true, true, true]);
    expect((await readCachedFirstPage(ACCOUNT, true))?.page.data).toEqual([]);
  });

  it('clears the badge and the unread page on mark all read', async () => {
    const { client: api } = await client(json({ success: true, count: 10, undo: 'op10.sig' }));
    await markRead(api, { ids: 'all' });
    expect((await badge()).text).toBe('');
    expect((await readCachedFirstPage(ACCOUNT, true))?.page).toEqual({ data: [], cursor: null });
  });

  it('clears the badge on mark all read while the request is out, and puts it back when refused', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { wire, client: api } = await client(() => new Promise<Response>((resolve) => (answer = resolve)));
    const marking = markRead(api, { ids: 'all' });
    await until(async () => wire.requests.length === 1 && (await badge()).text === '');
    answer(problem(503, 'unavailable'));
    await expect(marking).rejects.toMatchObject({ status: 503 });
    expect((await badge()).text).toBe('10');
  });

  it('lowers the badge on delete by the unread ones among the deleted', async () => {
    const { client: api } = await client(json({ success: true, count: 2, undo: 'op2.sig' }));
    const result = await deleteNotifications(api, { ids: [id(1), id(3)], unread: 1 });
    expect(result.unreadCount).toBe(9);
    expect((await readCachedFirstPage(ACCOUNT, false))?.page.data.map((n) => n.id)).toEqual([id(2)]);
  });

  it('empties both cached pages on delete all', async () => {
    const { client: api } = await client(json({ success: true, count: 30, undo: 'op30.sig' }));
    await deleteNotifications(api, { ids: 'all' });
    expect((await readCachedFirstPage(ACCOUNT, false))?.page).toEqual({ data: [], cursor: null });
    expect((await badge()).text).toBe('');
  });

  it('sends a large selection in calls of at most 500 ids, each id once', async () => {
    const ids = Array.from({ length: 1200 }, (_, n) => id(n));
    const { wire, client: api } = await client(
      json({ success: true, count: 500, undo: 'op500.sig' }),
      json({ success: true, count: 500, undo: 'op500.sig' }),
      json({ success: true, count: 200, undo: 'op200.sig' }),
    );
    const result = await markRead(api, { ids: [...ids, ...ids.slice(0, 10).map((x) => x.toUpperCase())] });
    expect(wire.requests.map((r) => JSON.parse(r.body).ids.length)).toEqual([500, 500, 200]);
    expect(result.count).toBe(1200);
    expect((await badge()).text).toBe('');
  });

  it('raises the badge by the number marked unread', async () => {
    const { wire, client: api } = await client(json({ success: true, count: 1, undo: 'op1.sig' }));
    const result = await markUnread(api, { ids: [id(3)] });
    expect(result.unreadCount).toBe(11);
    expect((await badge()).text).toBe('11');
    expect(JSON.parse(wire.requests[0]?.body ?? '')).toEqual({ ids: [id(3)] });
    expect((await readCachedFirstPage(ACCOUNT, false))?.page.data.map((n) => n.read)).toEqual([false, false, false]);
    await expect(markUnread(api, { ids: 'all' })).rejects.toMatchObject({ code: 'invalid_ids' });
    expect(wire.requests).toHaveLength(1);
  });

  it("keeps the last action's undo tokens in session storage, out of what it answers", async () => {
    const ids = Array.from({ length: 700 }, (_, n) => id(n));
    const { client: api } = await client(
      json({ success: true, count: 500, undo: 'first.sig' }),
      json({ success: true, count: 0, undo: null }),
    );
    const result = await deleteNotifications(api, { ids, unread: 3 });
    expect(JSON.stringify(result)).not.toContain('sig');
    expect(await lastUndo()).toEqual(result.undo);
    expect((await lastUndoItem.getValue())?.parts).toEqual([{ account: api.id, tokens: ['first.sig'] }]);
    expect(await fakeBrowser.storage.local.get(null)).not.toHaveProperty('lastUndo');
  });

  it('offers nothing to undo when nothing changed', async () => {
    const { client: api } = await client(json({ success: true, count: 0, undo: null }));
    const result = await markRead(api, { ids: [id(1)] });
    expect(result.undo).toBeNull();
    expect(await lastUndo()).toBeNull();
  });

  it('undoes the last action once, with every token it was given, newest first, and drops the cached pages', async () => {
    const ids = Array.from({ length: 600 }, (_, n) => id(n));
    const { wire, client: api } = await client(
      json({ success: true, count: 500, undo: 'a.sig' }),
      json({ success: true, count: 100, undo: 'b.sig' }),
      json({ success: true, count: 100 }),
      json({ success: true, count: 500 }),
    );
    await markRead(api, { ids });
    expect(await undoLast(async () => api.client)).toEqual({ accounts: [ACCOUNT], count: 600 });
    expect(wire.requests.slice(2).map((r) => [r.url.pathname, JSON.parse(r.body)])).toEqual([
      ['/api/inbox/undo', { undo: 'b.sig' }],
      ['/api/inbox/undo', { undo: 'a.sig' }],
    ]);
    expect(await readCachedFirstPage(ACCOUNT, false)).toBeNull();
    expect(await lastUndo()).toBeNull();
    await expect(undoLast(async () => api.client)).rejects.toBeInstanceOf(UndoExpiredError);
    expect(wire.requests).toHaveLength(4);
  });

  it('undoes one action over two accounts as one: the joined call adds to the offer, and Undo puts back both', async () => {
    const first = await client(json({ success: true, count: 2, undo: 'first.sig' }), json({ success: true, count: 2 }));
    const secondWire = recordingFetch(
      json({ success: true, count: 1, undo: 'second.sig' }),
      json({ success: true, count: 1 }),
    );
    const { client: secondClient } = await createSession(ACCOUNT, { fetch: secondWire.fetch, retries: 0 }).client();
    const second = { id: 'account-2', client: secondClient, status: statusWriter('account-2') };
    await markRead(first.client, { ids: [id(1), id(2)] });
    const joined = await markRead(second, { ids: [id(3)], join: true });
    expect(joined.undo).toMatchObject({ account: ACCOUNT, action: 'markRead', count: 3 });
    expect((await lastUndoItem.getValue())?.parts.map((part) => part.account)).toEqual([ACCOUNT, 'account-2']);
    const clients: Record<string, typeof secondClient> = { [ACCOUNT]: first.client.client, 'account-2': secondClient };
    expect(await undoLast(async (account) => clients[account] as typeof secondClient)).toEqual({
      accounts: [ACCOUNT, 'account-2'],
      count: 3,
    });
    expect(secondWire.requests.at(-1)?.body).toBe(JSON.stringify({ undo: 'second.sig' }));
    expect(first.wire.requests.at(-1)?.body).toBe(JSON.stringify({ undo: 'first.sig' }));
  });

  it('stops offering the undo just before the service stops taking it', async () => {
    const { wire, client: api } = await client(json({ success: true, count: 2, undo: 'a.sig' }));
    const result = await markRead(api, { ids: [id(1), id(2)] });
    const expiresAt = result.undo?.expiresAt ?? 0;
    expect(expiresAt - Date.now()).toBeLessThan(60_000);
    expect(expiresAt - Date.now()).toBeGreaterThan(50_000);
    expect(await lastUndo(expiresAt)).toBeNull();
    await expect(undoLast(async () => api.client, expiresAt)).rejects.toBeInstanceOf(UndoExpiredError);
    expect(wire.requests).toHaveLength(1);
  });

  it('takes snoozed ones out of the badge and both cached pages, and offers their undo with the wake time', async () => {
    const until = '2026-11-25T09:00:00.000Z';
    const { wire, client: api } = await client(json({ success: true, count: 2, undo: 'op2.sig' }));
    const result = await snooze(api, { ids: [id(1), id(3)], until, unread: 1 });
    expect(JSON.parse(wire.requests[0]?.body ?? '')).toEqual({ ids: [id(1), id(3)], until });
    expect(wire.requests[0]?.url.pathname).toMatch(/\/inbox\/snooze$/);
    expect(result).toEqual({
      success: true,
      count: 2,
      unreadCount: 9,
      undo: { account: ACCOUNT, action: 'snooze', all: false, count: 2, expiresAt: expect.any(Number), until },
    });
    expect((await badge()).text).toBe('9');
    expect((await readCachedFirstPage(ACCOUNT, false))?.page.data.map((n) => n.id)).toEqual([id(2)]);
    expect((await readCachedFirstPage(ACCOUNT, true))?.page.data.map((n) => n.id)).toEqual([id(2)]);
    expect(await lastUndo()).toEqual(result.undo);
  });

  it('unsnoozes in calls of at most 500 ids and drops the cached pages, where the woken ones are missing', async () => {
    const ids = Array.from({ length: 600 }, (_, n) => id(n));
    const { wire, client: api } = await client(json({ success: true, count: 500 }), json({ success: true, count: 3 }));
    expect((await unsnooze(api, { ids })).count).toBe(503);
    expect(wire.requests.map((r) => [r.url.pathname.split('/').at(-1), JSON.parse(r.body).ids.length])).toEqual([
      ['unsnooze', 500],
      ['unsnooze', 100],
    ]);
    expect(await readCachedFirstPage(ACCOUNT, false)).toBeNull();
  });

  it('changes nothing when the service refuses', async () => {
    const { client: api } = await client(problem(401, 'unauthenticated'));
    await expect(markRead(api, { ids: 'all' })).rejects.toMatchObject({ code: 'unauthenticated' });
    expect((await badge()).text).toBe('10');
    expect((await readCachedFirstPage(ACCOUNT, true))?.page.data).toHaveLength(2);
  });
});
