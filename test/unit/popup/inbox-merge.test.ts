import { describe, expect, it } from 'vitest';
import { ApiError, type Notification } from '../../../lib/api';
import { serviceOrder } from '../../../lib/inbox-order';
import type { AccountPage } from '../../../lib/messaging';
import { fetchMerged, type MergeSource } from '../../../lib/popup/inbox-merge';
import { notificationFixture } from '../../support/fixtures';

/** An account's inbox served in pages of `size`, in the service's order, with cursors as the service gives them. */
function source(account: string, items: Notification[], size: number, calls: string[] = []): MergeSource {
  const sorted = [...items].sort(serviceOrder);
  return {
    account,
    async fetch(cursor) {
      calls.push(`${account}:${cursor}`);
      const start = cursor === null ? 0 : Number(cursor.slice(1));
      const data = sorted.slice(start, start + size).map((item) => ({ ...item, account }));
      return { data, cursor: start + size < sorted.length ? `@${start + size}` : null } satisfies AccountPage;
    },
  };
}

const at = (n: number, minute: number) =>
  notificationFixture(n, {
    createdAt: `2026-11-21T${String(8 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00.000Z`,
  });

async function walk(sources: MergeSource[], limit: number) {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof fetchMerged>> = await fetchMerged(sources, cursor, limit);
    pages.push(page.data.map((item) => `${item.account}:${item.id.slice(-3)}`));
    cursor = page.cursor;
  } while (cursor !== null && pages.length < 100);
  return pages;
}

describe('all accounts as one list', () => {
  it('shows every item of every account once, in the service order, whatever the page sizes', async () => {
    // Interleaved times, ties between accounts, and one account much busier than the other.
    const work = Array.from({ length: 23 }, (_, n) => at(n, (n * 7) % 90));
    const home = Array.from({ length: 9 }, (_, n) => at(100 + n, n * 10));
    const expected = [
      ...work.map((item) => ({ ...item, account: 'work' })),
      ...home.map((item) => ({ ...item, account: 'home' })),
    ]
      .sort(serviceOrder)
      .map((item) => `${item.account}:${item.id.slice(-3)}`);
    for (const [size, limit] of [
      [5, 5],
      [4, 7],
      [25, 25],
      [3, 2],
    ] as const) {
      const pages = await walk([source('work', work, size), source('home', home, size)], limit);
      expect(pages.flat()).toEqual(expected);
      expect(pages.every((page) => page.length <= limit)).toBe(true);
    }
  });

  it('refuses a cursor that is not its own, and leaves out an account signed out since', async () => {
    const work = source('work', [at(1, 1), at(2, 2), at(3, 3)], 1);
    const home = source('home', [at(4, 4), at(5, 5)], 1);
    await expect(fetchMerged([work, home], 'not-a-cursor', 2)).rejects.toMatchObject({ code: 'invalid_cursor' });
    const first = await fetchMerged([work, home], null, 2);
    const rest = await fetchMerged([work], first.cursor, 25);
    expect([...first.data, ...rest.data].every((item) => item.account === 'work' || first.data.includes(item))).toBe(
      true,
    );
  });

  it('shows the other accounts when one fails, and the failure when all do', async () => {
    const broken: MergeSource = {
      account: 'broken',
      fetch: () => Promise.reject(new ApiError({ status: 503, code: 'service_unavailable', detail: 'down' })),
    };
    const home = source('home', [at(4, 4), at(5, 5)], 25);
    const page = await fetchMerged([broken, home], null, 25);
    expect(page.data.map((item) => item.account)).toEqual(['home', 'home']);
    expect(page.cursor).toBeNull();
    await expect(fetchMerged([broken], null, 25)).rejects.toMatchObject({ code: 'service_unavailable' });
  });
});
