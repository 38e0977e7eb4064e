/**
 * One line when a phase of a stress test begins: each file runs for tens of seconds, and a
 * person watching the run should see where it is rather than silence.
 */
const started = performance.now();

export function progress(line: string): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`[${seconds} s] ${line}`);
}
