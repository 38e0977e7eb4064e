/**
 * The in-page buttons on the reference site's gallery (`server/site/gallery.ts`): profile pages
 * styled as real sites style theirs. On each, a person's click after the pointer rested on a
 * button acts (the service records the follow), and so does a key; a first tap acts too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTED_MS } from '../../lib/profile/click-guard';
import { GALLERY_LAYOUTS, type GalleryLayoutName } from '../../server/site/gallery';
import { BROWSERS } from './support/browsers';
import type { E2EPage } from './support/driver';
import { type E2EProduct, startProduct } from './support/product';
import { BUTTONS_FRAME, ProfilePage } from './support/profile-page';

/** The page as a person has it before they click: scrolled, where the layout scrolls. */
const BEFORE_CLICKING: Partial<Record<GalleryLayoutName, (page: E2EPage) => Promise<unknown>>> = {
  // The header then lies over the page's top, not over the buttons.
  'sticky-header': (page) => page.evaluate(() => scrollTo(0, 60)),
  'in-scroll-box': (page) => page.evaluate(() => document.querySelector('main')?.scrollTo(0, 30)),
};

/** Every layout but the one reached by the site's own navigation, which has a test of its own. */
const LAYOUTS = (Object.keys(GALLERY_LAYOUTS) as GalleryLayoutName[]).filter((name) => name !== 'spa');

describe.each(BROWSERS)('the in-page buttons on the gallery’s layouts in %s', (browser) => {
  let product: E2EProduct;

  beforeAll(async () => {
    product = await startProduct({ browser });
  });
  afterAll(() => product?.close());

  const following = async (username: string) =>
    (await product.service.client(product.demoToken).user(username).get()).following;

  /** A rested click follows; a key press on the same button unfollows again. */
  async function followByClickThenUnfollowByKey(profile: ProfilePage, username: string) {
    await profile.button('Follow').click();
    await profile.button('Unfollow').waitFor();
    expect(await following(username)).toBe(true);
    await profile.button('Unfollow').focus();
    await profile.page.keyboard.press('Enter');
    await profile.button('Follow').waitFor();
    expect(await following(username)).toBe(false);
  }

  it.each(LAYOUTS)('acts on a rested click and on a key on the page “%s”', async (layout) => {
    const { username } = await product.service.newUser('gallery');
    const profile = new ProfilePage(await product.openPage(`${product.service.origin}/@${username}?layout=${layout}`));
    await profile.waitForControls();
    await BEFORE_CLICKING[layout]?.(profile.page);
    await followByClickThenUnfollowByKey(profile, username);
    await profile.page.close();
  });

  it('acts on a profile the site reached by its own navigation', async () => {
    const { username } = await product.service.newUser('reached');
    const profile = new ProfilePage(await product.openPage(`${product.service.origin}/@alice?layout=spa`));
    await profile.waitForControls();
    // As the site's own Back and Forward do: the address changes, the site draws that profile.
    await profile.page.evaluate((to) => {
      history.pushState(null, '', `/@${to}`);
      dispatchEvent(new PopStateEvent('popstate'));
    }, username);
    await expect
      .poll(() => profile.page.evaluate(() => document.querySelector('#profile')?.getAttribute('data-username')))
      .toBe(username);
    await profile.waitForControls();
    await followByClickThenUnfollowByKey(profile, username);
    await profile.page.close();
  });

  it('hides the buttons while the page scrolls their place under its sticky header, and shows them after', async () => {
    const profile = new ProfilePage(await product.openPage(`${product.service.origin}/@alice?layout=sticky-header`));
    await profile.waitForControls();
    const hidden = () =>
      profile.page.locator(BUTTONS_FRAME).evaluate((frame) => getComputedStyle(frame).visibility === 'hidden');
    expect(await hidden()).toBe(false);
    // Their place, just under the name, then lies under the header, which the page draws over it.
    await profile.page.evaluate(() => scrollTo(0, 150));
    await expect.poll(hidden).toBe(true);
    await profile.page.evaluate(() => scrollTo(0, 0));
    await expect.poll(hidden).toBe(false);
    await profile.button('Report').click();
    await profile.dialog.waitFor();
    await profile.dialog.getByRole('button', { name: 'Cancel' }).click();
    await profile.page.close();
  });
});

describe.each(BROWSERS)('a tap on the in-page buttons in %s', (browser) => {
  let product: E2EProduct;

  beforeAll(async () => {
    product = await startProduct({ browser, hasTouch: true });
  });
  afterAll(() => product?.close());

  /** Where on the page a button of the frame is, in the middle. */
  async function middleOf(profile: ProfilePage, name: string) {
    const frame = await profile.page
      .locator(BUTTONS_FRAME)
      .evaluate((element) => element.getBoundingClientRect().toJSON());
    const button = await profile.button(name).evaluate((element) => element.getBoundingClientRect().toJSON());
    return { x: frame.x + button.x + button.width / 2, y: frame.y + button.y + button.height / 2 };
  }

  it('acts on the first tap on a frame that has been in place a moment, on a gallery page', async () => {
    const { username } = await product.service.newUser('tapped');
    const profile = new ProfilePage(
      await product.openPage(`${product.service.origin}/@${username}?layout=drop-shadow`),
    );
    await profile.waitForControls();
    // The finger comes down once the frame has been still as long as the guard asks.
    await profile.page.waitForTimeout(RESTED_MS + 100);
    const { x, y } = await middleOf(profile, 'Follow');
    await profile.page.touchscreen.tap(x, y);
    await profile.button('Unfollow').waitFor();
    expect((await product.service.client(product.demoToken).user(username).get()).following).toBe(true);
    await profile.page.close();
  });
});
