/**
 * The Edge package in Chromium, once: Edge runs Chrome's build unchanged, and WXT's Edge target
 * writes the same manifest and code today. Should the two ever part (a manifest key or a branch
 * on `import.meta.env.EDGE`), the badge, the popup and the in-page buttons show it here. Edge
 * itself is not on the machines the tests run on; its engine is Chromium's.
 *
 * The build is made here, not in the suite's global setup, so that only this file waits for it.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildQuietly } from '../../scripts/build';
import { PopupPage } from './support/popup-page';
import { hasChromium, type Product, startProduct } from './support/product';
import { ProfilePage } from './support/profile-page';

/** The Edge build for the end-to-end tests: mode `e2e`, holding the loopback origins as the Chrome one does. */
const EDGE_E2E_EXTENSION_DIR = resolve('.output/edge-mv3-e2e');

describe.runIf(hasChromium)('the Edge build in Chromium', () => {
  let product: Product;

  beforeAll(async () => {
    await buildQuietly({ mode: 'e2e', browser: 'edge' });
    product = await startProduct({ extensionDir: EDGE_E2E_EXTENSION_DIR });
  });
  afterAll(() => product?.close());

  const demo = () => product.service.client(product.demoToken);

  it('shows the unread count on the badge, triages in the popup, and follows from a profile page', async () => {
    expect(product.browser.context.serviceWorkers()[0]?.url()).toContain(product.browser.extensionId);
    const unread = await demo().inbox.count();
    expect(await product.badgeText()).toBe(String(unread));

    const popup = new PopupPage(await product.openPage('popup.html'));
    await popup.waitForRows();
    const first = popup.rows.first();
    const id = await first.getAttribute('data-id');
    await first.getByRole('button', { name: 'Mark read' }).click();
    await expect.poll(() => product.badgeText()).toBe(String(unread - 1));
    const { data } = await demo().inbox.fetch({ limit: 100 });
    expect(data.find((notification) => notification.id === id)?.read).toBe(true);
    await popup.page.close();

    const { username } = await product.service.newUser('edge');
    const profile = new ProfilePage(await product.openPage(`${product.service.origin}/@${username}`));
    await profile.waitForControls();
    await profile.button('Follow').click();
    await profile.button('Unfollow').waitFor();
    expect((await demo().user(username).get()).following).toBe(true);
    await profile.page.close();
  });
});
