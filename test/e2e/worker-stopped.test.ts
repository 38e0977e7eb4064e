import type { IncomingMessage } from 'node:http';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PopupPage } from './support/popup-page';
import { hasChromium, type Product, startProduct } from './support/product';

/**
 * Chrome stops an extension's service worker whenever it likes, also in the middle of an
 * operation. Stopped that way, the extension must lose nothing it keeps (token, settings,
 * status, badge, cached inbox), wake at the next message with the truth, and never be left
 * without a check scheduled.
 */
describe.runIf(hasChromium)('the service worker stopped mid-operation, in Chromium', () => {
  let product: Product;
  let page: Page;
  let cdp: CDPSession;
  let running = 'running';

  beforeAll(async () => {
    product = await startProduct();
    const popup = new PopupPage(await product.openPage('popup.html'));
    await popup.waitForRows();
    page = popup.page;
    cdp = await product.browser.context.newCDPSession(page);
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      const worker = versions.find((version) => version.scriptURL.endsWith('/background.js'));
      if (worker) running = worker.runningStatus;
    });
    await cdp.send('ServiceWorker.enable');
  });
  afterAll(() => product?.close());

  async function stopWorker() {
    await cdp.send('ServiceWorker.stopAllWorkers');
    await expect.poll(() => running).toBe('stopped');
  }

  /** Holds every query of the service until `release` is called, as a very slow database would. */
  async function holdService() {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = () => {};
    const holding = new Promise<void>((resolve) => {
      held = resolve;
    });
    const done = product.service.server.database.transaction(async () => {
      held();
      await released;
    });
    await holding;
    return async () => {
      release();
      await done;
    };
  }

  const arrival = (method: string, path: string) =>
    new Promise<void>((resolve) => {
      const listener = (request: IncomingMessage) => {
        if (request.method !== method || !request.url?.startsWith(path)) return;
        product.service.server.httpServer.off('request', listener);
        resolve();
      };
      product.service.server.httpServer.on('request', listener);
    });

  const kept = () =>
    page.evaluate(async () => {
      const { token, settings, connectionStatus, inboxCache } = await chrome.storage.local.get(null);
      return { token, settings, connectionStatus, inboxCache, badge: await chrome.action.getBadgeText({}) };
    });

  const ask = (type: string, data?: unknown) =>
    page.evaluate(
      ({ type, data }) =>
        chrome.runtime.sendMessage({ id: 1, type, data, timestamp: Date.now() }).then(
          (answer) => answer as { res?: unknown; err?: unknown },
          (error: Error) => ({ lost: error.message }),
        ),
      { type, data },
    );

  it('keeps everything when stopped during mark-all-read, and wakes at the next message with the true count', async () => {
    const demo = product.service.client(product.demoToken);
    const unread = await demo.inbox.count();
    expect(unread).toBeGreaterThan(0);
    const before = await kept();
    expect(before.badge).toBe(String(unread));

    const release = await holdService();
    const arrived = arrival('POST', '/api/inbox/read');
    const answer = ask('inbox.markRead', { ids: 'all' });
    await arrived;
    await stopWorker();
    expect(await answer).toMatchObject({ lost: expect.any(String) });
    await release();
    expect(await demo.inbox.count()).toBe(0);

    expect(await kept()).toEqual(before);
    const woken = await ask('status.refresh');
    expect(running).toBe('running');
    expect(woken).toMatchObject({ res: { kind: 'ok', count: 0 } });
    await expect.poll(() => page.evaluate(() => chrome.action.getBadgeText({}))).toBe('');
    expect(await page.evaluate(() => chrome.alarms.get('poll-unread-count'))).toBeDefined();
  });

  it('leaves the next check scheduled when stopped while a check waits for the service', async () => {
    const release = await holdService();
    const arrived = arrival('GET', '/api/inbox/count');
    await page.evaluate(() => chrome.alarms.create('poll-unread-count', { when: Date.now() + 50 }));
    await arrived;
    await stopWorker();
    const alarm = await page.evaluate(() => chrome.alarms.get('poll-unread-count'));
    await release();
    expect(alarm?.scheduledTime).toBeGreaterThan(Date.now());
  });
});
