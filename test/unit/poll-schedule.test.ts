import { describe, expect, it } from 'vitest';
import { BACKOFF_CEILING_SECONDS, nextPollDelay, reconnectDelay } from '../../lib/poll-schedule';

const low = () => 0;
const high = () => 0.999_999;

describe('nextPollDelay', () => {
  it('waits the person’s interval after a success', () => {
    expect(nextPollDelay({ intervalSeconds: 60, hintSeconds: null, failures: 0 })).toBe(60_000);
  });

  it('keeps the longer of the person’s interval and the service’s hint', () => {
    expect(nextPollDelay({ intervalSeconds: 60, hintSeconds: 120, failures: 0 })).toBe(120_000);
    expect(nextPollDelay({ intervalSeconds: 300, hintSeconds: 120, failures: 0 })).toBe(300_000);
  });

  it('backs off exponentially after failures, never sooner than the regular interval', () => {
    const delays = [1, 2, 3].map((failures) =>
      nextPollDelay({ intervalSeconds: 60, hintSeconds: null, failures, random: high }),
    );
    expect(delays[0]).toBeCloseTo(120_000, -2);
    expect(delays[1]).toBeCloseTo(240_000, -2);
    expect(delays[2]).toBeCloseTo(480_000, -2);
    for (const failures of [1, 2, 3, 8]) {
      expect(nextPollDelay({ intervalSeconds: 60, hintSeconds: null, failures, random: low })).toBeGreaterThanOrEqual(
        60_000,
      );
    }
  });

  it('spreads retries with jitter', () => {
    const early = nextPollDelay({ intervalSeconds: 60, hintSeconds: null, failures: 3, random: low });
    const late = nextPollDelay({ intervalSeconds: 60, hintSeconds: null, failures: 3, random: high });
    expect(early).toBe(240_000);
    expect(late).toBeGreaterThan(early);
  });

  it('stops growing at the ceiling', () => {
    const delay = nextPollDelay({ intervalSeconds: 60, hintSeconds: null, failures: 50, random: high });
    expect(delay).toBeLessThanOrEqual(BACKOFF_CEILING_SECONDS * 1000);
    expect(delay).toBeGreaterThan(BACKOFF_CEILING_SECONDS * 500);
  });

  it('honours Retry-After even when it is longer than the backoff', () => {
    expect(
      nextPollDelay({ intervalSeconds: 60, hintSeconds: null, failures: 1, retryAfterSeconds: 3600, random: high }),
    ).toBe(3_600_000);
  });
});

describe('reconnectDelay', () => {
  it('doubles from 1 s with equal jitter: never under half the step', () => {
    expect([0, 1, 2, 3].map((failures) => reconnectDelay(failures, low))).toEqual([500, 1_000, 2_000, 4_000]);
    expect([0, 1, 2, 3].map((failures) => reconnectDelay(failures, high))).toEqual([1_000, 2_000, 4_000, 8_000]);
  });

  it('stops growing at five minutes', () => {
    expect(reconnectDelay(40, high)).toBe(300_000);
    expect(reconnectDelay(40, low)).toBe(150_000);
  });
});
