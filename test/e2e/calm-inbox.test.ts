/**
 * A calm inbox end to end: grouped rows, type chips and quiet hours, against the reference
 * service with the extension loaded in the browser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './support/browsers';
import { PopupPage } from './support/popup-page';
import { E2E_ACCOUNT, type E2EProduct, type Product, startProduct } from './support/product';

const POST = 'http://127.0.0.1:8787/@demo/posts/42';

describe.each(BROWSERS)('a calm inbox in %s', (browser) => {
  let product: E2EProduct;
  const demo = () => product.service.client(product.demoToken);

  beforeAll(async () => {
    product = await startProduct({ browser });
  });
  afterAll(() => product?.close());

  it('shows likes of one post as one row that expands, and marks them read as one', async () => {
    const ids: string[] = [];
    for (const actor of ['alice', 'bob', 'carol']) {
      const made = await product.service.deliver({
        username: 'demo',
        type: 'like',
        text: `${actor} liked it`,
        actor,
        url: POST,
      });
      ids.push(made.id);
    }
    const popup = new PopupPage(await product.openPage('popup.html'));
    await popup.waitForRows();
    const title = 'Carol Jensen, Bob Okafor and 1 other liked your post';
    await expect.poll(async () => (await popup.rowTexts())[0]).toBe(title);
    const group = popup.rows.first();
    expect(await group.getAttribute('class')).toContain('unread');
    expect(await group.innerText()).toContain('3 notifications');

    await group.getByRole('button', { name: 'Show each', exact: true }).click();
    await expect.poll(() => group.locator('.members li').count()).toBe(3);
    expect(await group.locator('.members .member-text').allTextContents()).toEqual([
      'carol liked it',
      'bob liked it',
      'alice liked it',
    ]);

    await group.getByRole('button', { name: 'Mark read', exact: true }).click();
    const readOnService = async () => {
      const { data } = await demo().inbox.fetch({ limit: 10, types: ['like'] });
      return ids.map((id) => data.find((item) => item.id === id)?.read);
    };
    await expect.poll(readOnService).toEqual([true, true, true]);
    expect(await group.getAttribute('class')).not.toContain('unread');
    await popup.page.close();
  });

  it('filters the list with a chip whose count is the service’s', async () => {
    await product.service.deliver({
      username: 'demo',
      type: 'mention',
      text: 'bob mentioned you here',
      actor: 'bob',
      url: `${POST}#m`,
    });
    const popup = new PopupPage(await product.openPage('popup.html'));
    await popup.waitForRows();
    const { mention } = await demo().inbox.countByType();
    expect(mention).toBeGreaterThan(0);
    const chip = popup.page.getByRole('button', { name: `Mentions ${mention} unread`, exact: true });
    await chip.waitFor({ timeout: 10_000 });
    await chip.click();
    expect(await chip.getAttribute('aria-pressed')).toBe('true');
    const { data } = await demo().inbox.fetch({ limit: 25, types: ['mention'] });
    // Every row a mention, the newest first, and as many notifications as the service's page
    // (neighbouring mentions by one person about one thing share a row).
    const shown = (page: PopupPage) =>
      page.feed.evaluate((feed) =>
        [...feed.querySelectorAll<HTMLElement>('article')].map((row) => ({
          type: row.querySelector('.type')?.textContent,
          size: Number(row.dataset.groupSize ?? 1),
        })),
      );
    const expectMentions = async (page: PopupPage) => {
      await expect.poll(async () => (await page.rowTexts())[0]).toBe(data[0]?.text);
      const rows = await shown(page);
      expect(new Set(rows.map((row) => row.type))).toEqual(new Set(['Mention']));
      expect(rows.reduce((sum, row) => sum + row.size, 0)).toBe(data.length);
    };
    await expectMentions(popup);
    // The choice is remembered: the next popup opens on it.
    await popup.page.close();
    const again = new PopupPage(await product.openPage('popup.html'));
    await again.waitForRows();
    await expectMentions(again);
    await again.page.close();
  });
});

describe.runIf(BROWSERS.includes('chromium'))('quiet hours in chromium', () => {
  let product: Product;

  beforeAll(async () => {
    product = await startProduct({ browser: 'chromium' });
  });
  afterAll(() => product?.close());

  /** The wall-clock time `minutes` from now on this computer, which is the browser's. */
  const wallClock = (from: number, minutes: number) => {
    const at = new Date(from + minutes * 60_000);
    return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  };

  it('raise no alert for a mention during them, keep the badge live, and give the digest when their alarm fires', async () => {
    const { worker } = product;
    interface NotifierState {
      newest: unknown;
    }
    interface DigestState {
      held: Record<string, number> | null;
      shown: Record<string, unknown>;
    }
    const state = () =>
      worker.evaluate(
        async (key) => (await chrome.storage.local.get(key))[key] as NotifierState | undefined,
        `desktopNotifications:${E2E_ACCOUNT}`,
      );
    const digest = () =>
      worker.evaluate(async () => (await chrome.storage.local.get('quietHoursDigest')).quietHoursDigest as DigestState);
    const now = Date.now();
    const end = Math.floor(now / 60_000) * 60_000 + 60 * 60_000;
    const quietHours = {
      enabled: true,
      days: [0, 1, 2, 3, 4, 5, 6],
      start: wallClock(now, -60),
      end: wallClock(now, 60),
    };
    await worker.evaluate(async (quiet) => {
      const { settings } = await chrome.storage.local.get('settings');
      await chrome.storage.local.set({
        settings: { ...(settings as object), desktopNotifications: true, quietHours: quiet },
      });
    }, quietHours);
    // Turned on, alerts first note what is already there, which they never announce.
    await expect.poll(async () => (await state())?.newest, { timeout: 10_000 }).toBeTruthy();
    const before = Number((await product.badgeText()) || 0);

    await product.service.deliver({
      username: 'demo',
      type: 'mention',
      text: 'alice mentioned you quietly',
      actor: 'alice',
      url: POST,
    });
    await product.pollNow();
    await expect.poll(() => product.badgeText(), { timeout: 10_000 }).toBe(String(before + 1));
    await expect.poll(async () => (await digest())?.held?.mention, { timeout: 10_000 }).toBe(1);
    expect(await worker.evaluate(() => chrome.notifications.getAll())).toEqual({});
    const alarm = await worker.evaluate(() => chrome.alarms.get('quiet-hours-end'));
    expect(alarm?.scheduledTime).toBe(end);

    // The quiet hours end: their alarm fires (now, rather than in an hour).
    await worker.evaluate(() => chrome.alarms.create('quiet-hours-end', { when: Date.now() + 100 }));
    await expect
      .poll(async () => Object.keys(await worker.evaluate(() => chrome.notifications.getAll())), { timeout: 10_000 })
      .toEqual([expect.stringMatching(/^digest-/)]);
    const after = await digest();
    expect(after.held).toBeNull();
    expect(Object.values(after.shown)).toEqual([['mention']]);
  });
});
