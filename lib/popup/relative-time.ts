const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

const formatters = new Map<string, Intl.RelativeTimeFormat>();

function formatter(language: string): Intl.RelativeTimeFormat {
  let format = formatters.get(language);
  if (!format) {
    format = new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'short' });
    formatters.set(language, format);
  }
  return format;
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
