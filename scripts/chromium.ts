/**
 * Finds the machine's Chromium and launches it with a built extension loaded. No browser is
 * ever downloaded: end-to-end tests, screenshots, benchmarks and `npm start` use the Chromium
 * the machine has (Debian's `chromium` package in CI).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Worker } from 'playwright-core';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** The build the end-to-end tests, screenshots and benchmarks load. */
export const E2E_EXTENSION_DIR = resolve('.output/chrome-mv3-e2e');

/**
 * Chromium's switches for a machine without the usual desktop services. The sandbox stays on,
 * except as root, where Chromium refuses to start with it.
 */
export function browserArgs(): string[] {
  return [
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-quic',
  ];
}

/** The same, loading an unpacked extension. */
export function extensionArgs(extensionDir: string): string[] {
  return [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`, ...browserArgs()];
}

/** The id Chromium gives an unpacked extension: from its folder's absolute path, as its digest in the letters a to p. */
export function unpackedExtensionId(extensionDir: string): string {
  const digest = createHash('sha256').update(resolve(extensionDir)).digest('hex').slice(0, 32);
  return [...digest].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join('');
}

/**
 * Pins the unpacked extension's toolbar button in a Chromium profile, before the browser starts
 * with it, so the badge is in sight rather than in the extensions menu. What else the profile's
 * preferences hold stays; preferences that cannot be read are left as they are.
 */
export function pinExtension(profileDir: string, extensionDir: string): void {
  const file = join(profileDir, 'Default', 'Preferences');
  let preferences: { extensions?: { pinned_extensions?: unknown } } = {};
  if (existsSync(file)) {
    try {
      preferences = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return;
    }
  }
  const id = unpackedExtensionId(extensionDir);
  const pinned = Array.isArray(preferences.extensions?.pinned_extensions)
    ? preferences.extensions.pinned_extensions
    : [];
  if (pinned.includes(id)) return;
  preferences.extensions = { ...preferences.extensions, pinned_extensions: [...pinned, id] };
  mkdirSync(join(profileDir, 'Default'), { recursive: true });
  writeFileSync(file, JSON.stringify(preferences));
}

export function findChromium(): string | null {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return existsSync(configured) ? configured : null;
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}

export const MISSING_CHROMIUM = [
  'No Chromium found: the end-to-end tests need one and never download a browser.',
  'Install it with `sudo apt-get install -y chromium fonts-liberation` (Debian/Ubuntu),',
  'or point CHROMIUM_PATH at a Chrome or Chromium binary.',
].join('\n');

export interface ExtensionBrowser {
  context: BrowserContext;
  worker: Worker;
  extensionId: string;
  /** The URL of one of the extension's pages, such as `popup.html`. */
  pageUrl(path: string): string;
  close(): Promise<void>;
}

export interface LaunchOptions {
  extensionDir?: string;
  colorScheme?: 'light' | 'dark';
  locale?: string;
  /** The profile folder, kept across launches (the browser restarting); a fresh one by default. */
  userDataDir?: string;
  /** Whether pages get a touch screen, as a phone's or a tablet's (taps in the end-to-end tests). */
  hasTouch?: boolean;
}

export async function launchWithExtension(options: LaunchOptions = {}): Promise<ExtensionBrowser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(MISSING_CHROMIUM);
  const context = await chromium.launchPersistentContext(options.userDataDir ?? '', {
    executablePath,
    headless: true,
    colorScheme: options.colorScheme ?? 'light',
    hasTouch: options.hasTouch ?? false,
    locale: options.locale ?? 'en-US',
    viewport: { width: 1000, height: 800 },
    args: [...extensionArgs(options.extensionDir ?? E2E_EXTENSION_DIR), `--lang=${options.locale ?? 'en-US'}`],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(worker.url()).host;
  return {
    context,
    worker,
    extensionId,
    pageUrl: (path) => `chrome-extension://${extensionId}/${path}`,
    close: () => context.close(),
  };
}

export interface BrowserToInstallInto {
  context: BrowserContext;
  /**
   * Installs an unpacked build into the running browser, as a person installing it does, through
   * DevTools' `Extensions.loadUnpacked`; resolves once its service worker runs. Installed again,
   * it is updated: its old worker stops, its session storage empties, a new worker starts.
   */
  install(extensionDir?: string): Promise<{ extensionId: string; worker: Worker }>;
  close(): Promise<void>;
}

/** Chromium with no extension yet, for what a person had open before installing it. */
export async function launchToInstallInto(): Promise<BrowserToInstallInto> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(MISSING_CHROMIUM);
  const context = await chromium.launchPersistentContext('', {
    executablePath,
    headless: true,
    // Playwright's own switch would keep every extension out.
    ignoreDefaultArgs: ['--disable-extensions'],
    viewport: { width: 1000, height: 800 },
    args: [...browserArgs(), '--enable-unsafe-extension-debugging'],
  });
  return {
    context,
    async install(extensionDir = E2E_EXTENSION_DIR) {
      const browser = context.browser();
      if (!browser) throw new Error('No browser to install into.');
      const started = context.waitForEvent('serviceworker', (worker) => worker.url().endsWith('/background.js'));
      const cdp = await browser.newBrowserCDPSession();
      const { id } = (await cdp.send('Extensions.loadUnpacked' as never, { path: extensionDir } as never)) as {
        id: string;
      };
      await cdp.detach();
      const worker = context.serviceWorkers().find((each) => new URL(each.url()).host === id) ?? (await started);
      return { extensionId: id, worker };
    },
    close: () => context.close(),
  };
}
