import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './support/browsers';
import { OptionsPage } from './support/options-page';
import { type E2EProduct, startProduct } from './support/product';

describe.each(BROWSERS)('options page in %s', (browser) => {
  let product: E2EProduct;
  let options: OptionsPage;

  beforeAll(async () => {
    product = await startProduct({ browser, signedIn: false });
    options = new OptionsPage(await product.openPage('options.html'));
    await options.button('Add account').click();
    await options.page.getByText('Use a token instead').click();
  });
  afterAll(() => product?.close());

  it('says what is wrong with a token before the person saves it', async () => {
    await options.fill({ apiBaseUrl: product.service.apiBaseUrl, token: 'not-a-real-token' });
    await options.button('Test connection').click();
    await expect.poll(() => options.notice()).toContain('did not accept the token');
  });

  it('says when the address is the web site rather than the API', async () => {
    await options.fill({ apiBaseUrl: product.service.origin, token: product.demoToken });
    await options.button('Test connection').click();
    await expect.poll(() => options.notice()).toContain('not like the Inbox service');
  });

  it('adds an account with an address and token typed by hand, and the badge shows the count', async () => {
    await options.fill({
      apiBaseUrl: product.service.apiBaseUrl,
      token: product.demoToken,
      siteOrigin: product.service.origin,
    });
    await options.button('Test connection').click();
    const unread = await product.service.client(product.demoToken).inbox.count();
    await expect.poll(() => options.notice()).toContain(`Connected. You have ${unread} unread notifications.`);
    await options.button('Add with this token').click();
    await expect.poll(() => options.notice()).toContain('Signed in as');
    await expect
      .poll(() => options.page.getByText(`Signed in, ${unread} unread notifications.`).isVisible())
      .toBe(true);
    await expect.poll(() => product.badgeText()).toBe(String(unread));
  });

  it('refuses an invalid interval inline, and saves nothing', async () => {
    await options.field('Check for new notifications every (seconds)').fill('5');
    await options.button('Save').click();
    await expect
      .poll(() => options.page.getByText('Enter a whole number of seconds, at least 30.').isVisible())
      .toBe(true);
    expect(await options.field('Check for new notifications every (seconds)').getAttribute('aria-invalid')).toBe(
      'true',
    );
    await options.field('Check for new notifications every (seconds)').fill('60');
  });

  it('signs out: the token is gone and the badge says so', async () => {
    // The account is named as the service says who it is.
    await options.page.getByRole('button', { name: 'Sign out @demo' }).click();
    await expect.poll(() => options.notice()).toContain('is signed out');
    await expect.poll(() => product.badgeTitle()).toContain('Signed out');
    await expect.poll(() => options.page.getByRole('button', { name: 'Sign in again @demo' }).isVisible()).toBe(true);
  });
});
