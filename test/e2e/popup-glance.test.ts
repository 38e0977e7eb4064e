/**
 * The popup at a glance: how many notifications of the demo inbox are wholly in view when it
 * opens, at the height Chrome gives a popup at most (600 px), in the compact list and in the
 * comfortable one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './support/browsers';
import { PopupPage } from './support/popup-page';
import { type E2EProduct, startProduct } from './support/product';

/** Chrome's largest popup: 800 × 600 px. The popup asks for 400 px of its width. */
const POPUP_HEIGHT = 600;

describe.each(BROWSERS)('the popup at a glance in %s', (browser) => {
  let product: E2EProduct;

  beforeAll(async () => {
    product = await startProduct({ browser });
  });
  afterAll(() => product?.close());

  /** Opens the popup and counts the rows wholly in view in its list before anything scrolls. */
  async function rowsInView(density: 'compact' | 'comfortable') {
    const popup = new PopupPage(await product.openPage('popup.html'));
    await popup.waitForRows();
    await popup.page.locator(`.popup.${density} [role="feed"][aria-busy="false"]`).waitFor();
    const seen = await popup.page.evaluate(() => {
      const popup = document.querySelector('.popup') as HTMLElement;
      const list = (document.querySelector('.scroller') as HTMLElement).getBoundingClientRect();
      const bottom = Math.min(list.bottom, innerHeight);
      const rows = [...document.querySelectorAll('[role="feed"] article')].filter((row) => {
        const box = row.getBoundingClientRect();
        return box.top >= list.top && box.bottom <= bottom + 0.5;
      });
      return {
        rows: rows.length,
        height: Math.round(popup.getBoundingClientRect().height),
        viewport: innerHeight,
        scrolled: (document.querySelector('.scroller') as HTMLElement).scrollTop,
      };
    });
    await popup.page.close();
    return seen;
  }

  it('shows at least seven notifications on opening in the compact list, and fewer in the comfortable one', async ({
    annotate,
  }) => {
    const compact = await rowsInView('compact');
    expect(compact.viewport).toBeGreaterThanOrEqual(POPUP_HEIGHT);
    expect(compact.height).toBe(POPUP_HEIGHT);
    expect(compact.scrolled).toBe(0);
    expect(compact.rows).toBeGreaterThanOrEqual(7);

    // Chosen on another computer, or on the options page: the popup opens in it next time.
    await product.worker.evaluate(() => chrome.storage.sync.set({ settings: { density: 'comfortable' } }));
    const comfortable = await rowsInView('comfortable');
    await product.worker.evaluate(() => chrome.storage.sync.remove('settings'));
    expect(comfortable.height).toBe(POPUP_HEIGHT);
    await annotate(
      `rows wholly in view at ${POPUP_HEIGHT} px in ${browser}: ${compact.rows} compact, ${comfortable.rows} comfortable`,
    );
    expect(comfortable.rows).toBeGreaterThanOrEqual(2);
    expect(comfortable.rows).toBeLessThan(compact.rows);
  });
});
