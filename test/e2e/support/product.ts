/**
 * The whole product for an end-to-end test: the reference service with demo data on a free
 * port and a fresh in-memory database, and a browser (Chromium unless `browser` says otherwise)
 * with the extension installed and pointed at it.
 */
import type { Socket } from 'node:net';
import type { Page, Worker } from 'playwright-core';
import { findChromium } from '../../../scripts/chromium';
import { startTestService, type TestService } from '../../support/service';
import { type BrowserName, type ChromiumBrowser, launchBrowser } from './browsers';
import type { E2EBrowser, E2EPage, ExtensionContext, LaunchOptions } from './driver';
import { OptionsPage } from './options-page';
import { waitUntil } from './wait';

/** The end-to-end suites run where there is a Chromium; in CI a missing one fails the setup. */
export const hasChromium = findChromium() !== null;

export interface ProductOptions extends LaunchOptions {
  signedIn?: boolean;
  browser?: BrowserName;
}

export interface E2EProduct {
  service: TestService;
  browser: E2EBrowser;
  /** Where tests use the extension's APIs (`chrome.*`): Chromium's service worker, a Firefox extension tab. */
  worker: ExtensionContext;
  demoToken: string;
  /** One line per request the service answered: `METHOD /path STATUS …`. */
  requests: string[];
  /**
   * Grants the extension the loopback origins the way a person does: Firefox loads the store
   * build, so its options page is filled in and Save clicked; Chromium's e2e build holds them.
   */
  grantHostAccess(): Promise<void>;
  /** The extension's settings and token as the options page would store them. */
  signIn(token?: string): Promise<void>;
  /** Forgets the token where the background keeps it, as losing it would. */
  signOut(): Promise<void>;
  /** The token the background holds (IndexedDB of the extension's origin), or null. */
  storedToken(): Promise<string | null>;
  /** Fires the poll alarm now instead of waiting for it, and waits until the badge changes or settles. */
  pollNow(): Promise<string>;
  badgeText(): Promise<string>;
  badgeTitle(): Promise<string>;
  openPage(path: string): Promise<E2EPage>;
  /**
   * Stops the service as an outage does: no new connections, and every open one cut, the live
   * channel's upgraded socket included (the HTTP server no longer counts that one as its own).
   */
  stopService(): Promise<void>;
  close(): Promise<void>;
}

/** The id of the account `signInTo` stores. */
export const E2E_ACCOUNT = 'e2e-account';

/**
 * Reads, writes or deletes an account's token in the background's own store
 * (`lib/background/account-store.ts`: IndexedDB `inbox-companion`, object store `secrets`), run
 * inside the extension's origin. The store is made as the background makes it, should it not be
 * there yet.
 */
const SECRETS = ({ action, key, value }: { action: 'get' | 'put' | 'delete'; key: string; value?: unknown }) =>
  new Promise<unknown>((resolve, reject) => {
    const opening = indexedDB.open('inbox-companion');
    opening.onupgradeneeded = () => opening.result.createObjectStore('secrets');
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const db = opening.result;
      const store = db.transaction('secrets', 'readwrite').objectStore('secrets');
      const request = action === 'get' ? store.get(key) : action === 'put' ? store.put(value, key) : store.delete(key);
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        db.close();
        resolve(request.result);
      };
    };
  });

/** The product in Chromium, with Playwright's own objects for what only Chromium can do. */
export interface Product extends E2EProduct {
  browser: ChromiumBrowser;
  worker: Worker;
  openPage(path: string): Promise<Page>;
}

/**
 * Stores what the options page stores for a person signed in to `service` with `token`: one
 * account with the service's addresses (id `E2E_ACCOUNT`), its token where the background keeps
 * it, and the settings (a check every minute, no desktop notifications). Storing the account
 * makes the background check the count at once (and, where it can, open the live channel).
 * Firefox must hold the loopback origins first (`E2EProduct.grantHostAccess`).
 */
