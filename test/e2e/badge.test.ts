import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './support/browsers';
import { type E2EProduct, startProduct } from './support/product';
import { untilSteady, waitUntil } from './support/wait';

describe.each(BROWSERS)('toolbar badge in %s', (browser) => {
  let product: E2EProduct;

  beforeAll(async () => {
    product = await startProduct({ browser });
    // The badge is live in both browsers: let the channel open first, so no opening moves the badge mid-test.
    await waitUntil('the live channel', 10_000, async () => (await product.badgeTitle()).includes('Live:'));
  });
  afterAll(() => product?.close());

  const isCountCheck = (line: string) => line.startsWith('GET /api/inbox/count ');
  const countChecks = () => product.requests.filter(isCountCheck).length;
  const lastCountCheck = () => product.requests.filter(isCountCheck).at(-1);

  it('shows the demo user’s unread count, and says it in the tooltip', async () => {
    const unread = await product.service.client(product.demoToken).inbox.count();
    // A check signing in or the channel's opening began may still be on its way: this test counts
    // the one it asks for.
    await untilSteady('the checks begun before', countChecks);
    const checks = countChecks();
    await product.pollNow();
    await expect.poll(countChecks).toBe(checks + 1);
    expect(lastCountCheck()).toMatch(/^GET \/api\/inbox\/count 304/);
    expect(await product.badgeText()).toBe(String(unread));
    expect(await product.badgeTitle()).toContain(`${unread} unread notifications`);
  });

  it('rises at once after another user follows demo, with no check of the count', async () => {
    const before = Number(await product.badgeText());
    const newcomer = await product.service.newUser('newcomer');
    const checks = countChecks();
    await newcomer.client.user('demo').follow();
    // The live channel pushes the new count (live.test.ts and firefox-live.test.ts time it).
    await expect.poll(() => product.badgeText()).toBe(String(before + 1));
    expect(countChecks()).toBe(checks);
  });

  it('shows the service as down, and recovers by itself when it comes back', async () => {
    const count = await product.badgeText();
    const { server } = product.service;
    await product.stopService();
    expect(await product.pollNow()).toBe('?');
    expect(await product.badgeTitle()).toContain('cannot be reached');
    expect(await product.badgeTitle()).toContain(`Last known: ${count} unread`);
    await new Promise<void>((resolve) => server.httpServer.listen(server.port, '127.0.0.1', () => resolve()));
    expect(await product.pollNow()).toBe(count);
  });

  it('shows signed out, and sends nothing, once the token is forgotten', async () => {
    // The service's return above leaves the live channel reconnecting; an attempt that read the
    // token before it was forgotten would send its ticket after. Let it open first.
    await waitUntil('the live channel again', 15_000, async () => (await product.badgeTitle()).includes('Live:'));
    expect(await product.storedToken()).not.toBeNull();
    await product.signOut();
    expect(await product.storedToken()).toBeNull();
    // A check the channel's opening began before the token was forgotten may still arrive.
    await untilSteady('the requests begun before to arrive', () => product.requests.length);
    const before = product.requests.length;
    await product.pollNow();
    expect(product.requests.slice(before)).toEqual([]);
    expect(await product.badgeText()).toBe('');
    expect(await product.badgeTitle()).toContain('Signed out');
  });
});
