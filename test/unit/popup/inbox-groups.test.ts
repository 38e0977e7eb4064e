import { describe, expect, it } from 'vitest';
import type { Notification } from '../../../lib/api/contract';
import { type Grouping, groupActors, groupRows, rowKeys, withGroupMembers } from '../../../lib/popup/inbox-groups';
import { restored } from '../../../lib/popup/inbox-list';
import { DEFAULT_SETTINGS } from '../../../lib/settings';
import { triagedItems } from '../../../lib/triage-patch';
import { makeNotification } from './popup-background';

const POST = 'http://127.0.0.1:8787/posts/1';
const like = (n: number, change: Partial<Notification> = {}) =>
  makeNotification(n, { type: 'like', url: POST, read: false, ...change });
const other = (n: number) => makeNotification(n, { type: 'reply', read: false });
const shape = (items: Notification[], grouping: Grouping = true) =>
  groupRows(items, grouping).map((row) => (row.group ? row.group.members.map((m) => m.id) : row.item.id));

describe('grouping', () => {
  it('makes one row of neighbours with the same type and link', () => {
    const items = [other(9), like(8), like(7), like(6), other(5)];
    expect(shape(items)).toEqual([other(9).id, [like(8).id, like(7).id, like(6).id], other(5).id]);
  });

  it('leaves apart what is not next to each other, of another type, or without a link', () => {
    const apart = [like(9), other(8), like(7)];
    expect(shape(apart)).toEqual(apart.map((item) => item.id));
    const otherType = [like(9), like(8, { type: 'reply' })];
    expect(shape(otherType)).toEqual(otherType.map((item) => item.id));
    const otherPost = [like(9), like(8, { url: 'http://127.0.0.1:8787/posts/2' })];
    expect(shape(otherPost)).toEqual(otherPost.map((item) => item.id));
    const noLink = [like(9, { url: null }), like(8, { url: null })];
    expect(shape(noLink)).toEqual(noLink.map((item) => item.id));
  });

  it('groups nothing when turned off', () => {
    const items = [like(9), like(8), like(7)];
    expect(shape(items, false)).toEqual(items.map((item) => item.id));
    expect(rowKeys(items, false)).toEqual(items.map((item) => item.id));
    expect(withGroupMembers([like(9).id], items, false)).toEqual([like(9).id]);
  });

  it('groups only the types chosen: by default likes about one post, not mentions in one thread', () => {
    const types = DEFAULT_SETTINGS.groupedTypes;
    const mention = (n: number) => like(n, { type: 'mention' });
    const items = [mention(9), mention(8), like(7), like(6)];
    expect(shape(items, types)).toEqual([mention(9).id, mention(8).id, [like(7).id, like(6).id]]);
    expect(withGroupMembers([mention(9).id, like(7).id], items, types)).toEqual([
      mention(9).id,
      like(7).id,
      like(6).id,
    ]);
    expect(shape(items, { ...types, mention: true, like: false })).toEqual([
      [mention(9).id, mention(8).id],
      like(7).id,
      like(6).id,
    ]);
  });

  it('keeps a group’s key, and grows it, when the next page continues it', () => {
    const firstPage = [other(20), like(19), like(18)];
    const nextPage = [like(17), like(16), other(15)];
    const [, before] = groupRows(firstPage, true);
    const [, after] = groupRows([...firstPage, ...nextPage], true);
    expect(before?.group?.key).toBe(like(19).id);
    expect(after?.group?.key).toBe(like(19).id);
    expect(after?.group?.members.map((m) => m.id)).toEqual([19, 18, 17, 16].map((n) => like(n).id));
    expect(rowKeys([...firstPage, ...nextPage], true)).toEqual([other(20).id, like(19).id, other(15).id]);
  });

  it('is unread while any member is, and counts those unread', () => {
    const [row] = groupRows([like(9, { read: true }), like(8), like(7, { read: true })], true);
    expect(row?.group?.unread).toBe(1);
    const [allRead] = groupRows([like(9, { read: true }), like(8, { read: true })], true);
    expect(allRead?.group?.unread).toBe(0);
  });

  it('names each person once, newest first', () => {
    const [row] = groupRows(
      [like(9), like(8, { actor: { username: 'user9', displayName: 'User 9' } }), like(7, { actor: null }), like(6)],
      true,
    );
    expect(row?.group && groupActors(row.group)).toEqual(['User 9', 'User 6']);
  });
});

describe('triage of a group', () => {
  const items = [other(9), like(8), like(7, { read: true }), like(6), other(5)];

  it('applies to every member when the group’s row is the target, and to that member alone otherwise', () => {
    expect(withGroupMembers([like(8).id], items, true).sort()).toEqual([like(8).id, like(7).id, like(6).id].sort());
    expect(withGroupMembers([like(7).id], items, true)).toEqual([like(7).id]);
    expect(withGroupMembers([other(9).id], items, true)).toEqual([other(9).id]);
  });

  it('marks a partly read group read as one, and undo puts every member back as it was', () => {
    const ids = withGroupMembers([like(8).id], items, true);
    const originals = items.filter((item) => ids.includes(item.id));
    const read = triagedItems(items, 'markRead', ids, false);
    expect(groupRows(read, true)[1]?.group?.unread).toBe(0);
    const back = restored(read, originals, { oldest: items.at(-1) ?? null, hasMore: false }, false);
    expect(back).toEqual(items);
    expect(groupRows(back, true)[1]?.group?.unread).toBe(2);
  });

  it('deletes every member, and undo brings the group back whole', () => {
    const ids = withGroupMembers([like(8).id], items, true);
    const originals = items.filter((item) => ids.includes(item.id));
    const left = triagedItems(items, 'delete', ids, false);
    expect(shape(left)).toEqual([other(9).id, other(5).id]);
    const back = restored(left, originals, { oldest: items.at(-1) ?? null, hasMore: false }, false);
    expect(shape(back)).toEqual(shape(items));
  });
});
