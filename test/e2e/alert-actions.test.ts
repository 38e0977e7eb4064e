/**
 * The "Mark read" button of a desktop alert in Chromium, with the e2e build (which holds the
 * notifications permission): alerts turned on in the options page, an operator call raises a real
 * alert with its buttons, and the button's click reaches the service worker's own listener as
 * Chrome reports it, through `notifications.onButtonClicked`. Headless Chromium draws no alert a
 * test could click, so the click is dispatched on that event inside the worker: the worker's
 * listeners run exactly as for a person's click.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './support/browsers';
import { OptionsPage } from './support/options-page';
import { PopupPage } from './support/popup-page';
import { E2E_ACCOUNT, type E2EProduct, startProduct } from './support/product';

interface Shown {
  shown: Record<string, { ids: string[]; buttons?: string[] }>;
  newest: unknown;
}

describe.runIf(BROWSERS.includes('chromium'))('buttons on desktop alerts in chromium', () => {
  let product: E2EProduct;

  beforeAll(async () => {
    product = await startProduct({ browser: 'chromium' });
  });
  afterAll(() => product?.close());

  const alertState = () =>
    product.worker.evaluate(
      async (key) => (await chrome.storage.local.get(key))[key] as Shown | undefined,
      `desktopNotifications:${E2E_ACCOUNT}`,
    );
  const alertsOnScreen = async () => Object.keys(await product.worker.evaluate(() => chrome.notifications.getAll()));

  it('“Mark read” marks the notification read, drops the badge at once, closes the alert, and the popup offers Undo', async () => {
    const { service, worker } = product;
    const options = new OptionsPage(await product.openPage('options.html'));
    await options.field('Show a desktop notification when new notifications arrive').check();
    await options.button('Save').click();
    await options.waitForNotice('Saved.');
    await options.page.close();
    // Turned on, alerts first note what is already there, which they never announce.
    await expect.poll(async () => (await alertState())?.newest, { timeout: 10_000 }).toBeTruthy();
    await expect.poll(() => product.badgeTitle(), { timeout: 10_000 }).toContain('Live:');

    const client = service.client(product.demoToken);
    const before = await client.inbox.count();
    const mention = await service.deliver({
      username: 'demo',
      type: 'mention',
      text: 'alice asked you to look at the alert',
      actor: 'alice',
      url: `${service.origin}/@alice`,
    });
    await expect.poll(() => product.badgeText(), { timeout: 5_000 }).toBe(String(before + 1));
    const id = `${E2E_ACCOUNT}/inbox-${mention.id}`;
    await expect.poll(alertsOnScreen, { timeout: 10_000 }).toEqual([id]);
    // Chrome took the alert with its buttons: the notifier keeps them only where the browser shows them.
    expect((await alertState())?.shown[id]).toEqual({
      url: mention.url,
      ids: [mention.id],
      buttons: ['markRead', 'snooze'],
    });

    const countChecks = () => product.requests.filter((line) => line.startsWith('GET /api/inbox/count')).length;
    const checks = countChecks();
    expect(await worker.evaluate(() => chrome.notifications.onButtonClicked.hasListeners())).toBe(true);
    await worker.evaluate((alert) => {
      const event = chrome.notifications.onButtonClicked as typeof chrome.notifications.onButtonClicked & {
        dispatch(notificationId: string, buttonIndex: number): void;
      };
      event.dispatch(alert, 0);
    }, id);

    // The badge follows the action itself, not a later check of the count.
    await expect.poll(() => product.badgeText(), { timeout: 5_000 }).toBe(String(before));
    expect(countChecks()).toBe(checks);
    expect(await client.inbox.count()).toBe(before);
    const [newest] = (await client.inbox.fetch({ limit: 1 })).data;
    expect(newest).toMatchObject({ id: mention.id, read: true });
    expect(await alertsOnScreen()).toEqual([]);
    expect((await alertState())?.shown).toEqual({});

    const popup = new PopupPage(await product.openPage('popup.html'));
    await expect.poll(() => popup.toast.innerText(), { timeout: 10_000 }).toContain('1 notification marked read.');
    await popup.toast.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => client.inbox.count(), { timeout: 10_000 }).toBe(before + 1);
    await expect.poll(() => product.badgeText(), { timeout: 5_000 }).toBe(String(before + 1));
  });
});
