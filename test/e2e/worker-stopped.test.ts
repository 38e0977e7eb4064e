import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './support/browsers';
import type { E2EPage } from './support/driver';
import { PopupPage } from './support/popup-page';
import { E2E_ACCOUNT, type E2EProduct, startProduct } from './support/product';

const POLL_ALARM = `poll-unread-count:${E2E_ACCOUNT}`;

/**
 * Chrome stops an extension's service worker whenever it likes, also in the middle of an
 * operation, even with a request of its own still out (Firefox's MV2 background page is
 * persistent, and an MV3 event page there would be unloaded the same way). Stopped that way, the extension must lose nothing it keeps (token, settings, status, badge, cached inbox),
 * wake at the next message with the truth, and never be left without a check scheduled.
 */
describe.each(BROWSERS.filter((name) => name === 'chromium'))(
  'the background stopped mid-operation, in %s',
  (browser) => {
    let product: E2EProduct;
    let page: E2EPage;

    beforeAll(async () => {
      product = await startProduct({ browser, backgroundIdleTimeoutMs: 2_000 });
      const popup = new PopupPage(await product.openPage('popup.html'));
      await popup.waitForRows();
      page = popup.page;
    });
    afterAll(() => product?.close());

    /** Stopped at once, as Chrome stops an idle worker. */
    async function stopWorker() {
      await product.browser.stopBackground();
      expect(await product.browser.backgroundRunning()).toBe(false);
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
        const { accounts, settings, connectionStatus, ...perAccount } = await chrome.storage.local.get(null);
        return { accounts, settings, connectionStatus, perAccount, badge: await chrome.action.getBadgeText({}) };
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
      const answer = ask('inbox.markRead', { account: E2E_ACCOUNT, ids: 'all' });
      await arrived;
      await stopWorker();
      expect(await answer).toMatchObject({ lost: expect.any(String) });
      await release();
      expect(await demo.inbox.count()).toBe(0);

      // Nothing is lost; only the count shows what the action leaves, none unread, as it did
      // while the request was out.
      const after = await kept();
      const statusKey = `connectionStatus:${E2E_ACCOUNT}`;
      const { [statusKey]: statusAfter, ...restAfter } = after.perAccount;
      const { [statusKey]: statusBefore, ...restBefore } = before.perAccount;
      expect({ ...after, perAccount: restAfter, connectionStatus: null, badge: null }).toEqual({
        ...before,
        perAccount: restBefore,
        connectionStatus: null,
        badge: null,
      });
      expect(after.badge).toBe('');
      expect(after.connectionStatus).toEqual({ ...(before.connectionStatus as object), count: 0 });
      expect(statusAfter).toEqual({ ...(statusBefore as object), count: 0 });
      const woken = await ask('status.refresh');
      expect(await product.browser.backgroundRunning()).toBe(true);
      expect(woken).toMatchObject({ res: { kind: 'ok', count: 0 } });
      await expect.poll(() => page.evaluate(() => chrome.action.getBadgeText({}))).toBe('');
      expect(await page.evaluate((name) => chrome.alarms.get(name), POLL_ALARM)).toBeDefined();
    });

    it('leaves the next check scheduled when stopped while a check waits for the service', async () => {
      const release = await holdService();
      const arrived = arrival('GET', '/api/inbox/count');
      const when = Date.now() + 50;
      await page.evaluate(({ name, when }) => chrome.alarms.create(name, { when }), { name: POLL_ALARM, when });
      await arrived;
      // The check that arrived may be one the worker started for another reason: stop it only once
      // the alarm has fired and the check it started has put the next one in place, or the alarm
      // wakes the stopped worker at once.
      await expect
        .poll(() =>
          page.evaluate((name) => chrome.alarms.get(name).then((alarm) => alarm?.scheduledTime ?? 0), POLL_ALARM),
        )
        .toBeGreaterThan(when);
      await stopWorker();
      const alarm = await page.evaluate((name) => chrome.alarms.get(name), POLL_ALARM);
      await release();
      expect(alarm?.scheduledTime).toBeGreaterThan(Date.now());
    });

    it('wakes for its alarm alone after being stopped, and the badge follows the service', async () => {
      await stopWorker();
      const newcomer = await product.service.newUser('latecomer');
      await newcomer.client.user('demo').follow();
      const unread = await product.service.client(product.demoToken).inbox.count();
      await page.evaluate((name) => chrome.alarms.create(name, { when: Date.now() + 50 }), POLL_ALARM);
      await expect
        .poll(() => page.evaluate(() => chrome.action.getBadgeText({})), { timeout: 10_000 })
        .toBe(String(unread));
    });
  },
);
