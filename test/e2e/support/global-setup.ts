/**
 * Builds the extension the end-to-end tests load (mode `e2e`: loopback host permissions held,
 * so no permission prompt stands in the way), and refuses to go on without a Chromium in CI.
 */
import { buildQuietly } from '../../../scripts/build';
import { findChromium, MISSING_CHROMIUM } from '../../../scripts/chromium';

export default async function setup() {
  if (!findChromium()) {
    if (process.env.CI) throw new Error(MISSING_CHROMIUM);
    process.stderr.write(
      `\n${'!'.repeat(72)}\n${MISSING_CHROMIUM}\nThe end-to-end tests are SKIPPED.\n${'!'.repeat(72)}\n\n`,
    );
    return;
  }
  await buildQuietly({ mode: 'e2e' });
}
