import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './support/browsers';
import { PopupPage } from './support/popup-page';
import { type E2EProduct, startProduct } from './support/product';

describe.each(BROWSERS)('undo in %s', (browser) => {
  let product: E2EProduct;
  let popup: PopupPage;

  const demo = () => product.service.client(product.demoToken);
  /** The whole inbox on the service, as id and read state, newest first. */
  const serviceInbox = async () => {
    const seen: [string, boolean][] = [];
    for await (const n of demo().inbox.items({ limit: 100 })) seen.push([n.id, n.read]);
    return seen;
  };

  beforeAll(async () => {
    product = await startProduct({ browser });
    popup = new PopupPage(await product.openPage('popup.html'));
    await popup.waitForRows();
  });
  afterAll(() => product?.close());

  it('delete selected, then Undo: the rows and the service are as before', async () => {
    const rowsBefore = await popup.rowTexts();
    const inboxBefore = await serviceInbox();
    await popup.select(1);
    await popup.select(3);
    await popup.button('Delete selected').click();
    await expect.poll(async () => (await serviceInbox()).length).toBe(inboxBefore.length - 2);
    expect(await popup.rowTexts()).toEqual(rowsBefore.filter((_, i) => i !== 1 && i !== 3));
    await expect.poll(() => popup.toast.innerText()).toContain('2 notifications deleted.');

    await popup.toast.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => popup.rowTexts()).toEqual(rowsBefore);
    expect(await serviceInbox()).toEqual(inboxBefore);
    expect(await popup.toast.count()).toBe(0);
  });

  it('mark all read, then z: the badge and the service are as before', async () => {
    const unread = await demo().inbox.count();
    expect(unread).toBeGreaterThan(0);
    const inboxBefore = await serviceInbox();
    await expect.poll(() => product.badgeText()).toBe(String(unread));

    await popup.button('Mark all read').click();
    await expect.poll(() => product.badgeText()).toBe('');
    // The badge moves while the request is still on its way to the service.
    await expect.poll(() => demo().inbox.count()).toBe(0);
    await expect.poll(() => popup.toast.innerText()).toContain('All notifications marked read.');

    await popup.page.keyboard.press('z');
    await expect.poll(() => product.badgeText()).toBe(String(unread));
    await expect.poll(() => demo().inbox.count()).toBe(unread);
    expect(await serviceInbox()).toEqual(inboxBefore);
  });
});
