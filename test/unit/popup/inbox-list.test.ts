import { describe, expect, it } from 'vitest';
import { serviceOrder } from '../../../lib/inbox-order';
import { inLoadedRange, reconcilePage, restored, survivingNeighbour } from '../../../lib/popup/inbox-list';
import { markedRead, withoutIds } from '../../../lib/triage-patch';
import { idOf, makeInbox, makeNotification } from './popup-background';

const ids = (...ns: number[]) => new Set(ns.map(idOf));
const numbers = (items: { id: string }[]) => items.map((item) => Number(item.id.slice(-12)));

/** Notification `n`, woken from a snooze just after notification `after` arrived: it sorts above it. */
const wokenAfter = (n: number, after: number) =>
  makeNotification(n, {
    read: false,
    sortedAt: new Date(Date.parse(makeNotification(after).createdAt) + 1_000).toISOString(),
  });

describe('serviceOrder', () => {
  it('orders by time, newest first, then by id', () => {
    const sameTime = makeNotification(5, { createdAt: makeNotification(7).createdAt });
    const sorted = [makeNotification(1), makeNotification(7), sameTime, makeNotification(9)].sort(serviceOrder);
    expect(numbers(sorted)).toEqual([9, 7, 5, 1]);
  });

  it('puts a notification woken from a snooze where the service does: by when it woke, not when it came', () => {
    const sorted = [makeNotification(9), makeNotification(8), wokenAfter(2, 8), makeNotification(7)].sort(serviceOrder);
    expect(numbers(sorted)).toEqual([9, 2, 8, 7]);
  });
});

describe('reconcilePage', () => {
  it('leaves out what was deleted here and shows what was marked read here as read', () => {
    const page = makeInbox(5, () => ({ read: false }));
    const result = reconcilePage(page, { deleted: ids(4), read: ids(2) }, false);
    expect(numbers(result)).toEqual([5, 3, 2, 1]);
    expect(result.find((item) => item.id === idOf(2))?.read).toBe(true);
    expect(page.find((item) => item.id === idOf(2))?.read).toBe(false);
  });

  it('leaves read items out of an unread-only list, and items already shown', () => {
    const page = makeInbox(5, () => ({ read: false }));
    const result = reconcilePage(page, { deleted: new Set(), read: ids(3) }, true, [makeNotification(5)]);
    expect(numbers(result)).toEqual([4, 2, 1]);
  });
});

describe('restored', () => {
  const inbox = makeInbox(6, () => ({ read: false }));

  it('puts taken-out items back in their places and replaces changed ones', () => {
    const now = markedRead(withoutIds(inbox, ids(5, 2)), ids(4));
    const back = restored(
      now,
      inbox.filter((item) => [5, 4, 2].includes(Number(item.id.slice(-1)))),
      {
        oldest: inbox.at(-1) ?? null,
        hasMore: true,
      },
      false,
    );
    expect(back).toEqual(inbox);
  });

  it('keeps out items beyond the loaded range while more pages remain, and read items of an unread-only list', () => {
    const loaded = inbox.slice(0, 3);
    const older = makeNotification(1, { read: false });
    const range = { oldest: loaded.at(-1) ?? null, hasMore: true };
    expect(inLoadedRange(older, range)).toBe(false);
    expect(numbers(restored(loaded, [older], range, false))).toEqual([6, 5, 4]);
    expect(numbers(restored(loaded, [older], { ...range, hasMore: false }, false))).toEqual([6, 5, 4, 1]);
    expect(numbers(restored([], [makeNotification(3, { read: true })], range, true))).toEqual([]);
  });

  it('puts a woken notification back in the loaded range, in the place the service gives it', () => {
    const woken = wokenAfter(1, 5);
    const loaded = [makeNotification(6), woken, makeNotification(5), makeNotification(4)].map((item) => ({
      ...item,
      read: false,
    }));
    const range = { oldest: loaded.at(-1) ?? null, hasMore: true };
    expect(inLoadedRange(woken, range)).toBe(true);
    expect(numbers(restored(withoutIds(loaded, ids(1)), [woken], range, false))).toEqual([6, 1, 5, 4]);
  });

  it('restores into a list emptied by the change', () => {
    expect(restored([], inbox, { oldest: inbox.at(-1) ?? null, hasMore: true }, false)).toEqual(inbox);
  });
});

describe('survivingNeighbour', () => {
  const before = makeInbox(5);

  it('keeps an item that stayed', () => {
    expect(survivingNeighbour(before, before.slice(1), idOf(3))).toBe(idOf(3));
  });

  it('moves to the next item that stayed, else the previous one', () => {
    expect(survivingNeighbour(before, withoutIds(before, ids(3, 2)), idOf(3))).toBe(idOf(1));
    expect(survivingNeighbour(before, withoutIds(before, ids(2, 1)), idOf(2))).toBe(idOf(3));
    expect(survivingNeighbour(before, [], idOf(2))).toBeNull();
    expect(survivingNeighbour(before, before, null)).toBeNull();
  });
});
