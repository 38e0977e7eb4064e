/**
 * Quiet hours: on chosen days, a time range in the person's time zone during which no desktop
 * alert is raised. A range whose end is earlier than its start runs across midnight and belongs
 * to the day it starts on (Friday 22:00–07:00 ends on Saturday morning). Times are wall-clock
 * times, so a daylight-saving change moves them with the clocks on the wall; they are read as
 * snooze times are (`snooze-times.ts`).
 */
import { minutesOf, type QuietHours, quietHoursProblem } from './settings';
import { instantOf, wallTime } from './snooze-times';

export type { QuietHours } from './settings';

/** The day of the week and the minutes since midnight a wall clock in `timeZone` shows at `at`. */
function dayAndMinutes(at: number, timeZone: string): { weekday: number; minutes: number } {
  const wall = wallTime(at, timeZone);
  return {
    weekday: new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay(),
    minutes: wall.hour * 60 + wall.minute,
  };
}

/** Whether `at` falls in the quiet hours. */
export function isQuiet(quiet: QuietHours, at: number, timeZone: string): boolean {
  if (quietHoursProblem(quiet) !== null || !quiet.enabled) return false;
  const start = minutesOf(quiet.start) as number;
  const end = minutesOf(quiet.end) as number;
  const { weekday, minutes } = dayAndMinutes(at, timeZone);
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
  const today = wallTime(at, timeZone);
  for (let days = 0; days <= 1; days++) {
    // Date.UTC carries a day past the month's end into the next month.
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + days));
    const wall = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
    const moment = instantOf({ ...wall, hour: Math.floor(end / 60), minute: end % 60 }, timeZone);
    if (moment > at) return moment;
  }
  return null;
}
