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

function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Each variant once to warm it, then `runs` times, in a shuffled order each round: the
 * milliseconds of each, for ratios taken in the same rounds.
 */
export async function sampleVariants<Name extends string>(
  variants: Record<Name, () => Promise<unknown>>,
  runs: number,
): Promise<Record<Name, number[]>> {
  const names = Object.keys(variants) as Name[];
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Name, number[]>;
  for (const name of names) await variants[name]();
  for (let round = 0; round < runs; round++) {
    // A pause after each variant: a service in this thread still has work after answering a
    // request, which no variant may always inherit.
    for (const name of shuffled(names)) {
      samples[name].push(await timed(variants[name]));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
  return samples;
}
