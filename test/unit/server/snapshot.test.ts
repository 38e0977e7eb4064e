import { describe, expect, it } from 'vitest';
import { parseSnapshot, parseXid, sawTransaction } from '../../../server/live/snapshot';

describe('a snapshot', () => {
  it('reads PostgreSQL’s text form, running transactions and all', () => {
    expect(parseSnapshot('752:752:')).toEqual({ xmin: 752n, xmax: 752n, running: new Set() });
    expect(parseSnapshot('10:20:10,14,19')).toEqual({ xmin: 10n, xmax: 20n, running: new Set([10n, 14n, 19n]) });
  });

  it('keeps every digit of a 64-bit id', () => {
    const snapshot = parseSnapshot('18446744073709551000:18446744073709551615:18446744073709551001');
    expect(snapshot?.xmax).toBe(18446744073709551615n);
    expect(snapshot && sawTransaction(snapshot, 18446744073709551002n)).toBe(true);
    expect(snapshot && sawTransaction(snapshot, 18446744073709551001n)).toBe(false);
  });

  it('is none when the text is not one', () => {
    for (const text of ['', '10:20', '10:20:x', '10:20:14,', '20:10:', '10:20:9', '10:20:20', '-1:2:', ' 1:2:']) {
      expect(parseSnapshot(text), text).toBeNull();
    }
  });

  it('saw every transaction ended before it, none that began after it, and none running as it was taken', () => {
    const snapshot = parseSnapshot('100:110:100,105') as NonNullable<ReturnType<typeof parseSnapshot>>;
    expect(sawTransaction(snapshot, 1n)).toBe(true);
    expect(sawTransaction(snapshot, 99n)).toBe(true);
    expect(sawTransaction(snapshot, 100n)).toBe(false);
    expect(sawTransaction(snapshot, 101n)).toBe(true);
    expect(sawTransaction(snapshot, 105n)).toBe(false);
    expect(sawTransaction(snapshot, 109n)).toBe(true);
    expect(sawTransaction(snapshot, 110n)).toBe(false);
    expect(sawTransaction(snapshot, 5_000n)).toBe(false);
  });
});

describe('a transaction id', () => {
  it('is read from its text form only', () => {
    expect(parseXid('754')).toBe(754n);
    expect(parseXid('18446744073709551615')).toBe(18446744073709551615n);
    for (const value of [754, '', '-1', '7.5', '0x10', ' 754', '123456789012345678901', null, undefined]) {
      expect(parseXid(value), String(value)).toBeNull();
    }
  });
});
