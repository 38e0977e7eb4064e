/**
 * When the next check of the unread count is due. The service's `X-Poll-Interval` is a floor
 * the person's interval cannot go under; failures back off exponentially, with jitter so that
 * many browsers do not come back at the same moment, up to a ceiling; a `Retry-After` is
 * always honoured.
 */

/** No backoff waits longer than this, unless the regular interval itself is longer. */
export const BACKOFF_CEILING_SECONDS = 10 * 60;

export interface ScheduleInput {
  /** The person's poll interval in seconds. */
  intervalSeconds: number;
  /** The service's least interval (`X-Poll-Interval`), if it gave one. */
  hintSeconds: number | null;
  /** Failed checks in a row. */
  failures: number;
  /** The service's `Retry-After`, if the last answer carried one. */
  retryAfterSeconds?: number | null;
  /** A number in [0, 1); Math.random by default. */
  random?: () => number;
}

export function regularInterval({
  intervalSeconds,
  hintSeconds,
}: Pick<ScheduleInput, 'intervalSeconds' | 'hintSeconds'>) {
  return Math.max(intervalSeconds, hintSeconds ?? 0);
}

/** Milliseconds until the next check. */
export function nextPollDelay(input: ScheduleInput): number {
  const base = regularInterval(input);
  let seconds = base;
  if (input.failures > 0) {
    const ceiling = Math.max(base, BACKOFF_CEILING_SECONDS);
    const backoff = Math.min(ceiling, base * 2 ** Math.min(input.failures, 20));
    // Equal jitter: never sooner than half the backoff, which is never sooner than the regular interval.
    const random = input.random ?? Math.random;
    seconds = Math.max(base, backoff / 2 + (random() * backoff) / 2);
  }
  if (input.retryAfterSeconds) seconds = Math.max(seconds, input.retryAfterSeconds);
  return Math.round(seconds * 1000);
}

/** While the live channel carries the count, a check this often is only a safety net. */
export const LIVE_SAFETY_NET_SECONDS = 5 * 60;

/** A ping every 20–25 s: Chrome keeps the worker alive while its WebSocket talks every 30 s. */
export const PING_MIN_MS = 20_000;
export const PING_MAX_MS = 25_000;

const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * Milliseconds before reconnection attempt `failures + 1` of the live channel: 1 s doubling up
 * to 5 minutes, with equal jitter so that browsers dropped together by a restart do not all
 * come back at once.
 */
export function reconnectDelay(failures: number, random: () => number = Math.random): number {
  const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.min(failures, 20));
  return Math.round(backoff / 2 + (random() * backoff) / 2);
}
