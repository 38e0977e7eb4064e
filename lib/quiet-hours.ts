/**
 * Quiet hours: on chosen days, a time range in the person's time zone during which no desktop
 * alert is raised. A range whose end is earlier than its start runs across midnight and belongs
 * to the day it starts on (Friday 22:00–07:00 ends on Saturday morning). Times are wall-clock
 * times, so a daylight-saving change moves them with the clocks on the wall.
 */

export interface QuietHours {
  enabled: boolean;
  /** Days the range starts on: 0 Sunday … 6 Saturday. */
  days: number[];
  /** `HH:MM`, 24-hour. */
  start: string;
  end: string;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes since midnight of an `HH:MM` time, or null when it is not one. */
export function minutesOf(time: string): number | null {
  const match = TIME.exec(time);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

export type QuietHoursProblem = 'time' | 'sameTime' | 'noDays';

/** Why a quiet-hours setting cannot work, or null when it can. Turned off, anything goes. */
export function quietHoursProblem(quiet: QuietHours): QuietHoursProblem | null {
  if (!quiet.enabled) return null;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === null || end === null) return 'time';
  if (start === end) return 'sameTime';
  if (quiet.days.length === 0) return 'noDays';
  return null;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string): Intl.DateTimeFormat {
  let found = formats.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formats.set(timeZone, found);
  }
  return found;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  weekday: number;
  minutes: number;
}

/** The date and time on the wall in `timeZone` at the moment `at`. */
function wallClock(at: number, timeZone: string): WallClock {
  const parts: Record<string, string> = {};
  for (const part of format(timeZone).formatToParts(at)) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAYS[parts.weekday ?? ''] ?? 0,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

/** How far `timeZone`'s wall clock is ahead of UTC at the moment `at`, in milliseconds. */
function offsetAt(at: number, timeZone: string): number {
  const wall = wallClock(at, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, 0, wall.minutes);
  return asUtc - (at - (at % 60_000));
}

const DAY_MS = 86_400_000;

/**
 * The moments the wall clock in `timeZone` shows `minutes` on the given date, earliest first:
 * usually one, two when the clocks go back over it, and when they skip it (a spring-forward gap)
 * the moment the gap ends, the first on that date past that time.
 */
function momentsOf(year: number, month: number, day: number, minutes: number, timeZone: string): number[] {
  const local = Date.UTC(year, month - 1, day, 0, minutes);
  const before = local - offsetAt(local - DAY_MS, timeZone);
  const after = local - offsetAt(local + DAY_MS, timeZone);
  const shows = (at: number) => wallClock(at, timeZone).minutes === minutes;
  const found = [...new Set([before, after])].filter(shows).sort((a, b) => a - b);
  if (found.length > 0) return found;
  // Skipped: search the minute the clocks jumped, between the two readings.
  let low = Math.min(before, after);
  let high = Math.max(before, after);
  const afterOffset = offsetAt(high, timeZone);
  while (high - low > 60_000) {
    const middle = low + Math.floor((high - low) / 120_000) * 60_000;
    if (offsetAt(middle, timeZone) === afterOffset) high = middle;
    else low = middle;
  }
  return [high];
}

/** The browser's time zone: the person's, as their computer knows it. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Whether `at` falls in the quiet hours. */
export function isQuiet(quiet: QuietHours, at: number, timeZone: string): boolean {
  if (quietHoursProblem(quiet) !== null || !quiet.enabled) return false;
  const start = minutesOf(quiet.start) as number;
  const end = minutesOf(quiet.end) as number;
  const { weekday, minutes } = wallClock(at, timeZone);
  const on = (day: number) => quiet.days.includes((day + 7) % 7);
  if (start < end) return on(weekday) && minutes >= start && minutes < end;
  return (on(weekday) && minutes >= start) || (on(weekday - 1) && minutes < end);
}

/**
 * When the quiet hours that hold `at` end: the first moment after `at` at which the wall clock
 * shows the end time. Null when `at` is not in quiet hours.
 */
export function quietHoursEnd(quiet: QuietHours, at: number, timeZone: string): number | null {
  if (!isQuiet(quiet, at, timeZone)) return null;
  const end = minutesOf(quiet.end) as number;
  const today = wallClock(at, timeZone);
  for (let days = 0; days <= 1; days++) {
    // Date.UTC carries a day past the month's end into the next month.
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + days));
    const moments = momentsOf(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), end, timeZone);
    const next = moments.find((moment) => moment > at);
    if (next !== undefined) return next;
  }
  return null;
}
