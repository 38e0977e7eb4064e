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

export async function buildQuietly(options: { mode?: string; browser?: 'chrome' | 'firefox' } = {}): Promise<void> {
  await build({ mode: options.mode ?? 'production', browser: options.browser ?? 'chrome', logger: quiet });
}
