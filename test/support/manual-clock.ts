import type { Clock } from '../../lib/background/clock';

/** A clock that moves only when the test moves it, running every timer that falls due on the way. */
export function manualClock(start = Date.now()) {
  let now = start;
  let next = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  const clock: Clock & { advance(ms: number): void; timers(): number[] } = {
    now: () => now,
    setTimeout(run, ms) {
      next += 1;
      timers.set(next, { at: now + ms, run });
      return next;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= end).sort(([, a], [, b]) => a.at - b.at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = end;
    },
    /** Milliseconds from now until each pending timer, soonest first. */
    timers: () => [...timers.values()].map((t) => t.at - now).sort((a, b) => a - b),
  };
  return clock;
}
