import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeParams, newPkce } from '../server/support/oauth';
import { seriousViolations } from './support/audit';
import { BROWSERS } from './support/browsers';
import type { E2ELocator } from './support/driver';
import { countInAccessibilityTree } from './support/firefox-page';
import { PopupPage } from './support/popup-page';
import { E2E_ACCOUNT, type E2EProduct, startProduct } from './support/product';
import { ProfilePage } from './support/profile-page';

/**
 * One browser per colour scheme, launched in it: Firefox over BiDi cannot switch
 * `prefers-color-scheme` in a running page, so both browsers get the scheme at launch.
 */
const cases = BROWSERS.flatMap((browser) => (['light', 'dark'] as const).map((scheme) => ({ browser, scheme })));

describe.each(cases)('accessibility audit (axe-core) in $browser, $scheme', ({ browser, scheme }) => {
  let product: E2EProduct;

  beforeAll(async () => {
    product = await startProduct({ browser, colorScheme: scheme });
  });
  afterAll(() => product?.close());
  it(`popup (${scheme}) has no serious or critical violation, nor with a toast or a confirmation open`, async () => {
    const popup = new PopupPage(await product.openPage('popup.html'));
    await popup.waitForRows();
    expect(await popup.page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
    expect(await seriousViolations(popup.page)).toEqual([]);
    // The Priority view, whose rows each say why in the accent's colour.
    await product.worker.evaluate(
      (key) => chrome.storage.local.set({ [key]: { people: { '@alice': { follow: true } }, threads: {} } }),
      `priority:${E2E_ACCOUNT}`,
    );
    await popup.page.getByRole('tab', { name: 'Priority' }).click();
    await popup.page.locator('article .reason').first().waitFor();
    expect(await seriousViolations(popup.page)).toEqual([]);
    await popup.page.getByRole('tab', { name: 'Inbox' }).click();
    await popup.unreadOnly.waitFor();
    await popup.page.locator('article .reason').first().waitFor({ state: 'detached' });
    await popup.select(0);
    // The selection's toolbar: icon buttons, and the More menu open.
    expect(await seriousViolations(popup.page)).toEqual([]);
    await popup.button('More actions').click();
    await popup.button('Mark all read').waitFor();
    expect(await seriousViolations(popup.page)).toEqual([]);
    await popup.page.keyboard.press('Escape');
    await popup.button('Mark all read').waitFor({ state: 'hidden' });
    await popup.button('Delete selected').click();
    await popup.toast.waitFor();
    expect(await seriousViolations(popup.page)).toEqual([]);
    await popup.button('Delete all').click();
    await popup.dialog.waitFor();
    expect(await seriousViolations(popup.page)).toEqual([]);
    await popup.page.close();
  });

  // The Firefox driver finds roles and names with a script in the page, as Playwright does in
  // Chromium; Firefox's own accessibility tree, what a screen reader there reads, must agree.
  it.runIf(browser === 'firefox' && scheme === 'light')(
    'Firefox’s own accessibility tree knows each control by the role and name the tests use',
    async () => {
      const agree = async (locator: E2ELocator, what: string) => {
        const found = await locator.count();
        expect(found, what).toBeGreaterThan(0);
        expect(await countInAccessibilityTree(locator), what).toBe(found);
      };
      const popup = new PopupPage(await product.openPage('popup.html'));
      await popup.waitForRows();
      await popup.select(0);
      await agree(popup.feed, 'the "Notifications" feed');
      await agree(popup.rows, 'its articles');
      await agree(popup.rows.first().getByRole('checkbox'), 'a row’s checkbox');
      await agree(popup.unreadOnly, 'the "Unread only" switch');
      for (const name of ['Load more', 'Mark selected read', 'Delete selected', 'More actions']) {
        await agree(popup.button(name), `"${name}"`);
      }
      await popup.button('More actions').click();
      await popup.button('Mark all read').waitFor();
      await agree(popup.button('Mark all read'), '"Mark all read"');
      await popup.page.keyboard.press('Escape');
      await popup.button('Delete selected').click();
      await popup.toast.waitFor();
      await agree(popup.button('Undo'), '"Undo"');
      await agree(popup.button('Delete all'), '"Delete all"');
      await popup.button('Delete all').click();
      // The confirmation's code loads when first asked for.
      await popup.dialog.waitFor();
      await agree(popup.dialog, 'the confirmation');
      await popup.page.close();

      const profile = new ProfilePage(await product.openPage(`${product.service.origin}/@alice`));
      await profile.waitForControls();
      await agree(profile.controls, 'the in-page "Inbox Companion" group');
      await agree(profile.button('Report'), '"Report"');
      await profile.page.close();
    },
  );

  it(`options page (${scheme}) has no serious or critical violation`, async () => {
    const page = await product.openPage('options.html');
    // The account list and what priority learned, then the form that adds one with a pasted token.
    await page.getByRole('button', { name: 'Add account', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Priority', exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Add account', exact: true }).click();
    await page.getByText('Use a token instead').click();
    await page.getByLabel('API address').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it(`in-page buttons and report dialog (${scheme}) have no serious or critical violation`, async () => {
    const profile = new ProfilePage(await product.openPage(`${product.service.origin}/@alice`));
    await profile.waitForControls();
    expect(await seriousViolations(profile.page, 'inbox-companion-profile')).toEqual([]);
    expect(await seriousViolations(await profile.frameDocument())).toEqual([]);
    await profile.button('Report').click();
    await profile.dialog.waitFor();
    expect(await seriousViolations(profile.page, 'inbox-companion-profile')).toEqual([]);
    expect(await seriousViolations(await profile.frameDocument())).toEqual([]);
    // Escape closes the dialog and focus goes back to the Report button, inside the frame.
    await profile.page.keyboard.press('Escape');
    await profile.dialog.waitFor({ state: 'hidden' });
    expect(await (await profile.frameDocument()).evaluate('document.activeElement?.textContent')).toBe('Report');
    await profile.page.close();
  });

  it(`the service's sign-in page (${scheme}) has no serious or critical violation, with or without errors, and signs in`, async () => {
    // A loopback redirect URI on the service itself, so the browser can follow the answer.
    const redirectUri = `${product.service.origin}/oauth-done`;
    const pkce = newPkce();
    const url = `${product.service.origin}/oauth/authorize?${authorizeParams(pkce, { redirect_uri: redirectUri })}`;
    const page = await product.openPage(url);
    await page.getByLabel('Username').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('username');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Username').fill('demo');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in and allow' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toContain('The username or password is not right.');
    // The summary of what went wrong is where focus lands, so a screen reader reads it first.
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('error-summary');
    expect(await seriousViolations(page)).toEqual([]);
    // The browser takes the form (its cookie and origin) and follows the answer to the redirect
    // URI, which the page's form-action allows.
    await page.getByLabel('Password').fill('demo');
    await page.getByRole('button', { name: 'Sign in and allow' }).click();
    await page.getByText('There is no page at this address.').waitFor();
    const back = new URL(await page.url());
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe(pkce.state);
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await page.close();
  });
});
