import { describe, expect, it } from 'vitest';
import { parseEvent } from '../../../server/live/events';

const id = '0b6f3c1e-6f1a-4c55-9a43-1d3e8f1b2c4d';

describe('a live event', () => {
  it('is an arrival with the transaction that made it', () => {
    expect(parseEvent(JSON.stringify({ kind: 'notification', user: 7, id, xid: '754' }))).toEqual({
      kind: 'notification',
      user: 7,
      id,
      xid: 754n,
    });
  });

  it('is an arrival naming no transaction when its trigger names none, or names it wrongly', () => {
    for (const xid of [undefined, 754, '', 'abc', '-3']) {
      expect(parseEvent(JSON.stringify({ kind: 'notification', user: 7, id, xid }))).toEqual({
        kind: 'notification',
        user: 7,
        id,
        xid: null,
      });
    }
  });

  it('is none when the payload is not one of the triggers’', () => {
    for (const payload of ['', 'null', '{', JSON.stringify({ kind: 'notification', user: '7', id, xid: '1' })]) {
      expect(parseEvent(payload), payload).toBeNull();
    }
    expect(parseEvent(JSON.stringify({ kind: 'notification', user: 7, id: 5, xid: '1' }))).toBeNull();
  });
});
