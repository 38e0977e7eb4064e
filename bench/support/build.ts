/** Builds the extension the benchmarks measure, quietly: the store build and the e2e build. */
import { resolve } from 'node:path';
import { buildQuietly } from '../../scripts/build';
import { E2E_EXTENSION_DIR } from '../../scripts/chromium';

/** The Chrome build people install: what the size figures are about. */
export const STORE_EXTENSION_DIR = resolve('.output/chrome-mv3');

/** Builds for Chrome in `mode` (`production` for the store, `e2e` for Chromium runs); the output folder. */
export async function buildExtension(mode: 'production' | 'e2e'): Promise<string> {
  await buildQuietly({ mode });
  return mode === 'production' ? STORE_EXTENSION_DIR : E2E_EXTENSION_DIR;
}
