/**
 * The browsers the end-to-end tests run in, and launching either with the extension: Chromium
 * through Playwright with the e2e build, Firefox ESR through puppeteer-core (WebDriver BiDi) with
 * the store build.
 */
import type { CDPSession } from 'playwright-core';
import type { Browser, Page, Target } from 'puppeteer-core';
import { describe, inject, it } from 'vitest';
import { type ExtensionBrowser, findChromium, launchWithExtension } from '../../../scripts/chromium';
import {
  FIREFOX_EXTENSION_DIR,
  FIREFOX_EXTENSION_UUID,
  findFirefox,
  GECKO_ID,
  launchFirefox,
} from '../../../scripts/firefox';
import {
  BROWSER_NAMES,
  type BrowserName,
  type E2EBrowser,
  type E2EPage,
  type ExtensionContext,
  type LaunchOptions,
} from './driver';
import { type FirefoxAlerts, firefoxAlerts } from './firefox-alerts';
import { firefoxPage, navigate } from './firefox-page';
import { waitUntil } from './wait';

export type { BrowserName } from './driver';

const INSTALLED: Record<BrowserName, boolean> = {
  chromium: findChromium() !== null,
  firefox: findFirefox() !== null,
};

/**
 * Every browser the machine has. A flow runs in each with
 * `describe.each(BROWSERS)('… in %s', (browser) => { … startProduct({ browser }) … })`, the
 * product typed `E2EProduct` and its pages driven through the page objects or the `E2EPage`
 * methods. A missing browser is announced loudly by the global setup, and fails it under `CI=true`.
 */
export const BROWSERS: BrowserName[] = BROWSER_NAMES.filter((name) => INSTALLED[name]);

// With no browser at all a file would have no test, which fails it: show the skip instead. Only in a
// test run: the benchmarks and the screenshots load these helpers too, outside any test.
if (BROWSERS.length === 0 && process.env.VITEST) {
  describe.skip('end-to-end flows (no Chromium, no Firefox installed)', () => it.todo('run'));
}

export type ChromiumBrowser = ExtensionBrowser & E2EBrowser & { name: 'chromium' };

export async function launchChromium(options: LaunchOptions = {}): Promise<ChromiumBrowser> {
  const launched = await launchWithExtension(options);
  const { context } = launched;
  let running = 'running';
  /** How often the worker has stopped: a stop is seen even when something wakes it a moment later. */
  let stops = 0;
  // Watched over the DevTools protocol from the first question on: enabling the domain reports
  // the worker's current state at once.
  let watching: Promise<CDPSession> | undefined;
  const watch = () => {
    watching ??= (async () => {
      const cdp = await context.newCDPSession(context.pages()[0] ?? (await context.newPage()));
      cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
        const worker = versions.find((version) => version.scriptURL.endsWith('/background.js'));
        if (worker) running = worker.runningStatus;
        if (worker?.runningStatus === 'stopped') stops++;
      });
      await cdp.send('ServiceWorker.enable');
      return cdp;
    })();
    return watching;
  };
  return {
    ...launched,
    name: 'chromium',
    extension: launched.worker,
    async newPage(url) {
      const page = await context.newPage();
      // Chromium sometimes starts the same navigation twice in a fresh tab; the second one is
      // the page asked for, so wait for it to load rather than fail.
      await page.goto(url).catch(async (error: unknown) => {
        if (!String(error).includes(`interrupted by another navigation to "${url}"`)) throw error;
        await page.waitForURL(url);
      });
      return page;
    },
    pageCount: async () => context.pages().length,
    async nextPage() {
      const page = await context.waitForEvent('page');
      await page.waitForLoadState();
      return page;
    },
    async stopBackground() {
      const cdp = await watch();
      const before = stops;
      // The command's own answer can lag behind the stop (or never come while a page holds the
      // worker busy); the worker's state, which the browser reports as it changes, is what counts.
      const sent = cdp.send('ServiceWorker.stopAllWorkers');
      sent.catch(() => undefined);
      await waitUntil('the service worker to stop', 10_000, async () => stops > before || running === 'stopped');
    },
    async backgroundRunning() {
      await watch();
      return running === 'running';
    },
  };
}

/** Firefox, with its desktop alerts within reach (see `firefox-alerts.ts`). */
export type FirefoxBrowser = E2EBrowser & {
  name: 'firefox';
  alerts: FirefoxAlerts;
  /**
   * Reloads the extension as `runtime.reload()` or an update does: its pages close and a new
   * background page starts; `extension` goes on in a new extension tab once that page is there.
   */
  reloadExtension(): Promise<void>;
};

/** In a test run, the profile its global setup made for every Firefox to start from a copy of. */
const profileTemplate = () => (process.env.VITEST ? (inject('firefoxProfileTemplate') ?? undefined) : undefined);

