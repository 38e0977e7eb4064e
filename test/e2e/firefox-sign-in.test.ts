/**
 * Signing in with the button in Firefox ESR, end to end: `identity.launchWebAuthFlow` opens the
 * service's authorize page in a window of its own, which WebDriver BiDi lists as a browsing
 * context like any tab, so it is filled in as a person would. The URL it opens carries a PKCE
 * challenge (S256), a fresh `state` and Firefox's own redirect address; after "Sign in and allow"
 * the account is named, the badge shows its count and goes live.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './support/browsers';
import type { E2EPage } from './support/driver';
import { OptionsPage } from './support/options-page';
import { type E2EProduct, startProduct } from './support/product';
import { waitUntil } from './support/wait';

describe.runIf(BROWSERS.includes('firefox'))('signing in with the button in Firefox', () => {
  let product: E2EProduct;
  let options: OptionsPage | undefined;

  beforeAll(async () => {
    product = await startProduct({ browser: 'firefox', signedIn: false });
  });
  afterAll(() => product?.close());

  /** Clicks the sign-in button and gives the window it opens, once it shows the authorize page. */
  async function openAuthorizeWindow(): Promise<{ options: OptionsPage; window: E2EPage; url: URL }> {
    await options?.page.close();
    const page = new OptionsPage(await product.openPage('options.html'));
    options = page;
    await page.button('Add account').click();
    await page.field('Service address').fill(product.service.origin);
    await page.button('Continue').click();
    const opened = product.browser.nextPage();
    await page.page.getByRole('button', { name: `Sign in with ${new URL(product.service.origin).host}` }).click();
    const window = await opened;
    // The window starts at about:blank, then loads the authorize page.
    let url = new URL('about:blank');
    await waitUntil('the authorize page', 10_000, async () => {
      url = new URL(await window.url());
      return url.pathname === '/oauth/authorize';
    });
    return { options: page, window, url };
  }

  it('opens the authorize page with a PKCE challenge, a state and Firefox’s redirect address', async () => {
    const { options, window, url } = await openAuthorizeWindow();
    expect(url.origin).toBe(product.service.origin);
    const query = url.searchParams;
    expect(query.get('response_type')).toBe('code');
    expect(query.get('code_challenge_method')).toBe('S256');
    // A SHA-256 digest in base64url: 43 characters, and no verifier in the URL.
    expect(query.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get('state')?.length).toBeGreaterThanOrEqual(16);
    const redirect = await product.worker.evaluate(() => chrome.identity.getRedirectURL());
    expect(query.get('redirect_uri')).toBe(redirect);
    expect(new URL(redirect).hostname).toMatch(/\.extensions\.allizom\.org$/);
    expect(url.toString()).not.toMatch(/verifier/i);
    await window.close();
    // Closing the window is a cancelled sign-in: nothing is stored.
    await expect.poll(() => options.notice(), { timeout: 10_000 }).toContain('Signing in was cancelled.');
    expect(await product.worker.evaluate(async () => (await chrome.storage.local.get('accounts')).accounts)).toEqual(
      [],
    );
  });

  it('signs in when the person fills in the window, and the badge follows live', async () => {
    const before = product.requests.length;
    const { options, window } = await openAuthorizeWindow();
    await window.getByLabel('Username').fill('demo');
    await window.getByLabel('Password').fill('demo');
    await window.getByRole('button', { name: 'Sign in and allow' }).click();
    await expect.poll(() => options.notice(), { timeout: 15_000 }).toContain('Signed in as @demo.');
    const unread = await product.service.client(product.demoToken).inbox.count();
    await expect.poll(() => product.badgeText(), { timeout: 10_000 }).toBe(String(unread));
    await expect.poll(() => product.badgeTitle(), { timeout: 10_000 }).toContain('Live:');

    // One code, exchanged once (the service checks the verifier against the challenge).
    const answered = product.requests.slice(before);
    expect(answered.filter((line) => line.startsWith('POST /oauth/authorize 303'))).toHaveLength(1);
    expect(answered.filter((line) => line.startsWith('POST /api/oauth/token 200'))).toHaveLength(1);
    const accounts = await product.worker.evaluate(
      async () => (await chrome.storage.local.get('accounts')).accounts as { username: string; apiBaseUrl: string }[],
    );
    expect(accounts.map(({ username }) => username)).toEqual(['demo']);
  });
});
