/**
 * CPU time processes have used, from Linux's /proc: what a request costs the service itself,
 * which a busy shared machine disturbs far less than a rate of requests.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks a second in /proc/<pid>/stat: 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

/** Seconds of CPU (user and system) the processes have used so far; NaN where /proc cannot say. */
export function cpuSeconds(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return Number.NaN;
    }
  }
  return ticks / TICKS_PER_SECOND;
}