export async function launchFirefoxBrowser(options: LaunchOptions = {}): Promise<FirefoxBrowser> {
  const browser = await launchFirefox(options.extensionDir ?? FIREFOX_EXTENSION_DIR, {
    ...options,
    profileTemplate: profileTemplate(),
  });
  try {
    const base = `moz-extension://${FIREFOX_EXTENSION_UUID}/`;
    const pageUrl = (path: string) => `${base}${path.replace(/^\//, '')}`;
    // On install the extension opens its options page in the blank tab; that tab stays open as
    // the place where tests use the extension's APIs (BiDi cannot reach into the background page;
    // the tab reaches it with `extension.getBackgroundPage()`, see `firefox-background.ts`).
    const [tab = await browser.newPage()] = await browser.pages();
    const opened = await waitUntil('the options page to open on install', 5_000, async () =>
      (await tab.evaluate(() => location.href)).startsWith(base),
    ).then(
      () => true,
      () => false,
    );
    if (!opened) await navigate(tab, pageUrl('options.html'));
    await tab.evaluate(
      () =>
        new Promise((resolve) => (document.readyState === 'complete' ? resolve(0) : addEventListener('load', resolve))),
    );
    // Reloading the extension (`runtime.reload()`, an update) closes its tabs, which puppeteer
    // does not always notice: a call that finds the tab gone opens a new one and runs there.
    let current = tab;
    const gone = (error: unknown) => /no such frame|closed/i.test(String(error));
    const extension: ExtensionContext = {
      async evaluate(fn: (arg: unknown) => unknown, arg?: unknown) {
        try {
          return await firefoxPage(current).evaluate(fn, arg);
        } catch (error) {
          if (!gone(error)) throw error;
          current = await browser.newPage();
          await navigate(current, pageUrl('options.html'));
          return firefoxPage(current).evaluate(fn, arg);
        }
      },
    } as ExtensionContext;
    const backgroundRunning = () => extension.evaluate(() => chrome.extension.getBackgroundPage?.() != null);
    return {
      name: 'firefox',
      alerts: firefoxAlerts(tab),
      extensionId: GECKO_ID,
      pageUrl,
      extension,
      async newPage(url) {
        const page = await browser.newPage();
        await navigate(page, url);
        return firefoxPage(page);
      },
      pageCount: async () => (await browser.pages()).length,
      nextPage: () => nextFirefoxPage(browser),
      async stopBackground() {
        throw new Error('Firefox never stops the MV2 build’s background page: it is persistent.');
      },
      backgroundRunning,
      async reloadExtension() {
        const front = await frontPage(browser);
        // A blank tab keeps the window open when the extension's tabs close, or Firefox would quit.
        const keeper = await browser.newPage();
        const closed = (await browser.pages()).filter((page) => page !== keeper);
        await extension.evaluate(() => {
          setTimeout(() => chrome.runtime.reload(), 50);
        });
        await waitUntil('the extension’s tabs to close', 10_000, async () =>
          (await Promise.all(closed.map((page) => page.evaluate(() => location.href).catch(() => '')))).every(
            (href) => !href.startsWith(base),
          ),
        );
        await waitUntil('the new background page', 10_000, () => backgroundRunning().catch(() => false));
        // A page's tab in front before the update is in front after it, as for a person: a tab
        // left behind the keeper runs its timers and frames throttled, as Firefox runs hidden tabs.
        // The extension's own pages closed with the update.
        if (front && !front.href.startsWith(base)) await front.page.bringToFront();
      },
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** The tab a person would see, the one whose document is not hidden, and its address. */
async function frontPage(browser: Browser): Promise<{ page: Page; href: string } | undefined> {
  for (const page of await browser.pages()) {
    const shown = await page
      .evaluate(() => (document.visibilityState === 'visible' ? location.href : null))
      .catch(() => null);
    if (shown) return { page, href: shown };
  }
  return undefined;
}

/** Listens at once, so that a tab opened right after the call is the one it gives. */
function nextFirefoxPage(browser: Browser): Promise<E2EPage> {
  const created = new Promise<Target>((resolve) => {
    const listener = (target: Target) => {
      if (target.type() !== 'page') return;
      browser.off('targetcreated', listener);
      resolve(target);
    };
    browser.on('targetcreated', listener);
  });
  return created.then(async (target) => {
    const opened = (await target.page()) as Page;
    // A tab opened at an address starts as about:blank, whose load would pass for the page's.
    await waitUntil('the new tab to leave about:blank', 10_000, async () => opened.url() !== 'about:blank');
    const page = firefoxPage(opened);
    await page.waitForLoadState();
    return page;
  });
}

export function launchBrowser(name: 'chromium', options?: LaunchOptions): Promise<ChromiumBrowser>;
export function launchBrowser(name: 'firefox', options?: LaunchOptions): Promise<FirefoxBrowser>;
export function launchBrowser(name: BrowserName, options?: LaunchOptions): Promise<E2EBrowser>;
export function launchBrowser(name: BrowserName, options: LaunchOptions = {}): Promise<E2EBrowser> {
  return name === 'chromium' ? launchChromium(options) : launchFirefoxBrowser(options);
}
