/**
 * When a snooze ends: the preset times a person picks from ("later today", "this evening",
 * "tomorrow morning", "next week") and a picked date and time, all as wall-clock times in the
 * person's time zone, turned into instants the service takes. Pure functions of a clock and a
 * time zone (IANA name), with `Intl` the only calendar: daylight-saving changes and zones far
 * from UTC are the browser's time-zone data, not arithmetic done here.
 */

import { LIMITS } from './api/contract';

/** How near and how far a snooze may end, as the service takes it. */
export const SNOOZE_BOUNDS = {
  minAheadMs: LIMITS.snoozeMinSeconds * 1000,
  maxAheadMs: LIMITS.snoozeMaxSeconds * 1000,
} as const;

export type SnoozePreset = 'laterToday' | 'thisEvening' | 'tomorrowMorning' | 'nextWeek';

export interface SnoozeChoice {
  preset: SnoozePreset;
  /** When the snooze ends, in ms since the epoch. */
  until: number;
}

/** A date and time as a wall clock in some time zone shows it; `month` 1–12. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** "Later today" is this long from now. */
const LATER_MS = 3 * HOUR_MS;
const EVENING_HOUR = 18;
const MORNING_HOUR = 9;

const wallFormats = new Map<string, Intl.DateTimeFormat>();

function wallFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallFormats.set(timeZone, format);
  }
  return format;
}

function wallParts(instant: number, timeZone: string): WallTime & { second: number } {
  const parts: Record<string, number> = {};
  for (const part of wallFormat(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** What a wall clock in `timeZone` shows at `instant`, to the minute. */
export function wallTime(instant: number, timeZone: string): WallTime {
  const { second: _, ...wall } = wallParts(instant, timeZone);
  return wall;
}

/** The wall time read as if it were UTC: a number to compare and shift wall times by. */
const asUtc = (wall: WallTime) => Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);

/** How far `timeZone` is ahead of UTC at `instant`, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const wall = wallParts(instant, timeZone);
  const whole = Math.floor(instant / 1000) * 1000;
  return asUtc(wall) + wall.second * 1000 - whole;
}

/**
 * The instant a wall clock in `timeZone` shows `wall`. A time the clock skips (the hour lost when
 * daylight saving starts) is read with the offset from before the change, so it lands as far
 * after the change as it was meant after the hour before; a time the clock shows twice (the hour
 * repeated when it ends) is the first of the two. That is how calendars agree to read them
 * (RFC 5545, Temporal's "compatible").
 */
export function instantOf(wall: WallTime, timeZone: string): number {
  const local = asUtc(wall);
  const before = local - offsetAt(local - DAY_MS, timeZone);
  const after = local - offsetAt(local + DAY_MS, timeZone);
  const shows = (instant: number) => asUtc(wallTime(instant, timeZone)) === local;
  const matches = [before, after].filter(shows);
  return matches.length > 0 ? Math.min(...matches) : before;
}

/** The wall date `days` after `wall`'s, at `hour`:00. */
function dayAt(wall: WallTime, days: number, hour: number): WallTime {
  const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour, minute: 0 };
}

/** Monday 1 … Sunday 7 of a wall date. */
const isoWeekday = (wall: WallTime) => new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay() || 7;

const sameDay = (a: WallTime, b: WallTime) => a.year === b.year && a.month === b.month && a.day === b.day;

/** Whether a snooze may end at `until`: far enough ahead and not too far. */
export function wakeTimeProblem(until: number, now: number): 'tooSoon' | 'tooFar' | null {
  if (!Number.isFinite(until) || until - now < SNOOZE_BOUNDS.minAheadMs) return 'tooSoon';
  if (until - now > SNOOZE_BOUNDS.maxAheadMs) return 'tooFar';
  return null;
}

/**
 * The preset choices at `now` in `timeZone`, soonest first: later today (three hours from now,
 * on the next whole minute, while that is still today), this evening (18:00, while it is far
 * enough ahead), tomorrow morning (09:00 tomorrow) and next week (Monday 09:00 of the coming
 * week, a week ahead on a Monday). On a Sunday next week is tomorrow morning, which is then the
 * one choice for that time. Late in the afternoon this evening comes before later today, and is
 * listed first.
 */
export function snoozeChoices(now: number, timeZone: string): SnoozeChoice[] {
  const today = wallTime(now, timeZone);
  const later = Math.ceil((now + LATER_MS) / 60_000) * 60_000;
  const candidates: SnoozeChoice[] = [];
  if (sameDay(wallTime(later, timeZone), today)) candidates.push({ preset: 'laterToday', until: later });
  candidates.push(
    { preset: 'thisEvening', until: instantOf(dayAt(today, 0, EVENING_HOUR), timeZone) },
    { preset: 'tomorrowMorning', until: instantOf(dayAt(today, 1, MORNING_HOUR), timeZone) },
    { preset: 'nextWeek', until: instantOf(dayAt(today, 8 - isoWeekday(today), MORNING_HOUR), timeZone) },
  );
  candidates.sort((a, b) => a.until - b.until);
  return candidates.filter(
    (choice, index) =>
      wakeTimeProblem(choice.until, now) === null &&
      candidates.findIndex((other) => other.until === choice.until) === index,
  );
}

/** A `datetime-local` value ("2026-11-24T09:00") for a wall time. */
export function localInputValue(instant: number, timeZone: string): string {
  const wall = wallTime(instant, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(wall.year).padStart(4, '0')}-${two(wall.month)}-${two(wall.day)}T${two(wall.hour)}:${two(wall.minute)}`;
}

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/;

/** The instant a `datetime-local` value names in `timeZone`, or null for a value that names none. */
export function instantOfLocalInput(value: string, timeZone: string): number | null {
  const match = LOCAL_INPUT.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [number, number, number, number, number];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  return instantOf({ year, month, day, hour, minute }, timeZone);
}
