/**
 * Builds what the end-to-end tests load: for Chromium the e2e build (mode `e2e`: loopback host
 * permissions held), for Firefox the store build. A browser the machine lacks is announced
 * loudly and its tests are skipped; under `CI=true` it fails the run instead. Meanwhile Firefox
 * starts once in a new profile, which every Firefox of the run then starts from a copy of.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildQuietly } from '../../../scripts/build';
import { findChromium, MISSING_CHROMIUM } from '../../../scripts/chromium';
import { findFirefox, MISSING_FIREFOX, makeFirefoxProfile } from '../../../scripts/firefox';
import { BROWSER_NAMES } from './driver';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The profile each Firefox of the run starts from a copy of (`FirefoxOptions.profileTemplate`); null without Firefox. */
    firefoxProfileTemplate: string | null;
  }
}

const INSTALLED = { chromium: findChromium() !== null, firefox: findFirefox() !== null };
const MISSING = { chromium: MISSING_CHROMIUM, firefox: MISSING_FIREFOX };

/**
 * The end-to-end and stress projects both name this setup; in one run the builds are made once,
 * whichever project asks first.
 */
const run = globalThis as { inboxE2EBuilds?: Promise<void>; inboxFirefoxProfile?: Promise<string | null> };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  run.inboxE2EBuilds ??= build();
  run.inboxFirefoxProfile ??= firefoxProfile();
  const [, profile] = await Promise.all([run.inboxE2EBuilds, run.inboxFirefoxProfile]);
  project.provide('firefoxProfileTemplate', profile);
  // The template's folder, with the copies made beside it.
  return async () => {
    if (profile) await rm(dirname(profile), { recursive: true, force: true });
  };
}

async function firefoxProfile(): Promise<string | null> {
  if (!INSTALLED.firefox) return null;
  const template = join(await mkdtemp(join(tmpdir(), 'inbox-firefox-')), 'template');
  await mkdir(template);
  await makeFirefoxProfile(template);
  return template;
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
