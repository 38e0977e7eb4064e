import { describe, expect, it } from 'vitest';
import { kept } from '../../server/api/kept';

describe('answers kept by their argument', () => {
  it('computes each answer once, and forgets all of them when full instead of growing', () => {
    const made: string[] = [];
    const upper = kept((key) => {
      made.push(key);
      return key.toUpperCase();
    }, 2);
    expect([upper('a'), upper('b'), upper('a'), upper('b')]).toEqual(['A', 'B', 'A', 'B']);
    expect(made).toEqual(['a', 'b']);
    expect(upper('c')).toBe('C');
    // 'c' found it full: 'a' and 'b' were forgotten and are computed again.
    expect([upper('c'), upper('a')]).toEqual(['C', 'A']);
    expect(made).toEqual(['a', 'b', 'c', 'a']);
  });
});
