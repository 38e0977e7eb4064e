import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, type ChromiumBrowser, launchBrowser } from './support/browsers';
import { received, restartService, waitingChanges } from './support/offline';
import { PopupPage } from './support/popup-page';
import { E2E_ACCOUNT, type Product, startProduct } from './support/product';
import { waitUntil } from './support/wait';

/**
 * Triage done while the service is really down (its listener closed) is kept, shown as waiting,
 * survives the service worker stopping and the browser restarting on the same profile, and
 * reaches the service exactly once when it listens again on the same port.
 */
describe.each(BROWSERS.filter((name) => name === 'chromium'))('the outbox across an outage, in %s', (browser) => {
  const profile = mkdtempSync(join(tmpdir(), 'outbox-profile-'));
  let product: Product;
  let again: ChromiumBrowser | null = null;

  beforeAll(async () => {
    product = await startProduct({ browser: 'chromium', userDataDir: profile });
    // One row per notification, so each row can say it is waiting.
    await product.worker.evaluate(async () => {
      const { settings } = (await chrome.storage.local.get('settings')) as { settings: object };
      await chrome.storage.local.set({ settings: { ...settings, groupNotifications: false } });
    });
  });
  afterAll(async () => {
    await again?.close();
    await product?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it(`keeps two changes through a worker stop and a browser restart, and sends each once (${browser})`, async () => {
    const demo = product.service.client(product.demoToken);
    const unreadBefore = await demo.inbox.count();
    const popup = new PopupPage(await product.openPage('popup.html'));
    await popup.waitForRows();

    await product.stopService();
    const unread = popup.page.locator('article.item.unread');
    const marked: string[] = [];
    for (let n = 0; n < 2; n++) {
      const row = unread.first();
      marked.push((await row.getAttribute('data-id')) ?? '');
      await row.getByRole('button', { name: 'Mark read' }).click();
      await popup.page.locator(`article[data-id="${marked[n]}"]`).getByText('Waiting to send').waitFor();
    }
    await popup.page.getByText('2 changes will be sent when the service is back').waitFor();
    // Nothing the person did is shown as failed.
    expect((await popup.page.locator('.failure').textContent())?.trim()).toBe('');
    const status = await product.worker.evaluate(
      async (key) => (await chrome.storage.local.get(key))[key] as { count: number | null },
      `connectionStatus:${E2E_ACCOUNT}`,
    );
    expect(status.count).toBe(unreadBefore - 2);

    await product.browser.stopBackground();
    // Read from the popup: the stopped worker answers nothing until something wakes it.
    expect((await waitingChanges(popup.page)).map((change) => change.ids)).toEqual(marked.map((id) => [id]));

    await product.browser.close();
    const restarted = await launchBrowser('chromium', { userDataDir: profile });
    again = restarted;
    expect(await waitingChanges(restarted.extension)).toHaveLength(2);

    await restartService(product);
    await restarted.extension.evaluate(
      (name) => chrome.alarms.create(name, { when: Date.now() + 50 }),
      `poll-unread-count:${E2E_ACCOUNT}`,
    );
    await waitUntil(
      'the outbox to be sent',
      20_000,
      async () => (await waitingChanges(restarted.extension)).length === 0,
    );
    expect(received(product, 'POST', '/api/inbox/read')).toHaveLength(2);
    expect(await demo.inbox.count()).toBe(unreadBefore - 2);

    const reopened = new PopupPage(await restarted.newPage(restarted.pageUrl('popup.html')));
    await reopened.waitForRows();
    expect(await reopened.page.locator('.outbox').count()).toBe(0);
    expect(await reopened.page.getByText('Waiting to send').count()).toBe(0);
  });
});
