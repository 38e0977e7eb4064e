import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PriorityModel } from '../../lib/priority/model';
import { BROWSERS, type ChromiumBrowser } from './support/browsers';
import { OptionsPage } from './support/options-page';
import { PopupPage } from './support/popup-page';
import { E2E_ACCOUNT, type E2EProduct, startProduct } from './support/product';

describe.each(BROWSERS)('priority in %s', (browser) => {
  let product: E2EProduct;
  /**
   * Every request made from now on, as the test can see it: in Chromium each one the browser
   * makes (pages and the service worker alike) with its address and body; in Firefox, whose
   * background page WebDriver BiDi does not reach, each one the service receives, by its address.
   */
  const requests: string[] = [];

  beforeAll(async () => {
    product = await startProduct({ browser });
    if (browser === 'chromium') {
      (product.browser as ChromiumBrowser).context.on('request', (request) =>
        requests.push(`${request.method()} ${request.url()} ${request.postData() ?? ''}`),
      );
    } else {
      product.service.server.httpServer.on('request', (request: IncomingMessage) =>
        requests.push(`${request.method} ${product.service.origin}${request.url}`),
      );
    }
  });
  afterAll(() => product?.close());

  const deliverFrom = (actor: string, text: string, post: number) =>
    product.service.deliver({
      username: 'demo',
      type: 'mention',
      text,
      actor,
      url: `${product.service.origin}/@demo/posts/${post}`,
    });
  const model = () =>
    product.worker.evaluate(
      async (key) => ((await chrome.storage.local.get(key))[key] ?? null) as PriorityModel | null,
      `priority:${E2E_ACCOUNT}`,
    );

  it('makes a sender priority once three of theirs are opened, says why, forgets them on asking, and sends none of it', async () => {
    const opened = [];
    for (const n of [1, 2, 3]) opened.push(await deliverFrom('tomas', `Tomas asks about the plan, part ${n}`, n));
    const popup = new PopupPage(await product.openPage('popup.html'));
    await popup.waitForRows();
    for (const { id } of opened) {
      const tab = product.browser.nextPage();
      await popup.page.locator(`article[data-id="${id}"] a`).click();
      await (await tab).close();
    }
    await expect.poll(async () => (await model())?.people['@tomas']?.open?.[0] ?? 0).toBeGreaterThan(2.9);
    const learned = (await model()) as PriorityModel;

    const next = await deliverFrom('tomas', 'Tomas shares the final plan', 4);
    const other = await deliverFrom('ivan', 'Ivan shares a chess puzzle', 5);
    await popup.page.getByRole('tab', { name: 'Priority' }).click();
    const nextRow = popup.page.locator(`article[data-id="${next.id}"]`);
    await nextRow.waitFor();
    expect(await nextRow.locator('.reason').textContent()).toBe('You often open @tomas’s');
    expect(await popup.page.locator(`article[data-id="${other.id}"]`).count()).toBe(0);

    const options = new OptionsPage(await product.openPage('options.html'));
    await options.button('Forget @tomas').click();
    await expect
      .poll(() => options.page.locator('.priority-section [role="status"]').textContent())
      .toBe('This browser forgot what it learned of @tomas.');
    expect((await model())?.people['@tomas']).toBeUndefined();
    await options.page.close();

    await popup.page.getByRole('tab', { name: 'Inbox' }).click();
    await popup.page.getByRole('tab', { name: 'Priority' }).click();
    await popup.heading('Nothing here is priority yet').waitFor();
    expect(await nextRow.count()).toBe(0);

    // What was learned stayed in this browser: no request carried it, in its address or its body
    // (its shape's names, each count's time, and a count's value where it is not a whole number).
    const tallies = [
      ...Object.values(learned.people).flatMap((person) => Object.values(person)),
      ...Object.values(learned.threads),
    ];
    const traces = [
      '"people"',
      '"threads"',
      ...tallies.flatMap((tally) =>
        Array.isArray(tally) ? [String(tally[1]), ...(Number.isInteger(tally[0]) ? [] : [String(tally[0])])] : [],
      ),
    ];
    // The watch sees what the background sends: the reads the three openings made.
    expect(
      requests.filter((request) => request.startsWith('POST') && request.includes('/api/inbox/read')),
    ).toHaveLength(3);
    expect(requests.filter((request) => traces.some((trace) => request.includes(trace)))).toEqual([]);
    // And every request went to the service, or stayed inside the extension.
    const origins = new Set(requests.map((request) => new URL(request.split(' ')[1] ?? '').origin));
    origins.delete(product.service.origin);
    expect([...origins].filter((origin) => /^https?:/.test(origin))).toEqual([]);
  });
});
