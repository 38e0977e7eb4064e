const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

// Making a formatter costs far more than using one, and a list formats dozens of dates.
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function formatter(language: string): Intl.RelativeTimeFormat {
  let format = relativeFormats.get(language);
  if (!format) {
    format = new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'short' });
    relativeFormats.set(language, format);
  }
  return format;
}

/** The date and time in full, in `language`, for a tooltip beside the relative time. */
export function fullDate(date: string | number | Date, language: string): string {
  let format = dateFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    dateFormats.set(language, format);
  }
  const value = new Date(date);
  return Number.isNaN(value.getTime()) ? '' : format.format(value);
}

/** How long ago `date` was, in the largest unit that fits ("5 min. ago", "yesterday"), in `language`. */
export function relativeTime(date: string | number | Date, now: number, language: string): string {
  const then = new Date(date).getTime();
  if (Number.isNaN(then)) return '';
  // A clock a little behind the service's must not show "in 3 seconds".
  let amount = Math.min(0, (then - now) / 1000);
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size || unit === 'year') {
      const whole = Math.trunc(amount);
      return formatter(language).format(unit === 'second' && whole > -45 ? 0 : whole || 0, unit);
    }
    amount /= size;
  }
  return '';
}
