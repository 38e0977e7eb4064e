/**
 * Finds the machine's Firefox and starts it with the store build installed, driven over
 * WebDriver BiDi by puppeteer-core (no geckodriver, and no browser is ever downloaded: the
 * end-to-end tests use Debian's `firefox-esr`).
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import puppeteer, { type Browser, TimeoutError } from 'puppeteer-core';

const CANDIDATES = ['/usr/bin/firefox-esr', '/usr/bin/firefox'];

/** The build Firefox loads in the end-to-end tests: the one that goes to the store. */
export const FIREFOX_EXTENSION_DIR = resolve('.output/firefox-mv2');

/** The add-on id from the manifest, and the fixed host its pages get, so tests can address them. */
export const GECKO_ID = 'inbox-companion@example.social';
export const FIREFOX_EXTENSION_UUID = '6f1c2b7e-3d4a-4e8b-9c2d-1a5f0e7b3c91';

export function findFirefox(): string | null {
  const configured = process.env.FIREFOX_PATH;
  if (configured) return existsSync(configured) ? configured : null;
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}

export const MISSING_FIREFOX = [
  'No Firefox found: the end-to-end tests run in Firefox ESR too and never download a browser.',
  'Install it with `sudo apt-get install -y firefox-esr` (Debian/Ubuntu),',
  'or point FIREFOX_PATH at a Firefox 142 or later.',
].join('\n');

export interface FirefoxOptions {
  colorScheme?: 'light' | 'dark';
  locale?: string;
  /** How long the event page may idle before Firefox unloads it (Firefox's own default is 30 s). */
  backgroundIdleTimeoutMs?: number;
  /**
   * A phone's screen: 360 × 640 CSS px, and a finger as the only pointer. Firefox takes touch
   * input and says in its media queries that the pointer is coarse and cannot hover, as on a
   * phone; the popup, opened as a page, is then laid out as Firefox for Android shows it.
   */
  phone?: boolean;
  /**
   * A profile Firefox has started in once (`makeFirefoxProfile`). Each launch starts from a copy
   * of it instead of an empty folder: a new profile's first start (its databases, its built-in
   * add-ons, its start-up cache) took about 1.3 s and 1.9 s of CPU of every launch here. The copy
   * is made beside the template, in its parent folder, and removed once the browser has quit;
   * whoever made the template removes that folder, with any copy a killed process left.
   */
  profileTemplate?: string;
}

/** A common phone's screen in CSS pixels, which Firefox for Android shows the popup across. */
export const PHONE_VIEWPORT = { width: 360, height: 640 };

/**
 * A phone's pointer: touch events on, and the pointer a coarse one that cannot hover (the
 * capabilities' bits: 1 coarse, 2 fine, 4 hover), for the primary pointer and for every one.
 */
const PHONE_PREFS = {
  'dom.w3c_touch_events.enabled': 1,
  'ui.primaryPointerCapabilities': 1,
  'ui.allPointerCapabilities': 1,
};

/** Puppeteer's launch settings: the extension's fixed host, prefs the tests rely on, `profile` if given. */
function launchSettings(executablePath: string, options: FirefoxOptions, profile?: string) {
  return {
    browser: 'firefox' as const,
    protocol: 'webDriverBiDi' as const,
    executablePath,
    headless: true,
    // Without it Firefox's remote agent refuses to navigate to moz-extension: pages.
    args: ['--remote-allow-system-access'],
    defaultViewport: options.phone ? PHONE_VIEWPORT : { width: 1000, height: 800 },
    ...(profile ? { userDataDir: profile } : {}),
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: FIREFOX_EXTENSION_UUID }),
      // A real click on Save grants optional permissions without a doorhanger no test could click.
      'extensions.webextOptionalPermissionPrompts': false,
      // Desktop alerts in a window of Firefox's own, which tests can reach, not the system's daemon.
      'alerts.useSystemBackend': false,
      'intl.locale.requested': options.locale ?? 'en-US',
      'intl.accept_languages': options.locale ?? 'en-US',
      // 0 dark, 1 light: what `prefers-color-scheme` says in every page.
      'layout.css.prefers-color-scheme.content-override': options.colorScheme === 'dark' ? 0 : 1,
      ...(options.backgroundIdleTimeoutMs
        ? { 'extensions.background.idle.timeout': options.backgroundIdleTimeoutMs }
        : {}),
      ...(options.phone ? PHONE_PREFS : {}),
    },
  };
}

/** Starts Firefox once in the empty folder `folder` and quits, leaving a profile for `profileTemplate`. */
export async function makeFirefoxProfile(folder: string): Promise<void> {
  const executablePath = findFirefox();
  if (!executablePath) throw new Error(MISSING_FIREFOX);
  const browser = await puppeteer.launch(launchSettings(executablePath, {}, folder));
  await browser.close();
}

interface ProfileCopy {
  folder: string;
  remove(): Promise<void>;
  /** Removes the copy once `browser`'s process has exited. */
  removeWith(browser: Browser): void;
}

/** A copy of `template` in a folder of its own beside it. */
async function copyProfile(template: string): Promise<ProfileCopy> {
  const folder = await mkdtemp(join(dirname(template), 'copy-'));
  await cp(template, folder, { recursive: true });
  const remove = () => rm(folder, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  return {
    folder,
    remove,
    removeWith(browser) {
      const process = browser.process();
      if (!process || process.exitCode !== null || process.signalCode !== null) void remove();
      else process.once('exit', () => void remove());
    },
  };
}

/** How many times a start that hangs before its remote agent answers is tried. */
const LAUNCH_ATTEMPTS = 2;

/** Firefox with the extension installed as a temporary add-on (unsigned is fine there). */
export async function launchFirefox(extensionDir: string, options: FirefoxOptions = {}): Promise<Browser> {
  const executablePath = findFirefox();
  if (!executablePath) throw new Error(MISSING_FIREFOX);
  let browser: Browser | undefined;
  for (let attempt = 1; !browser; attempt++) {
    const profile = options.profileTemplate ? await copyProfile(options.profileTemplate) : undefined;
    try {
      browser = await puppeteer.launch(launchSettings(executablePath, options, profile?.folder));
      profile?.removeWith(browser);
    } catch (error) {
      await profile?.remove();
      // A start whose remote agent never says where it listens is killed by puppeteer after 30 s.
      // On a two-core machine busy with other browsers one start of a whole test run did that,
      // which a second start, in a new copy of the profile, does not repeat. Any other failure,
      // or a second hang, is final.
      if (!(error instanceof TimeoutError) || attempt >= LAUNCH_ATTEMPTS) throw error;
    }
  }
  try {
    await browser.installExtension(extensionDir);
  } catch (error) {
    await browser.close();
    throw error;
  }
  return browser;
}
