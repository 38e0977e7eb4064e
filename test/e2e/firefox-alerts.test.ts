/**
 * Desktop alerts in Firefox ESR: turned on with a real click on the options page (which grants the
 * notifications permission), an operator call arriving over the live channel raises an alert,
 * and clicking it, as a person clicks the alert window, opens the notification in a tab and marks
 * it read (the setting is on), so the badge drops.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, type FirefoxBrowser } from './support/browsers';
import { OptionsPage } from './support/options-page';
import { E2E_ACCOUNT, type E2EProduct, startProduct } from './support/product';

describe.runIf(BROWSERS.includes('firefox'))('desktop alerts in Firefox', () => {
  let product: E2EProduct;
  let alerts: FirefoxBrowser['alerts'];

  beforeAll(async () => {
    product = await startProduct({ browser: 'firefox' });
    alerts = (product.browser as FirefoxBrowser).alerts;
  });
  afterAll(() => product?.close());

  it('opens the notification when its alert is clicked, and marks it read', async () => {
    const { service, worker } = product;
    const options = new OptionsPage(await product.openPage('options.html'));
    await options.field('Show a desktop notification when new notifications arrive').check();
    await options.button('Save').click();
    await options.waitForNotice('Saved.');
    const markReadOnOpen = options.field('Mark a notification read when opening it from the popup');
    expect(await markReadOnOpen.evaluate((element) => (element as HTMLInputElement).checked)).toBe(true);
    // Turned on, alerts first note what is already there, which they never announce.
    await expect
      .poll(
        () =>
          worker.evaluate(
            async (key) => ((await chrome.storage.local.get(key))[key] as { newest?: unknown } | undefined)?.newest,
            `desktopNotifications:${E2E_ACCOUNT}`,
          ),
        { timeout: 10_000 },
      )
      .toBeTruthy();
    await expect.poll(() => product.badgeTitle(), { timeout: 10_000 }).toContain('Live:');

    const client = service.client(product.demoToken);
    const before = await client.inbox.count();
    const url = `${service.origin}/@alice`;
    await service.deliver({
      username: 'demo',
      type: 'mention',
      text: 'alice mentioned you in Firefox',
      actor: 'alice',
      url,
    });
    await expect.poll(() => product.badgeText(), { timeout: 5_000 }).toBe(String(before + 1));

    const opened = product.browser.nextPage();
    await alerts.click('alice mentioned you in Firefox');
    const tab = await opened;
    expect(await tab.url()).toBe(url);
    await expect.poll(() => client.inbox.count(), { timeout: 10_000 }).toBe(before);
    await expect.poll(() => product.badgeText(), { timeout: 5_000 }).toBe(String(before));
    expect(await alerts.shown()).not.toContainEqual(expect.stringContaining('alice mentioned you in Firefox'));
  });
});