export async function signInTo(
  extension: ExtensionContext,
  service: Pick<TestService, 'apiBaseUrl' | 'origin'>,
  token: string,
): Promise<void> {
  const settings = { pollIntervalSeconds: 60, desktopNotifications: false, unreadOnly: false };
  const account = {
    id: E2E_ACCOUNT,
    apiBaseUrl: service.apiBaseUrl,
    siteOrigin: service.origin,
    profilePath: '/@:username',
    profileAnchor: '[data-profile-actions]',
    username: 'demo',
    displayName: null,
    avatarUrl: null,
  };
  // On its first start the background sets up its accounts (from the previous version's settings):
  // the account is written once it has, so that the two writes cannot cross.
  await waitUntil('the background to set up its accounts', 10_000, () =>
    extension.evaluate(async () => (await chrome.storage.local.get('accounts')).accounts !== undefined),
  );
  const key = `token:${E2E_ACCOUNT}`;
  await extension.evaluate(SECRETS, {
    action: 'put',
    key,
    value: { token, apiOrigin: new URL(service.apiBaseUrl).origin },
  });
  await extension.evaluate(
    async ({ settings, account }) => {
      await chrome.storage.local.set({ settings, accounts: [account] });
    },
    { settings, account },
  );
}

export function startProduct(options?: ProductOptions & { browser?: 'chromium' }): Promise<Product>;
export function startProduct(options: ProductOptions): Promise<E2EProduct>;
export async function startProduct(options: ProductOptions = {}): Promise<E2EProduct> {
  const requests: string[] = [];
  // The browser needs nothing of the service until signing in, so the two start side by side;
  // should either fail, the other is closed again.
  const [started, launched] = await Promise.allSettled([
    startTestService({ seed: true, pollIntervalSeconds: 30, log: (line) => requests.push(line) }),
    launchBrowser(options.browser ?? 'chromium', options),
  ]);
  if (started.status === 'rejected' || launched.status === 'rejected') {
    if (started.status === 'fulfilled') await started.value.close();
    if (launched.status === 'fulfilled') await launched.value.close().catch(() => undefined);
    throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
  }
  const service = started.value;
  const browser = launched.value;
  const sockets = new Set<Socket>();
  service.server.httpServer.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const worker = browser.extension;
  const demoToken = await service.tokenFor('demo');

  const badgeText = () => worker.evaluate(() => (chrome.action ?? chrome.browserAction).getBadgeText({}));
  const badgeTitle = () => worker.evaluate(() => (chrome.action ?? chrome.browserAction).getTitle({}));

  const readStatus = () =>
    worker.evaluate(async () =>
      JSON.stringify((await chrome.storage.local.get('connectionStatus')).connectionStatus ?? null),
    );

  async function pollNow(): Promise<string> {
    const before = await readStatus();
    await worker.evaluate(
      (name) => chrome.alarms.create(name, { when: Date.now() + 50 }),
      `poll-unread-count:${E2E_ACCOUNT}`,
    );
    // Every check writes a new status (its time, or when the next one is due); wait for it.
    const deadline = Date.now() + 8_000;
    while (Date.now() < deadline && (await readStatus()) === before) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return badgeText();
  }

  let granted = browser.name === 'chromium';
  async function grantHostAccess() {
    if (granted) return;
    // Testing the connection asks for the API's origin, which is the site's host too here.
    const options = new OptionsPage(await browser.newPage(browser.pageUrl('options.html')));
    await options.button('Add account').click();
    await options.page.getByText('Use a token instead').click();
    await options.fill({ apiBaseUrl: service.apiBaseUrl, token: demoToken });
    await options.button('Test connection').click();
    await options.waitForNotice('Connected.');
    await options.page.close();
    granted = true;
  }

  async function signIn(token = demoToken) {
    await grantHostAccess();
    await signInTo(worker, service, token);
  }

  const product: E2EProduct = {
    service,
    browser,
    worker,
    demoToken,
    requests,
    grantHostAccess,
    signIn,
    async signOut() {
      await worker.evaluate(SECRETS, { action: 'delete', key: `token:${E2E_ACCOUNT}` });
    },
    async storedToken() {
      const stored = (await worker.evaluate(SECRETS, { action: 'get', key: `token:${E2E_ACCOUNT}` })) as
        | { token?: string }
        | undefined;
      return stored?.token ?? null;
    },
    pollNow,
    badgeText,
    badgeTitle,
    openPage: (path) =>
      browser.newPage(/^(https?|chrome-extension|moz-extension):/.test(path) ? path : browser.pageUrl(path)),
    async stopService() {
      const closed = new Promise<void>((resolve) => service.server.httpServer.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    async close() {
      await browser.close().catch(() => undefined);
      await service.close();
    },
  };
  if (options.signedIn ?? true) {
    await signIn();
    await pollNow();
  }
  return product;
}
