/**
 * Builds what the end-to-end tests load: for Chromium the e2e build (mode `e2e`: loopback host
 * permissions held), for Firefox the store build. A browser the machine lacks is announced
 * loudly and its tests are skipped; under `CI=true` it fails the run instead.
 */
import { buildQuietly } from '../../../scripts/build';
import { findChromium, MISSING_CHROMIUM } from '../../../scripts/chromium';
import { findFirefox, MISSING_FIREFOX } from '../../../scripts/firefox';
import { BROWSER_NAMES } from './driver';

const INSTALLED = { chromium: findChromium() !== null, firefox: findFirefox() !== null };
const MISSING = { chromium: MISSING_CHROMIUM, firefox: MISSING_FIREFOX };

/**
 * The end-to-end and stress projects both name this setup; in one run the builds are made once,
 * whichever project asks first.
 */
const run = globalThis as { inboxE2EBuilds?: Promise<void> };

export default function setup(): Promise<void> {
  run.inboxE2EBuilds ??= build();
  return run.inboxE2EBuilds;
}

async function build() {
  const missing = BROWSER_NAMES.filter((name) => !INSTALLED[name]);
  if (missing.length && process.env.CI) throw new Error(missing.map((name) => MISSING[name]).join('\n\n'));
  for (const name of missing) {
    process.stderr.write(
      `\n${'!'.repeat(72)}\n${MISSING[name]}\nThe end-to-end tests in ${name} are SKIPPED.\n${'!'.repeat(72)}\n\n`,
    );
  }
  if (INSTALLED.chromium) await buildQuietly({ mode: 'e2e' });
  if (INSTALLED.firefox) await buildQuietly({ browser: 'firefox' });
}
