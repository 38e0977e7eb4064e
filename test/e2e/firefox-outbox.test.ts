/**
 * The outbox in Firefox ESR: triage done while the service is really down (its listener closed)
 * is kept, shown as waiting, survives the extension reloading (`runtime.reload()`, as an update
 * does: a test's temporary add-on does not survive closing Firefox, so this stands for a restart),
 * and reaches the service exactly once when it listens again on the same port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, type FirefoxBrowser } from './support/browsers';
import { backgroundMark, markBackground } from './support/firefox-background';
import { received, restartService, waitingChanges } from './support/offline';
import { PopupPage } from './support/popup-page';
import { type E2EProduct, startProduct } from './support/product';
import { waitUntil } from './support/wait';

describe.runIf(BROWSERS.includes('firefox'))('the outbox across an outage, in Firefox', () => {
  let product: E2EProduct;

  beforeAll(async () => {
    product = await startProduct({ browser: 'firefox' });
    // One row per notification, so each row can say it is waiting.
    await product.worker.evaluate(async () => {
      const { settings } = (await chrome.storage.sync.get('settings')) as { settings?: object };
      await chrome.storage.sync.set({ settings: { ...settings, groupNotifications: false } });
    });
  });
  afterAll(() => product?.close());

  it('keeps two changes through a reload of the extension, and sends each once', async () => {
    const demo = product.service.client(product.demoToken);
    const unreadBefore = await demo.inbox.count();
    const popup = new PopupPage(await product.openPage('popup.html'));
    await popup.rows.first().waitFor();

    await product.stopService();
    const marked: string[] = [];
    for (let n = 0; n < 2; n++) {
      const row = popup.page.locator('article.item.unread').first();
      marked.push((await row.getAttribute('data-id')) ?? '');
      await row.getByRole('button', { name: 'Mark read' }).click();
      const waiting = popup.page.locator(`article[data-id="${marked[n]}"]`);
      await waitUntil('the row to say it is waiting', 10_000, async () =>
        ((await waiting.textContent()) ?? '').includes('Waiting to send'),
      );
    }
    await waitUntil('the line that counts what waits', 10_000, async () =>
      ((await popup.page.locator('.outbox').textContent()) ?? '').includes(
        '2 changes will be sent when the service is back',
      ),
    );
    // Nothing the person did is shown as failed.
    expect(((await popup.page.locator('.failure').textContent()) ?? '').trim()).toBe('');
    // Out of reach, the badge says so; its tooltip's last known count has the changes applied.
    await expect
      .poll(() => product.badgeTitle(), { timeout: 5_000 })
      .toContain(`Last known: ${unreadBefore - 2} unread`);

    const mark = await markBackground(product.worker);
    await (product.browser as FirefoxBrowser).reloadExtension();
    expect(await backgroundMark(product.worker)).not.toBe(mark);
    expect((await waitingChanges(product.worker)).map((change) => change.ids)).toEqual(marked.map((id) => [id]));

    await restartService(product);
    await product.pollNow();
    await waitUntil('the outbox to be sent', 20_000, async () => (await waitingChanges(product.worker)).length === 0);
    expect(received(product, 'POST', '/api/inbox/read')).toHaveLength(2);
    expect(await demo.inbox.count()).toBe(unreadBefore - 2);

    const reopened = new PopupPage(await product.openPage('popup.html'));
    await reopened.rows.first().waitFor();
    expect(await reopened.page.locator('.outbox').count()).toBe(0);
    expect(((await reopened.feed.textContent()) ?? '').includes('Waiting to send')).toBe(false);
  });
});
