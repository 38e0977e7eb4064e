/**
 * Snoozed notifications wake at their time, whether or not anyone asks. Each service instance
 * sleeps until the soonest wake time of anyone (read from the database, by the database's
 * clock), then wakes what is due in one statement; instances on one database skip the rows
 * another is waking, so each snooze wakes once. A sooner snooze made through any instance
 * re-arms every loop through the live events; the loop also looks again at least once a
 * minute, and at start, so a service that was down at a wake time catches up. Mutes that end
 * are timed events of the same kind: the loop removes them when their time comes, and their
 * notifications come back through the triggers.
 */
import type { Database } from '../db/database';
import { expireDueMutes, msUntilNextMuteEnd } from '../store/mutes';
import { msUntilNextWake, wakeDueNotifications } from '../store/notifications';

/** The longest sleep: a safety net for a missed event, and under the timer's own limit. */
const MAX_SLEEP_MS = 60_000;
/** A due row another instance holds is gone when it commits; look again shortly. */
const HELD_RETRY_MS = 50;
const FAILED_RETRY_MS = 1_000;

export interface WakeLoop {
  /**
   * Wakes what is due now and re-arms for the soonest: the first call starts the loop; a snooze
   * event or a reconnect calls it again.
   */
  look(): Promise<void>;
  /** Notifications this instance has woken since it started. */
  readonly woken: number;
  stop(): Promise<void>;
}

const soonest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

export function startWakeLoop(db: Database, log?: (line: string) => void): WakeLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let woken = 0;

  function arm(ms: number) {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(() => void look(), Math.min(Math.max(Math.ceil(ms), 0), MAX_SLEEP_MS));
    timer.unref();
  }

  async function once() {
    try {
      const now = await db.transaction((tx) => wakeDueNotifications(tx));
      woken += now;
      await db.transaction((tx) => expireDueMutes(tx));
      const next = soonest(await msUntilNextWake(db), await msUntilNextMuteEnd(db));
      if (next === null) arm(MAX_SLEEP_MS);
      else arm(next <= 0 ? HELD_RETRY_MS : next);
    } catch (error) {
      if (stopped) return;
      log?.(`waking snoozed notifications failed: ${(error as Error).message}`);
      arm(FAILED_RETRY_MS);
    }
  }

  function look(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await once();
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    look,
    get woken() {
      return woken;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
