/** Builds the extension the benchmarks measure, quietly: the store build and the e2e build. */
import { resolve } from 'node:path';
import { build } from 'wxt';
import { E2E_EXTENSION_DIR } from '../../scripts/chromium';

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

/** The Chrome build people install: what the size figures are about. */
export const STORE_EXTENSION_DIR = resolve('.output/chrome-mv3');

/** Builds for Chrome in `mode` (`production` for the store, `e2e` for Chromium runs); the output folder. */
export async function buildExtension(mode: 'production' | 'e2e'): Promise<string> {
  await build({ mode, browser: 'chrome', logger: quiet });
  return mode === 'production' ? STORE_EXTENSION_DIR : E2E_EXTENSION_DIR;
}
