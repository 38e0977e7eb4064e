import { describe, expect, it } from 'vitest';
import {
  instantOf,
  instantOfLocalInput,
  localInputValue,
  SNOOZE_BOUNDS,
  snoozeChoices,
  wakeTimeProblem,
  wallTime,
} from '../../lib/snooze-times';
import { wakeLabel } from '../../lib/wake-label';

const at = (iso: string) => Date.parse(iso);
const iso = (instant: number) => new Date(instant).toISOString();

/** The presets at `now` in `zone`, as preset → UTC instant. */
function choices(now: string, zone: string): Record<string, string> {
  return Object.fromEntries(snoozeChoices(at(now), zone).map((choice) => [choice.preset, iso(choice.until)]));
}

describe('preset times', () => {
  it('gives later today, this evening, tomorrow morning and next week on an ordinary Tuesday in Berlin', () => {
    // Tuesday 24 November 2026, 10:00 in Berlin (UTC+1).
    expect(choices('2026-11-24T09:00:00.000Z', 'Europe/Berlin')).toEqual({
      laterToday: '2026-11-24T12:00:00.000Z',
      thisEvening: '2026-11-24T17:00:00.000Z',
      tomorrowMorning: '2026-11-25T08:00:00.000Z',
      nextWeek: '2026-11-30T08:00:00.000Z',
    });
  });

  it('lists this evening above later today when the evening comes first', () => {
    // 17:49 in Berlin: 18:00 is eleven minutes ahead, three hours on is 20:49.
    expect(Object.entries(choices('2026-11-24T16:49:00.000Z', 'Europe/Berlin'))).toEqual([
      ['thisEvening', '2026-11-24T17:00:00.000Z'],
      ['laterToday', '2026-11-24T19:49:00.000Z'],
      ['tomorrowMorning', '2026-11-25T08:00:00.000Z'],
      ['nextWeek', '2026-11-30T08:00:00.000Z'],
    ]);
  });

  it('starts later today on the next whole minute, three hours ahead', () => {
    const laterToday = choices('2026-11-24T09:00:20.500Z', 'Europe/Berlin').laterToday;
    expect(laterToday).toBe('2026-11-24T12:01:00.000Z');
  });

  it('leaves out this evening once 18:00 is past or too near, and later today once it falls tomorrow', () => {
    // 19:30 in Berlin: 18:00 has passed, and three hours on is 22:30, still today.
    expect(Object.keys(choices('2026-11-24T18:30:00.000Z', 'Europe/Berlin'))).toEqual([
      'laterToday',
      'tomorrowMorning',
      'nextWeek',
    ]);
    // 17:59:30: 18:00 is 30 s ahead, under the service's minute.
    expect(choices('2026-11-24T16:59:30.000Z', 'Europe/Berlin').thisEvening).toBeUndefined();
    // 17:58: 18:00 is two minutes ahead, which the service takes.
    expect(choices('2026-11-24T16:58:00.000Z', 'Europe/Berlin').thisEvening).toBe('2026-11-24T17:00:00.000Z');
    // 22:00: three hours on is tomorrow, not "later today".
    expect(choices('2026-11-24T21:00:00.000Z', 'Europe/Berlin').laterToday).toBeUndefined();
  });

  it('counts three real hours across the hour Berlin skips on the last Sunday of March', () => {
    // Sunday 29 March 2026, 00:30 CET; at 02:00 the clocks go to 03:00 CEST.
    const now = '2026-03-28T23:30:00.000Z';
    const picked = choices(now, 'Europe/Berlin');
    expect(picked.laterToday).toBe('2026-03-29T02:30:00.000Z');
    expect(wallTime(at(picked.laterToday ?? ''), 'Europe/Berlin')).toMatchObject({ day: 29, hour: 4, minute: 30 });
    // 18:00 and tomorrow's 09:00 are summer time (UTC+2); the night before was winter time.
    expect(picked.thisEvening).toBe('2026-03-29T16:00:00.000Z');
    expect(picked.tomorrowMorning).toBe('2026-03-30T07:00:00.000Z');
  });

  it('keeps 09:00 at 09:00 when Berlin turns the clocks back on the last Sunday of October', () => {
    // Saturday 24 October 2026, 12:00 CEST; the night after, 03:00 becomes 02:00 CET.
    const picked = choices('2026-10-24T10:00:00.000Z', 'Europe/Berlin');
    expect(picked.thisEvening).toBe('2026-10-24T16:00:00.000Z');
    expect(picked.tomorrowMorning).toBe('2026-10-25T08:00:00.000Z');
    expect(picked.nextWeek).toBe('2026-10-26T08:00:00.000Z');
  });

  it('follows New York across its spring change, five hours behind UTC before it and four after', () => {
    // Saturday 7 March 2026, 20:00 EST; on Sunday 8 March 02:00 becomes 03:00 EDT.
    const picked = choices('2026-03-08T01:00:00.000Z', 'America/New_York');
    expect(picked.tomorrowMorning).toBe('2026-03-08T13:00:00.000Z');
    expect(picked.nextWeek).toBe('2026-03-09T13:00:00.000Z');
    expect(picked.thisEvening).toBeUndefined();
  });

  it('counts days in Auckland by its own date, a day ahead of UTC, across its April change', () => {
    // Saturday 4 April 2026, 20:00 NZDT (UTC+13) is still Saturday morning in UTC; at 03:00 on
    // Sunday the clocks go back to 02:00 NZST (UTC+12).
    const picked = choices('2026-04-04T07:00:00.000Z', 'Pacific/Auckland');
    expect(picked.tomorrowMorning).toBe('2026-04-04T21:00:00.000Z');
    expect(picked.nextWeek).toBe('2026-04-05T21:00:00.000Z');
    expect(wallTime(at(picked.nextWeek ?? ''), 'Pacific/Auckland')).toMatchObject({ month: 4, day: 6, hour: 9 });
  });

  it('makes next week the Monday a week on from a Monday, even where UTC still says Sunday', () => {
    // Monday 23 November 2026, 08:00 in Auckland is Sunday 19:00 in UTC.
    expect(choices('2026-11-22T19:00:00.000Z', 'Pacific/Auckland').nextWeek).toBe('2026-11-29T20:00:00.000Z');
    // Monday 23 November, 08:00 in New York.
    expect(choices('2026-11-23T13:00:00.000Z', 'America/New_York').nextWeek).toBe('2026-11-30T14:00:00.000Z');
  });

  it('offers Monday 09:00 once on a Sunday, as tomorrow morning, even where UTC already says Monday', () => {
    // Sunday 22 November 2026, 20:00 in New York is Monday 01:00 in UTC.
    const picked = choices('2026-11-23T01:00:00.000Z', 'America/New_York');
    expect(picked.tomorrowMorning).toBe('2026-11-23T14:00:00.000Z');
    expect(picked.nextWeek).toBeUndefined();
  });

  it('turns a year over at New Year', () => {
    const picked = choices('2026-12-31T12:00:00.000Z', 'UTC');
    expect(picked.tomorrowMorning).toBe('2027-01-01T09:00:00.000Z');
    expect(picked.nextWeek).toBe('2027-01-04T09:00:00.000Z');
  });
});

