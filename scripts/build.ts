/**
 * Builds the extension from a script or a test: WXT's build with its progress lines left out
 * and its warnings and errors kept.
 */
import { build } from 'wxt';

const quiet = {
  debug() {},
  info() {},
  log() {},
  warn: console.warn,
  error: console.error,
  success() {},
  fatal: console.error,
  level: 1,
};

/** Builds into `outDir` (WXT's `.output` by default), one folder per browser inside it. */
export async function buildQuietly(
  options: { mode?: string; browser?: 'chrome' | 'firefox' | 'edge'; outDir?: string } = {},
): Promise<void> {
  await build({
    mode: options.mode ?? 'production',
    browser: options.browser ?? 'chrome',
    logger: quiet,
    ...(options.outDir ? { outDir: options.outDir } : {}),
  });
}
