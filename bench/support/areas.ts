/**
 * Runs the chosen areas of a benchmark run one after another, timing each. An area that fails
 * is noted with its error and the run goes on: a whole run takes half an hour, and one area's
 * failure must not cost the others' figures.
 */
import type { Section } from './report';

export interface AreaTiming<Name extends string> {
  area: Name;
  seconds: number;
  loadAverage: number[];
}

export interface AreaRunner<Name extends string> {
  /** Measures `name` when it was chosen; what it measured joins `sections`, a failure joins `failed`. */
  area(name: Name, measure: () => Promise<Section> | Section): Promise<void>;
  sections: Section[];
  timings: AreaTiming<Name>[];
  failed: { area: Name; error: string }[];
}

export function createAreaRunner<Name extends string>(options: {
  wanted: (name: Name) => boolean;
  /** Writes the run's output as it comes: an area's name, then how long it took or why it failed. */
  write: (text: string) => void;
  loadAverage: () => number[];
  /** Milliseconds from a fixed point. */
  now?: () => number;
}): AreaRunner<Name> {
  const { wanted, write, loadAverage, now = () => performance.now() } = options;
  const runner: AreaRunner<Name> = {
    sections: [],
    timings: [],
    failed: [],
    async area(name, measure) {
      if (!wanted(name)) return;
      const started = now();
      write(`${name}… `);
      try {
        runner.sections.push(await measure());
      } catch (error) {
        const words = error instanceof Error ? error.message : String(error);
        runner.failed.push({ area: name, error: words });
        write(`failed: ${words}\n`);
        return;
      }
      const timing = { area: name, seconds: Math.round((now() - started) / 100) / 10, loadAverage: loadAverage() };
      runner.timings.push(timing);
      write(`${timing.seconds} s (load average ${timing.loadAverage[0]})\n`);
    },
  };
  return runner;
}
