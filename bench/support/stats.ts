/**
 * The arithmetic every benchmark shares: medians and percentiles of repeated samples, and ratios
 * of two figures taken in the same run, which is what survives a noisy shared machine.
 */

/** The p-th percentile (0–100) of samples, interpolating between the two nearest ranks. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const lowValue = sorted[low] as number;
  const highValue = sorted[high] as number;
  return lowValue + (highValue - lowValue) * (rank - low);
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** The median of per-run ratios `a[i] / b[i]`: runs paired in time cancel most of the machine's drift. */
export function pairedRatio(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error('Paired samples need the same number of runs.');
  return median(a.map((value, i) => value / (b[i] as number)));
}

/** Runs `measure` `runs` times after `warmup` unrecorded runs; the samples it returned. */
export async function repeat(
  runs: number,
  measure: (run: number) => Promise<number>,
  { warmup = 0 } = {},
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await measure(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await measure(i));
  return samples;
}

/** Milliseconds `work` took, measured with the high-resolution clock. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}
