/**
 * The whole product for an end-to-end test: the reference service with demo data on a free
 * port and a fresh in-memory database, and Chromium with the built extension loaded and
 * pointed at it.
 */
import type { Socket } from 'node:net';
import type { Page, Worker } from 'playwright-core';
import {
  type ExtensionBrowser,
  findChromium,
  type LaunchOptions,
  launchWithExtension,
} from '../../../scripts/chromium';
import { startTestService, type TestService } from '../../support/service';

/** The end-to-end suites run where there is a Chromium; in CI a missing one fails the setup. */
export const hasChromium = findChromium() !== null;

export interface Product {
  service: TestService;
  browser: ExtensionBrowser;
  worker: Worker;
  demoToken: string;
  /** One line per request the service answered: `METHOD /path STATUS …`. */
  requests: string[];
  /** The extension's settings and token as the options page would store them. */
  signIn(token?: string): Promise<void>;
  signOut(): Promise<void>;
  /** Fires the poll alarm now instead of waiting for it, and waits until the badge changes or settles. */
  pollNow(): Promise<string>;
  badgeText(): Promise<string>;
  badgeTitle(): Promise<string>;
  openPage(path: string): Promise<Page>;
  /**
   * Stops the service as an outage does: no new connections, and every open one cut, the live
   * channel's upgraded socket included (the HTTP server no longer counts that one as its own).
   */
  stopService(): Promise<void>;
  close(): Promise<void>;
}

export async function startProduct(options: LaunchOptions & { signedIn?: boolean } = {}): Promise<Product> {
  const requests: string[] = [];
  const service = await startTestService({ seed: true, pollIntervalSeconds: 30, log: (line) => requests.push(line) });
  const sockets = new Set<Socket>();
  service.server.httpServer.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const browser = await launchWithExtension(options);
  const { worker } = browser;
  const demoToken = await service.tokenFor('demo');

  const badgeText = () => worker.evaluate(() => chrome.action.getBadgeText({}));
  const badgeTitle = () => worker.evaluate(() => chrome.action.getTitle({}));

  const readStatus = () =>
    worker.evaluate(async () =>
      JSON.stringify((await chrome.storage.local.get('connectionStatus')).connectionStatus ?? null),
    );

  async function pollNow(): Promise<string> {
    const before = await readStatus();
    await worker.evaluate(() => chrome.alarms.create('poll-unread-count', { when: Date.now() + 50 }));
    // Every check writes a new status (its time, or when the next one is due); wait for it.
    const deadline = Date.now() + 8_000;
    while (Date.now() < deadline && (await readStatus()) === before) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return badgeText();
  }

  async function signIn(token = demoToken) {
    const settings = {
      apiBaseUrl: service.apiBaseUrl,
      siteOrigin: service.origin,
      profilePath: '/@:username',
      profileAnchor: '[data-profile-actions]',
      pollIntervalSeconds: 60,
      desktopNotifications: false,
      unreadOnly: false,
    };
    await worker.evaluate(
      async ({ settings, token, apiOrigin }) => {
        await chrome.storage.local.set({ token: { token, apiOrigin } });
        await chrome.storage.local.set({ settings });
      },
      { settings, token, apiOrigin: new URL(service.apiBaseUrl).origin },
    );
  }

  const product: Product = {
    service,
    browser,
    worker,
    demoToken,
    requests,
    signIn,
    async signOut() {
      await worker.evaluate(() => chrome.storage.local.remove('token'));
    },
    pollNow,
    badgeText,
    badgeTitle,
    async openPage(path) {
      const page = await browser.context.newPage();
      await page.goto(path.startsWith('http') || path.startsWith('chrome-extension') ? path : browser.pageUrl(path));
      return page;
    },
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
