/**
 * When a snooze ends, in words short enough for a menu, a row or a toast. Apart from the preset
 * arithmetic in `snooze-times.ts`, so the inbox's toast can say it without loading that.
 */

const DAY_MS = 86_400_000;

const formats = new Map<string, Intl.DateTimeFormat>();

function format(language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language} ${JSON.stringify(options)}`;
  let found = formats.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(language, options);
    formats.set(key, found);
  }
  return found;
}

/** The person's time zone, as the browser knows it. */
export function currentTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * The weekday and time within the coming week ("Tue 09:00"), with the date beyond it, and the
 * year when it is not this one, as a clock in `timeZone` shows it.
 */
export function wakeLabel(until: number, now: number, timeZone: string, language: string): string {
  const year = (at: number) => format('en', { timeZone, year: 'numeric' }).format(at);
  const withDate = until - now >= 6 * DAY_MS || until < now;
  return format(language, {
    timeZone,
    weekday: 'short',
    ...(withDate ? { day: 'numeric', month: 'short' } : {}),
    ...(year(until) === year(now) ? {} : { year: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
  }).format(until);
}
