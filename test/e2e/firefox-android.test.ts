/**
 * The popup as Firefox for Android shows it, a page of the whole screen, and the in-page
 * buttons, used with a finger. Firefox ESR on the desktop stands in for the phone, with a
 * phone's screen and pointer (`phone` in `scripts/firefox.ts`): 360 × 640 CSS px, touch events,
 * and media queries that say the pointer is coarse and cannot hover. The popup's triage and a
 * follow are done by taps; every control is a target of at least 48 px, none waits for a hover,
 * and nothing scrolls sideways. What only the phone itself does (no badge, so the count in the
 * menu item's title) is unit-tested (`test/unit/background/status-writer.test.ts`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTED_MS } from '../../lib/profile/click-guard';
import { BROWSERS } from './support/browsers';
import type { E2ELocator, E2EPage } from './support/driver';
import { PopupPage } from './support/popup-page';
import { type E2EProduct, startProduct } from './support/product';
import { BUTTONS_FRAME, ProfilePage } from './support/profile-page';

/** Where a finger comes down on `locator`: its middle, or `at` px in from its top left corner. */
async function tap(page: E2EPage, locator: E2ELocator, at?: number): Promise<void> {
  const box = await locator.evaluate((element) => element.getBoundingClientRect().toJSON());
  await page.touchscreen.tap(box.x + (at ?? box.width / 2), box.y + (at ?? box.height / 2));
}

/**
 * The page's controls whose target is smaller than 48 × 48 px, with their sizes. A control's
 * target is its own box, its label's where a label holds it, and a row's whole box for the
 * row's link, which reaches over it.
 */
const SMALL_TARGETS = () => {
  const targetOf = (element: Element) => {
    const label = element.closest('label');
    if (label) return label.getBoundingClientRect();
    const row = element.closest('.item');
    if (row && element.matches('.text a') && getComputedStyle(element, '::after').position === 'absolute') {
      return row.getBoundingClientRect();
    }
    return element.getBoundingClientRect();
  };
  return [...document.querySelectorAll('button, a[href], input, select, summary, [role="tab"]')]
    .filter((element) => element.checkVisibility({ visibilityProperty: true }))
    .map((element) => ({
      name: element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40),
      box: targetOf(element),
    }))
    .filter(({ box }) => box.width < 48 || box.height < 48)
    .map(({ name, box }) => `${name}: ${Math.round(box.width)} × ${Math.round(box.height)}`);
};

describe.runIf(BROWSERS.includes('firefox'))('Firefox for Android: the popup and the in-page buttons by touch', () => {
  let product: E2EProduct;
  let popup: PopupPage;

  const demo = () => product.service.client(product.demoToken);

  beforeAll(async () => {
    product = await startProduct({ browser: 'firefox', phone: true });
    popup = new PopupPage(await product.openPage('popup.html'));
    await popup.waitForRows();
  });
  afterAll(() => product?.close());

  it('fills the screen’s width and no more, with every control a finger’s target, none waiting for a hover', async () => {
    const { page } = popup;
    expect(await page.evaluate(() => [innerWidth, matchMedia('(pointer: coarse) and (hover: none)').matches])).toEqual([
      360,
      true,
    ]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
    expect(await page.evaluate(SMALL_TARGETS)).toEqual([]);
    // Each row's actions show, whole, with no pointer over any row.
    const rows = await page.evaluate(() => {
      const all = [...document.querySelectorAll('article .actions')];
      const shown = all.filter(
        (actions) => actions.checkVisibility({ opacityProperty: true }) && getComputedStyle(actions).opacity === '1',
      );
      return { all: all.length, shown: shown.length };
    });
    expect(rows.all).toBeGreaterThan(0);
    expect(rows.shown).toBe(rows.all);
  });

  it('triages by taps: a row’s Mark read, then two rows selected and deleted, and Undo', async () => {
    const { page } = popup;
    const unread = Number(await product.badgeText());
    const first = popup.rows.first();
    const read = await first.getAttribute('data-id');
    await tap(page, first.getByRole('button', { name: 'Mark read' }));
    await expect.poll(() => product.badgeText(), { timeout: 10_000 }).toBe(String(unread - 1));
    expect((await demo().inbox.fetch({ limit: 100 })).data.find((each) => each.id === read)?.read).toBe(true);

    // Each checkbox by its target's corner, away from the box drawn in its middle.
    const chosen = [await popup.rows.nth(1).getAttribute('data-id'), await popup.rows.nth(2).getAttribute('data-id')];
    await tap(page, popup.rows.nth(1).locator('.select-target'), 4);
    await tap(page, popup.rows.nth(2).locator('.select-target'), 4);
    await page.getByText('2 selected').waitFor();
    await tap(page, popup.button('Delete selected'));
    await page.getByRole('button', { name: 'Undo' }).waitFor();
    const ids = async () => (await demo().inbox.fetch({ limit: 100 })).data.map((each) => each.id);
    const kept = async () => (await ids()).filter((id) => chosen.includes(id));
    await expect.poll(kept, { timeout: 10_000 }).toEqual([]);
    await tap(page, page.getByRole('button', { name: 'Undo' }));
    await expect.poll(kept, { timeout: 10_000 }).toHaveLength(2);
    await expect.poll(() => popup.rows.nth(1).getAttribute('data-id'), { timeout: 10_000 }).toBe(chosen[0]);
  });

  it('follows from a profile page with a tap on a button a finger’s size', async () => {
    const { username } = await product.service.newUser('phone');
    const profile = new ProfilePage(await product.openPage(`${product.service.origin}/@${username}`));
    await profile.waitForControls();
    const follow = profile.button('Follow');
    const size = await follow.evaluate((element) => element.getBoundingClientRect().toJSON());
    expect(size.height).toBeGreaterThanOrEqual(48);
    expect(size.width).toBeGreaterThanOrEqual(48);
    // The finger comes down once the frame has been still as long as the guard asks.
    await profile.page.waitForTimeout(RESTED_MS + 100);
    const frame = await profile.page
      .locator(BUTTONS_FRAME)
      .evaluate((element) => element.getBoundingClientRect().toJSON());
    await profile.page.touchscreen.tap(frame.x + size.x + size.width / 2, frame.y + size.y + size.height / 2);
    await profile.button('Unfollow').waitFor();
    expect((await demo().user(username).get()).following).toBe(true);
    await profile.page.close();
  });
});
