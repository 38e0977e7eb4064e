import { describe, expect, it } from 'vitest';
import { isQuiet, type QuietHours, quietHoursEnd } from '../../lib/quiet-hours';
import { quietHoursProblem } from '../../lib/settings';

const BERLIN = 'Europe/Berlin';
const NEW_YORK = 'America/New_York';
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
const nights: QuietHours = { enabled: true, days: EVERY_DAY, start: '22:00', end: '07:00' };
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('quiet hours', () => {
  it('hold a range within one day, on the chosen days only', () => {
    // 2026-11-23 is a Monday; Berlin is UTC+1 in winter.
    const office: QuietHours = { enabled: true, days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' };
    expect(isQuiet(office, at('2026-11-23T08:00:00Z'), BERLIN)).toBe(true);
    expect(isQuiet(office, at('2026-11-23T07:59:00Z'), BERLIN)).toBe(false);
    expect(isQuiet(office, at('2026-11-23T16:00:00Z'), BERLIN)).toBe(false);
    // Sunday
    expect(isQuiet(office, at('2026-11-22T10:00:00Z'), BERLIN)).toBe(false);
    expect(iso(quietHoursEnd(office, at('2026-11-23T10:00:00Z'), BERLIN))).toBe('2026-11-23T16:00:00.000Z');
  });

  it('run across midnight, belonging to the day they start on', () => {
    const fridayNights: QuietHours = { ...nights, days: [5] };
    // Friday 23:30 and Saturday 06:59 in Berlin are quiet; Saturday 23:30 and Friday 06:00 are not.
    expect(isQuiet(fridayNights, at('2026-11-27T22:30:00Z'), BERLIN)).toBe(true);
    expect(isQuiet(fridayNights, at('2026-11-28T05:59:00Z'), BERLIN)).toBe(true);
    expect(isQuiet(fridayNights, at('2026-11-28T06:00:00Z'), BERLIN)).toBe(false);
    expect(isQuiet(fridayNights, at('2026-11-28T22:30:00Z'), BERLIN)).toBe(false);
    expect(isQuiet(fridayNights, at('2026-11-27T05:00:00Z'), BERLIN)).toBe(false);
    // Before midnight they end the next morning, after it the same morning.
    expect(iso(quietHoursEnd(fridayNights, at('2026-11-27T22:30:00Z'), BERLIN))).toBe('2026-11-28T06:00:00.000Z');
    expect(iso(quietHoursEnd(fridayNights, at('2026-11-28T02:00:00Z'), BERLIN))).toBe('2026-11-28T06:00:00.000Z');
  });

  it('end across a month boundary', () => {
    expect(iso(quietHoursEnd(nights, at('2026-11-30T22:00:00Z'), BERLIN))).toBe('2026-12-01T06:00:00.000Z');
  });

  it('follow the clocks on the wall when they spring forward', () => {
    // Berlin: 2026-03-29 02:00 CET becomes 03:00 CEST. A night from 22:00 to 07:00 ends at 07:00 CEST.
    expect(iso(quietHoursEnd(nights, at('2026-03-28T22:00:00Z'), BERLIN))).toBe('2026-03-29T05:00:00.000Z');
    expect(isQuiet(nights, at('2026-03-29T04:59:00Z'), BERLIN)).toBe(true);
    expect(isQuiet(nights, at('2026-03-29T05:00:00Z'), BERLIN)).toBe(false);
    // An end in the hour the clocks skip is read with the offset from before the change: 03:30 CEST.
    const skipped: QuietHours = { ...nights, end: '02:30' };
    expect(iso(quietHoursEnd(skipped, at('2026-03-28T23:00:00Z'), BERLIN))).toBe('2026-03-29T01:30:00.000Z');
    expect(isQuiet(skipped, at('2026-03-29T01:30:00Z'), BERLIN)).toBe(false);
  });

  it('follow the clocks on the wall when they fall back', () => {
    // New York: 2026-11-01 02:00 EDT becomes 01:00 EST. 07:00 that morning is 12:00 UTC, not 11:00.
    expect(iso(quietHoursEnd(nights, at('2026-11-01T03:00:00Z'), NEW_YORK))).toBe('2026-11-01T12:00:00.000Z');
    expect(isQuiet(nights, at('2026-11-01T11:30:00Z'), NEW_YORK)).toBe(true);
    // An end in the hour shown twice ends the first time the clock shows it.
    const repeated: QuietHours = { ...nights, end: '01:30' };
    expect(iso(quietHoursEnd(repeated, at('2026-11-01T04:00:00Z'), NEW_YORK))).toBe('2026-11-01T05:30:00.000Z');
  });

  it('are never quiet when turned off, and have no end outside them', () => {
    expect(isQuiet({ ...nights, enabled: false }, at('2026-11-27T22:30:00Z'), BERLIN)).toBe(false);
    expect(quietHoursEnd(nights, at('2026-11-27T12:00:00Z'), BERLIN)).toBeNull();
  });

  it('name what is wrong with a setting that cannot work', () => {
    expect(quietHoursProblem({ ...nights, start: '25:00' })).toBe('time');
    expect(quietHoursProblem({ ...nights, end: '7:00' })).toBe('time');
    expect(quietHoursProblem({ ...nights, end: '22:00' })).toBe('sameTime');
    expect(quietHoursProblem({ ...nights, days: [] })).toBe('noDays');
    expect(quietHoursProblem({ ...nights, days: [], enabled: false })).toBeNull();
    expect(quietHoursProblem(nights)).toBeNull();
  });
});
