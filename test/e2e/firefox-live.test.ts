/**
 * The live badge in Firefox ESR with the store build, which is MV2: its background page is
 * persistent, so it holds the same live channel Chrome's worker does. A notification made through
 * the operator API reaches the badge with no alarm fired and no check of the count, right after
 * signing in and again after the background has been idle for over a minute (with Firefox told
 * to unload idle backgrounds after 2 s, which a persistent page ignores), for two accounts too,
 * and again in the new page after the extension reloads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service';
import { BROWSERS, type FirefoxBrowser } from './support/browsers';
import { backgroundMark, markBackground, recordAlarms } from './support/firefox-background';
import { OptionsPage } from './support/options-page';
import { type E2EProduct, startProduct } from './support/product';
import { untilSteady } from './support/wait';

/** How soon a pushed notification must be on the badge. */
const PUSHED_WITHIN_MS = 3_000;
/** How long the background is left idle; over a minute, twice Firefox's own idle timeout. */
const IDLE_MS = Number(process.env.E2E_FIREFOX_IDLE_MS ?? 65_000);
/** What Firefox is told to unload an idle event page after; a persistent page outlives it. */
const IDLE_UNLOAD_MS = 2_000;

const mention = (service: TestService, username: string, text: string) =>
  service.deliver({ username, type: 'mention', text, actor: 'alice' });

describe.runIf(BROWSERS.includes('firefox'))('the live badge in Firefox', () => {
  let product: E2EProduct;
  let alarmsFired: () => Promise<string[]>;
  let mark: string;
  const counted = () => product.requests.filter((line) => line.startsWith('GET /api/inbox/count')).length;
  const isLive = async () => (await product.badgeTitle()).includes('Live:');

  /** Waits until no check of the count has come for half a second, as after signing in. */
  const settled = () => untilSteady('no more checks of the count', counted);

  /** Delivers one mention to `username` and waits for the badge to show `expected`; no check, no alarm. */
  async function pushed(username: string, expected: number) {
    const checks = counted();
    const fired = (await alarmsFired()).length;
    await mention(product.service, username, `Pushed to ${username}`);
    await expect.poll(() => product.badgeText(), { timeout: PUSHED_WITHIN_MS, interval: 50 }).toBe(String(expected));
    expect(counted()).toBe(checks);
    expect((await alarmsFired()).slice(fired)).toEqual([]);
  }

  beforeAll(async () => {
    product = await startProduct({ browser: 'firefox', signedIn: false, backgroundIdleTimeoutMs: IDLE_UNLOAD_MS });
    mark = await markBackground(product.worker);
    alarmsFired = await recordAlarms(product.worker);
  });
  afterAll(() => product?.close());

  it('moves the badge within 3 s of an operator call, with no alarm fired and no check of the count', async () => {
    await product.signIn();
    await expect.poll(isLive, { timeout: 10_000 }).toBe(true);
    await settled();
    const before = Number(await product.badgeText());
    await pushed('demo', before + 1);
    expect(await product.badgeTitle()).toContain(`${before + 1} unread notifications`);
    expect(product.requests.filter((line) => line.includes('/inbox/live')).length).toBeGreaterThan(0);
  });

  it(
    'still does after the background was idle for over a minute: the same page, never unloaded',
    async () => {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      expect(await backgroundMark(product.worker)).toBe(mark);
      expect(await product.browser.backgroundRunning()).toBe(true);
      expect(await isLive()).toBe(true);
      const before = Number(await product.badgeText());
      await pushed('demo', before + 1);
      // Nothing woke it meanwhile: the poll alarm is a five-minute safety net while the channel is open.
      expect(await alarmsFired()).toEqual([]);
    },
    IDLE_MS + 30_000,
  );

  it('carries a second account’s notifications live too, and the badge sums both', async () => {
    const { service } = product;
    const other = await service.newUser('second');
    await service.fillInbox(other.username, 3, { read: false });
    const options = new OptionsPage(await product.openPage('options.html'));
    await options.button('Add account').click();
    await options.page.getByText('Use a token instead').click();
    await options.fill({ apiBaseUrl: service.apiBaseUrl, siteOrigin: service.origin, token: other.token });
    await options.button('Add with this token').click();
    await options.waitForNotice(`Signed in as @${other.username}.`);
    await options.page.close();
    const demo = await service.client(product.demoToken).inbox.count();
    await expect.poll(() => product.badgeText(), { timeout: 10_000 }).toBe(String(demo + 3));
    await expect
      .poll(() => product.requests.filter((line) => line.includes('/inbox/live')).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);
    await settled();

    await pushed(other.username, demo + 4);
    await pushed('demo', demo + 5);
    const title = await product.badgeTitle();
    expect(title).toContain(`@demo: ${demo + 1} unread notifications`);
    expect(title).toContain(`@${other.username}: 4 unread notifications`);
    expect(await backgroundMark(product.worker)).toBe(mark);
  });

  it('holds the channel again in the new page after the extension reloads, as after an update', async () => {
    const browser = product.browser as FirefoxBrowser;
    const channels = () => product.requests.filter((line) => line.startsWith('GET /api/inbox/live 101')).length;
    const opened = channels();
    await browser.reloadExtension();
    expect(await backgroundMark(product.worker)).toBeNull();
    // Both accounts' channels open again.
    await expect.poll(channels, { timeout: 10_000 }).toBeGreaterThanOrEqual(opened + 2);
    await settled();
    alarmsFired = await recordAlarms(product.worker);
    const before = Number(await product.badgeText());
    await pushed('demo', before + 1);
  });
});
