import { describe, expect, it } from 'vitest';
import { markedRead, triagedPage, uniqueIds, withoutIds } from '../../lib/triage-patch';
import { notificationFixture } from '../support/fixtures';

/** Ids with letters in them, so that case can differ. */
const uuid = (n: number) => `abcdef00-0000-4000-8000-00000000000${n}`;

const page = () => ({
  data: [1, 2, 3].map((n) => notificationFixture(n, { id: uuid(n), read: n === 3 })),
  cursor: 'next',
});
const ids = (items: { id: string }[]) => items.map((item) => item.id);

describe('triage patch', () => {
  it('matches ids regardless of case, as the service does', () => {
    const upper = uuid(2).toUpperCase();
    expect(ids(withoutIds(page().data, [upper]))).toEqual([uuid(1), uuid(3)]);
    expect(markedRead(page().data, [upper]).map((item) => item.read)).toEqual([false, true, true]);
    expect(uniqueIds([uuid(1), uuid(1).toUpperCase(), uuid(2)])).toEqual([uuid(1), uuid(2)]);
  });

  it('marks read in a list of all notifications and takes the items out of an unread-only one', () => {
    const all = triagedPage(page(), 'markRead', [uuid(1)], false);
    expect(all.data.map((item) => item.read)).toEqual([true, false, true]);
    expect(all.cursor).toBe('next');
    const unread = triagedPage(page(), 'markRead', [uuid(1)], true);
    expect(ids(unread.data)).toEqual([uuid(2), uuid(3)]);
    expect(unread.cursor).toBe('next');
  });

  it('deletes from either list, and leaves nothing to page to after "all"', () => {
    expect(ids(triagedPage(page(), 'delete', [uuid(3)], false).data)).toEqual([uuid(1), uuid(2)]);
    expect(triagedPage(page(), 'delete', 'all', false)).toEqual({ data: [], cursor: null });
    expect(triagedPage(page(), 'markRead', 'all', true)).toEqual({ data: [], cursor: null });
    const allRead = triagedPage(page(), 'markRead', 'all', false);
    expect(allRead.data.every((item) => item.read)).toBe(true);
    expect(allRead.cursor).toBe('next');
  });

  it('marks unread where the items are, in either list', () => {
    const all = triagedPage(page(), 'markUnread', [uuid(3)], false);
    expect(all.data.map((item) => item.read)).toEqual([false, false, false]);
    expect(all.cursor).toBe('next');
    const unread = triagedPage({ data: page().data.slice(0, 2), cursor: 'u' }, 'markUnread', [uuid(3)], true);
    expect(ids(unread.data)).toEqual([uuid(1), uuid(2)]);
  });
});
