import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionStatus } from '../../lib/messaging';
import { hasChromium, type Product, startProduct } from '../e2e/support/product';
import { progress } from './support/progress';

const INTERVAL_SECONDS = 30;

/**
 * With the shortest poll interval a person can set, the badge says the service is down and then
 * comes back by itself at the first check after the service returns, which is at most one
 * interval later. Nothing here fires the poll alarm after the service is back: the check that
 * brings the badge back is the one the extension scheduled itself.
 */
describe.runIf(hasChromium)('recovery from a service outage in Chromium', () => {
  let product: Product;

  beforeAll(async () => {
    progress('Recovery: starting the service and Chromium');
    product = await startProduct();
  });
  afterAll(() => product?.close());

  const status = () =>
    product.worker.evaluate(
      async () => (await chrome.storage.local.get('connectionStatus')).connectionStatus as ConnectionStatus,
    );

  it(`brings the badge back within one ${INTERVAL_SECONDS} s interval of the service’s return, untouched`, async () => {
    await product.worker.evaluate(async (seconds) => {
      const { settings } = await chrome.storage.local.get('settings');
      await chrome.storage.local.set({ settings: { ...(settings as object), pollIntervalSeconds: seconds } });
    }, INTERVAL_SECONDS);
    const count = await product.pollNow();
    expect(Number(count)).toBeGreaterThan(0);

    const { server } = product.service;
    progress('Recovery: stopping the service');
    await product.stopService();
    expect(await product.pollNow()).toBe('?');
    const down = await status();
    expect(down.kind).toBe('unreachable');

    await new Promise<void>((resolve) => server.httpServer.listen(server.port, '127.0.0.1', () => resolve()));
    const back = Date.now();
    progress(`Recovery: service back; waiting up to ${INTERVAL_SECONDS} s for the extension's own check`);
    const seen = product.requests.length;
    // A refused connection costs no service anything: no backoff, the next check is one interval on.
    expect(down.nextCheckAt).not.toBeNull();
    expect(down.nextCheckAt as number).toBeLessThanOrEqual(back + INTERVAL_SECONDS * 1000);

    const deadline = back + (INTERVAL_SECONDS + 30) * 1000;
    while ((await status()).kind !== 'ok' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const recovered = await status();
    expect(recovered.kind).toBe('ok');
    // The live channel's reconnection (backoff from 1 s) or the extension's own check, whichever
    // comes first, brings it back: no later than that check was due, with at most that one check.
    expect(recovered.checkedAt as number).toBeGreaterThan(back);
    expect(recovered.checkedAt as number).toBeLessThanOrEqual((down.nextCheckAt as number) + 5_000);
    expect(await product.badgeText()).toBe(count);
    expect(product.requests.slice(seen).filter((line) => line.includes('/api/inbox/count')).length).toBeLessThanOrEqual(
      1,
    );
    const seconds = (at: number) => ((at - back) / 1000).toFixed(2);
    console.log(
      `Recovery with a ${INTERVAL_SECONDS} s interval: the extension's own check was due ` +
        `${seconds(down.nextCheckAt as number)} s after the service came back and the badge was back ` +
        `${seconds(recovered.checkedAt as number)} s after it`,
    );
  });
});
