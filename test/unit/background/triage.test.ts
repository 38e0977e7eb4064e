import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSession } from '../../../lib/background/api-session';
import { setStatus } from '../../../lib/background/status-writer';
import { deleteNotifications, markRead } from '../../../lib/background/triage';
import { readCachedFirstPage, writeCachedFirstPage } from '../../../lib/inbox-cache';
import { badge, signedIn } from '../../support/background';
import { notificationFixture, uuid } from '../../support/fixtures';
import { json, problem, recordingFetch } from '../../support/recording-fetch';

const id = uuid;
const item = (n: number, read = false) => notificationFixture(n, { read });

async function client(...replies: Parameters<typeof recordingFetch>) {
  const wire = recordingFetch(...replies);
  const { client } = await createSession({ fetch: wire.fetch, retries: 0 }).client();
  return { wire, client };
}

describe('triage', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    await signedIn();
    await setStatus({ kind: 'ok', count: 10, checkedAt: 1, nextCheckAt: null, detail: null });
    await writeCachedFirstPage(false, { data: [item(1), item(2), item(3, true)], cursor: 'c' });
    await writeCachedFirstPage(true, { data: [item(1), item(2)], cursor: 'u' });
  });

  it('lowers the badge at once by the number marked read, and updates both cached pages', async () => {
    const { client: api } = await client(json({ success: true, count: 2 }));
    const result = await markRead(api, { ids: [id(1), id(2)] });
    expect(result).toEqual({ success: true, count: 2, unreadCount: 8 });
    expect((await badge()).text).toBe('8');
    expect((await readCachedFirstPage(false))?.page.data.map((n) => n.read)).toEqual([true, true, true]);
    expect((await readCachedFirstPage(true))?.page.data).toEqual([]);
  });

  it('clears the badge and the unread page on mark all read', async () => {
    const { client: api } = await client(json({ success: true, count: 10 }));
    await markRead(api, { ids: 'all' });
    expect((await badge()).text).toBe('');
    expect((await readCachedFirstPage(true))?.page).toEqual({ data: [], cursor: null });
  });

  it('lowers the badge on delete by the unread ones among the deleted', async () => {
    const { client: api } = await client(json({ success: true, count: 2 }));
    const result = await deleteNotifications(api, { ids: [id(1), id(3)], unread: 1 });
    expect(result.unreadCount).toBe(9);
    expect((await readCachedFirstPage(false))?.page.data.map((n) => n.id)).toEqual([id(2)]);
  });

  it('empties both cached pages on delete all', async () => {
    const { client: api } = await client(json({ success: true, count: 30 }));
    await deleteNotifications(api, { ids: 'all' });
    expect((await readCachedFirstPage(false))?.page).toEqual({ data: [], cursor: null });
    expect((await badge()).text).toBe('');
  });

  it('sends a large selection in calls of at most 500 ids, each id once', async () => {
    const ids = Array.from({ length: 1200 }, (_, n) => id(n));
    const { wire, client: api } = await client(
      json({ success: true, count: 500 }),
      json({ success: true, count: 500 }),
      json({ success: true, count: 200 }),
    );
    const result = await markRead(api, { ids: [...ids, ...ids.slice(0, 10).map((x) => x.toUpperCase())] });
    expect(wire.requests.map((r) => JSON.parse(r.body).ids.length)).toEqual([500, 500, 200]);
    expect(result.count).toBe(1200);
    expect((await badge()).text).toBe('');
  });

  it('changes nothing when the service refuses', async () => {
    const { client: api } = await client(problem(401, 'unauthenticated'));
    await expect(markRead(api, { ids: 'all' })).rejects.toMatchObject({ code: 'unauthenticated' });
    expect((await badge()).text).toBe('10');
    expect((await readCachedFirstPage(true))?.page.data).toHaveLength(2);
  });
});
