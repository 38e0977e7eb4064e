import { describe, expect, it } from 'vitest';
import { fullDate, relativeTime } from '../../../lib/popup/relative-time';

const now = Date.parse('2026-11-21T12:00:00.000Z');
const ago = (seconds: number) => now - seconds * 1000;

describe('relativeTime', () => {
  it('says how long ago in the largest unit that fits', () => {
    expect(relativeTime(ago(10), now, 'en')).toBe('now');
    expect(relativeTime(ago(50), now, 'en')).toBe('50 sec. ago');
    expect(relativeTime(ago(5 * 60), now, 'en')).toBe('5 min. ago');
    expect(relativeTime(ago(59 * 60 + 50), now, 'en')).toBe('59 min. ago');
    expect(relativeTime(ago(3 * 3600), now, 'en')).toBe('3 hr. ago');
    expect(relativeTime(ago(26 * 3600), now, 'en')).toBe('yesterday');
    expect(relativeTime(ago(3 * 86400), now, 'en')).toBe('3 days ago');
    expect(relativeTime(ago(400 * 86400), now, 'en')).toBe('last yr.');
  });

  it('speaks the UI language', () => {
    expect(relativeTime(ago(5 * 60), now, 'de')).toBe('vor 5 Min.');
  });

  it('never speaks of the future when the clocks disagree, and ignores a bad date', () => {
    expect(relativeTime(now + 30_000, now, 'en')).toBe('now');
    expect(relativeTime('not a date', now, 'en')).toBe('');
  });
});

describe('fullDate', () => {
  it('gives the date and time in full, in the UI language', () => {
    expect(fullDate('2026-11-21T09:05:00.000Z', 'en')).toMatch(/Nov 21, 2026/);
    expect(fullDate('2026-11-21T09:05:00.000Z', 'de')).toMatch(/21\.11\.2026/);
    expect(fullDate('nonsense', 'en')).toBe('');
  });
});