describe('reading a wall time in a zone', () => {
  it('reads a time the clock skips as the same distance after the change', () => {
    expect(iso(instantOf({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Berlin'))).toBe(
      '2026-03-29T01:30:00.000Z',
    );
  });

  it('reads a time the clock shows twice as the first of the two', () => {
    expect(iso(instantOf({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, 'Europe/Berlin'))).toBe(
      '2026-10-25T00:30:00.000Z',
    );
  });

  it('reads a picked date and time in the zone, and refuses one that names no time', () => {
    expect(iso(instantOfLocalInput('2026-12-01T09:15', 'America/New_York') ?? 0)).toBe('2026-12-01T14:15:00.000Z');
    expect(iso(instantOfLocalInput('2026-09-27T02:30', 'Pacific/Auckland') ?? 0)).toBe('2026-09-26T14:30:00.000Z');
    expect(instantOfLocalInput('2026-02-30T09:00', 'UTC')).toBeNull();
    expect(instantOfLocalInput('2026-12-01 09:00', 'UTC')).toBeNull();
    expect(instantOfLocalInput('', 'UTC')).toBeNull();
    expect(localInputValue(at('2026-12-01T14:15:00.000Z'), 'America/New_York')).toBe('2026-12-01T09:15');
  });
});

describe('bounds', () => {
  const now = at('2026-11-24T09:00:00.000Z');

  it('takes a minute ahead up to a year ahead, as the service does', () => {
    expect(wakeTimeProblem(now + SNOOZE_BOUNDS.minAheadMs - 1, now)).toBe('tooSoon');
    expect(wakeTimeProblem(now - 1, now)).toBe('tooSoon');
    expect(wakeTimeProblem(Number.NaN, now)).toBe('tooSoon');
    expect(wakeTimeProblem(now + SNOOZE_BOUNDS.minAheadMs, now)).toBeNull();
    expect(wakeTimeProblem(now + SNOOZE_BOUNDS.maxAheadMs, now)).toBeNull();
    expect(wakeTimeProblem(now + SNOOZE_BOUNDS.maxAheadMs + 1, now)).toBe('tooFar');
  });
});

describe('wake labels', () => {
  const now = at('2026-11-24T09:00:00.000Z');

  it('shows the weekday and time within the coming week, in the zone and language', () => {
    expect(wakeLabel(at('2026-11-25T08:00:00.000Z'), now, 'Europe/Berlin', 'en-GB')).toBe('Wed 09:00');
    expect(wakeLabel(at('2026-11-25T08:00:00.000Z'), now, 'Europe/Berlin', 'de')).toBe('Mi., 09:00');
    expect(wakeLabel(at('2026-11-25T08:00:00.000Z'), now, 'Pacific/Auckland', 'en-GB')).toBe('Wed 21:00');
  });

  it('adds the date beyond the coming week, and the year beyond this one', () => {
    expect(wakeLabel(at('2026-12-07T08:00:00.000Z'), now, 'Europe/Berlin', 'en-GB')).toBe('Mon 7 Dec, 09:00');
    expect(wakeLabel(at('2027-02-01T08:00:00.000Z'), now, 'Europe/Berlin', 'en-GB')).toBe('Mon, 1 Feb 2027, 09:00');
  });
});
