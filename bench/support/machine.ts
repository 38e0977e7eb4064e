/** The machine a run was made on: figures mean little without it. */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { findChromium } from '../../scripts/chromium';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGB: number;
  os: string;
  node: string;
  chromium: string | null;
  /** The 1, 5 and 15 minute load averages when the run started. */
  loadAverage: number[];
}

function chromiumVersion(): string | null {
  const path = findChromium();
  if (!path) return null;
  try {
    const output = execFileSync(path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return output.trim().split('\n').at(-1) ?? null;
  } catch {
    return null;
  }
}

export const loadAverage = () => loadavg().map((value) => Math.round(value * 100) / 100);

export function describeMachine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGB: Math.round(totalmem() / 2 ** 30),
    os: `${type()} ${release()}`,
    node: process.version,
    chromium: chromiumVersion(),
    loadAverage: loadAverage(),
  };
}
