/**
 * Builds the extension the end-to-end tests load (mode `e2e`: loopback host permissions held,
 * so no permission prompt stands in the way), and refuses to go on without a Chromium in CI.
 */
import { build } from 'wxt';
import { findChromium, MISSING_CHROMIUM } from '../../../scripts/chromium';

export default async function setup() {
  if (!findChromium()) {
    if (process.env.CI) throw new Error(MISSING_CHROMIUM);
    process.stderr.write(
      `\n${'!'.repeat(72)}\n${MISSING_CHROMIUM}\nThe end-to-end tests are SKIPPED.\n${'!'.repeat(72)}\n\n`,
    );
    return;
  }
  await build({
    mode: 'e2e',
    logger: {
      debug() {},
      info() {},
      log() {},
      warn: console.warn,
      error: console.error,
      success() {},
      fatal: console.error,
      level: 1,
    },
  });
}
