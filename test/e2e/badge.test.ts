import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './support/browsers';
import { type E2EProduct, startProduct } from './support/product';

describe.each(BROWSERS)('toolbar badge in %s', (browser) => {
  let product: E2EProduct;

  beforeAll(async () => {
    product = await startProduct({ browser });
  });
  afterAll(() => product?.close());

  it('shows the demo user’s unread count, and says it in the tooltip', async () => {
    const unread = await product.service.client(product.demoToken).inbox.count();
    await product.pollNow();
    expect(product.requests.at(-1)).toMatch(/^GET \/api\/inbox\/count 304/);
    expect(await product.badgeText()).toBe(String(unread));
    expect(await product.badgeTitle()).toContain(`${unread} unread notifications`);
  });

  it('rises at the next check after another user follows demo', async () => {
    const before = Number(await product.badgeText());
    const newcomer = await product.service.newUser('newcomer');
    await newcomer.client.user('demo').follow();
    expect(await product.pollNow()).toBe(String(before + 1));
    expect(product.requests.at(-1)).toMatch(/^GET \/api\/inbox\/count 200/);
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
    expect(await product.storedToken()).not.toBeNull();
    await product.signOut();
    expect(await product.storedToken()).toBeNull();
    const before = product.requests.length;
    await product.pollNow();
    expect(product.requests.slice(before)).toEqual([]);
    expect(await product.badgeText()).toBe('');
    expect(await product.badgeTitle()).toContain('Signed out');
  });
});
