import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './support/browsers';
import { PopupPage } from './support/popup-page';
import { type E2EProduct, startProduct } from './support/product';

describe.each(BROWSERS)('snooze in %s', (browser) => {
  let product: E2EProduct;
  let popup: PopupPage;

  const demo = () => product.service.client(product.demoToken);
  const snoozedOnService = async () => (await demo().inbox.fetch({ snoozed: true })).data.map((n) => n.text);

  beforeAll(async () => {
    product = await startProduct({ browser });
    popup = new PopupPage(await product.openPage('popup.html'));
    await popup.waitForRows();
  });
  afterAll(() => product?.close());

  it('a snoozed row leaves the list and the badge, shows in Snoozed, and comes back with Unsnooze', async () => {
    const unread = await demo().inbox.count();
    await expect.poll(() => product.badgeText()).toBe(String(unread));
    let index = 0;
    while (!(await popup.rows.nth(index).evaluate((row) => row.classList.contains('unread')))) index++;
    const row = popup.rows.nth(index);
    const text = (await row.locator('.text').textContent()) ?? '';

    await row.getByRole('button', { name: 'Snooze' }).click();
    await popup.page.getByRole('menu', { name: 'Snooze until' }).waitFor();
    await popup.page.locator('[role="menuitem"][data-preset="tomorrowMorning"]').click();

    await expect.poll(() => popup.rowTexts()).not.toContain(text);
    await expect.poll(() => popup.toast.innerText()).toMatch(/Snoozed 1 notification until /);
    await expect.poll(() => product.badgeText()).toBe(String(unread - 1));
    expect(await demo().inbox.count()).toBe(unread - 1);
    expect(await snoozedOnService()).toEqual([text]);

    await popup.page.getByRole('tab', { name: 'Snoozed' }).click();
    const list = popup.page.getByRole('list', { name: 'Snoozed notifications' });
    await list.waitFor();
    const snoozed = list.getByRole('listitem');
    expect(await snoozed.count()).toBe(1);
    expect(await snoozed.first().locator('.text').textContent()).toBe(text);
    expect(await snoozed.first().locator('.wakes').textContent()).toMatch(/^until /);

    await snoozed.first().getByRole('button', { name: 'Unsnooze' }).click();
    await popup.heading('Nothing snoozed').waitFor();
    await expect.poll(() => product.badgeText()).toBe(String(unread));
    expect(await snoozedOnService()).toEqual([]);

    await popup.page.getByRole('tab', { name: 'Inbox' }).click();
    await expect.poll(async () => (await popup.rowTexts())[0]).toBe(text);
  });
});
