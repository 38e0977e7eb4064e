import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './support/browsers';
import { type Handler, type HostileSite, json, startHostileSite } from './support/hostile-site';
import { PopupPage } from './support/popup-page';
import { type E2EProduct, signInTo, startProduct } from './support/product';

const PAYLOAD = '<img src=x onerror="document.title=\'pwned\'"><b>bold</b>';
const SCRIPT_NAME = '<script>document.title="pwned"</script>';

const notification = (n: number, fields: Record<string, unknown>) => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  read: false,
  type: 'mention',
  createdAt: new Date(Date.now() - n * 60_000).toISOString(),
  actor: { username: 'evil', displayName: SCRIPT_NAME },
  text: `notification ${n}`,
  url: null,
  ...fields,
});

/**
 * The popup against a service that answers with hostile data: HTML and script in every text,
 * links that are not http(s), and then answers that are not the contract at all. Whatever it
 * sends, the popup shows text as text, opens only http(s) pages, and shows a problem instead of
 * bad data.
 */
describe.each(BROWSERS)('the popup against a hostile service in %s', (browser) => {
  let product: E2EProduct;
  let hostile: HostileSite;
  let popup: PopupPage;

  beforeAll(async () => {
    product = await startProduct({ browser, signedIn: false });
    hostile = await startHostileSite();
    hostile.route('/api/inbox/count', json({ count: 3 }, 200, { etag: '"3"' }));
    hostile.route(
      '/api/inbox/fetch',
      json({
        data: [
          notification(1, { text: PAYLOAD, url: "javascript:document.title='pwned'" }),
          notification(2, { text: 'a data link', url: 'data:text/html,<script>alert(1)</script>' }),
          notification(3, { text: 'a real page', url: `${hostile.origin}/real-page` }),
        ],
        cursor: null,
      }),
    );
    hostile.route('/api/inbox/read', json({ success: true, count: 1 }));
    hostile.page('/real-page', '<!doctype html><title>real page</title><p>real');
    // Loopback, any port: the same permission covers the hostile service.
    await product.grantHostAccess();
    await signInTo(
      product.worker,
      { apiBaseUrl: `${hostile.origin}/api`, origin: product.service.origin },
      'hostile-test-token',
    );
    await product.pollNow();
    popup = new PopupPage(await product.openPage('popup.html'));
    await popup.waitForRows();
  });
  afterAll(async () => {
    await hostile?.close();
    await product?.close();
  });

  it('shows HTML and script in notification text and actor names as plain text', async () => {
    expect(await popup.rows.count()).toBe(3);
    expect(await popup.feed.locator('img, script, b').count()).toBe(0);
    const first = popup.rows.first();
    expect(await first.locator('.text').textContent()).toBe(PAYLOAD);
    expect(await first.locator('.actor').textContent()).toContain(SCRIPT_NAME);
    expect(await popup.page.title()).not.toBe('pwned');
  });

  it('links only the http(s) page, and opens nothing for javascript: or data:', async () => {
    const links = popup.feed.locator('a');
    expect(await links.count()).toBe(1);
    expect(await links.first().getAttribute('href')).toBe(`${hostile.origin}/real-page`);
    const pagesBefore = await product.browser.pageCount();
    for (const index of [0, 1]) {
      await popup.rows.nth(index).focus();
      await popup.page.keyboard.press('Enter');
      await expect.poll(() => popup.page.getByRole('status').first().textContent()).toContain('no page to open');
    }
    expect(await product.browser.pageCount()).toBe(pagesBefore);
    expect(await popup.page.title()).not.toBe('pwned');

    const opened = product.browser.nextPage();
    await popup.rows.nth(2).focus();
    await popup.page.keyboard.press('Enter');
    const page = await opened;
    // A new tab starts at about:blank in Firefox before it navigates.
    await expect.poll(() => page.url()).toBe(`${hostile.origin}/real-page`);
    await page.close();
  });

  it.each<[string, Handler]>([
    [
      'an HTML error page',
      (_, response) => {
        response.writeHead(502, { 'content-type': 'text/html' });
        response.end('<!doctype html><h1>502 Bad Gateway</h1><script>document.title="pwned"</script>');
      },
    ],
    [
      'truncated JSON',
      (_, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"data":[{"id":"00000000-0000-4000-8000-000000000009","read":fal');
      },
    ],
    ['fields of the wrong types', json({ data: [{ ...notification(9, {}), read: 'no', text: 42 }], cursor: null })],
    [
      'a body far over the size limit',
      (_, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ data: [], cursor: null, padding: 'x'.repeat(3 * 1024 * 1024) }));
      },
    ],
  ])(
    'shows a problem and nothing of the answer when the service sends %s, and recovers when it answers well',
    async (_, bad) => {
      const good = json({ data: [notification(7, { text: 'good again' })], cursor: null });
      hostile.route('/api/inbox/fetch', bad);
      const page = await product.openPage('popup.html');
      const broken = new PopupPage(page);
      await broken.button('Try again').waitFor({ timeout: 10_000 });
      // The last good first page may stay on show, marked as a saved copy; nothing of the bad answer does.
      const texts = await broken.rows.locator('.text').allTextContents();
      expect(texts.every((text) => [PAYLOAD, 'a data link', 'a real page', 'good again'].includes(text))).toBe(true);
      expect(await page.locator('body').textContent()).not.toMatch(/Bad Gateway|notification 9/);
      expect(await page.title()).not.toBe('pwned');
      hostile.route('/api/inbox/fetch', good);
      await broken.button('Try again').click();
      await expect.poll(() => broken.rows.first().textContent(), { timeout: 10_000 }).toContain('good again');
      await page.close();
    },
  );
});
