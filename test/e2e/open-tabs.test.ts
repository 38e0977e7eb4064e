/**
 * The in-page buttons on a profile page that was open before the extension could reach it: open
 * before the extension was installed (Chromium) or before its site was granted (Firefox, whose
 * store build asks for the site at run time), and again after an update. The buttons come
 * without a reload, act, and come once per page.
 */
import type { Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserToInstallInto, launchToInstallInto } from '../../scripts/chromium';
import { startTestService, type TestService } from '../support/service';
import { BROWSERS, type FirefoxBrowser } from './support/browsers';
import type { E2EPage } from './support/driver';
import { type E2EProduct, signInTo, startProduct } from './support/product';
import { ProfilePage } from './support/profile-page';

/** Marks the page's document, so a test can tell it was never loaded again. */
const mark = (page: E2EPage) => page.evaluate('void (window.__sameDocument = true)');
const sameDocument = (page: E2EPage) => page.evaluate<boolean>('window.__sameDocument === true');

/** How many hosts of the buttons the page holds, and how many "Inbox Companion" groups show in them. */
const buttonsOnPage = async (profile: ProfilePage) =>
  `${await profile.hosts.count()} host, ${await profile.controls.count()} group`;

/** Keeps the page's buttons' host, as an earlier copy of the extension placed it. */
const keepHost = (page: E2EPage) =>
  page.evaluate('void (window.__earlierHost = document.querySelector("inbox-companion-profile"))');
/** Whether the page holds one host, and not the one kept. */
const newHost = (page: E2EPage) =>
  page.evaluate<boolean>(
    '(() => { const hosts = document.querySelectorAll("inbox-companion-profile"); return hosts.length === 1 && hosts[0] !== window.__earlierHost })()',
  );

/**
 * Follow, then Unfollow, each reaching the service. The pointer comes from the page first: new
 * buttons that appeared under a pointer resting where the old ones were have seen it arrive
 * nowhere, and Firefox's buttons act only on a pointer they saw come and rest.
 */
async function actsOn(profile: ProfilePage, following: () => Promise<boolean>) {
  await profile.page.locator('h1').first().hover();
  await profile.button('Follow').click();
  await profile.button('Unfollow').waitFor();
  expect(await following()).toBe(true);
  await profile.button('Unfollow').click();
  await profile.button('Follow').waitFor();
  expect(await following()).toBe(false);
}

describe.runIf(BROWSERS.includes('chromium'))('buttons on a profile page open before the install, in Chromium', () => {
  let service: TestService;
  let browser: BrowserToInstallInto;
  let worker: Worker;
  let page: Page;
  let username: string;

  beforeAll(async () => {
    [service, browser] = await Promise.all([
      startTestService({ seed: true, pollIntervalSeconds: 30 }),
      launchToInstallInto(),
    ]);
    ({ username } = await service.newUser('writer', { displayName: 'A Writer' }));
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  const demoFollows = async () =>
    (
      await service
        .client(await service.tokenFor('demo'))
        .user(username)
        .get()
    ).following === true;

  it('appear once the extension is installed and signed in, without a reload, and act', async () => {
    page = await browser.context.newPage();
    await page.goto(`${service.origin}/@${username}`);
    await mark(page);
    const profile = new ProfilePage(page);
    expect(await profile.hosts.count()).toBe(0);

    ({ worker } = await browser.install());
    await signInTo(worker, service, await service.tokenFor('demo'));
    await profile.waitForControls();
    expect(await profile.hosts.count()).toBe(1);
    expect(await sameDocument(page)).toBe(true);
    await actsOn(profile, demoFollows);
  });

  it('are not put in again when the worker stops and wakes', async () => {
    const profile = new ProfilePage(page);
    await page.evaluate('void (window.__host = document.querySelector("inbox-companion-profile"))');
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await cdp.detach();
    // Opening the popup wakes the worker, which answers it; by then it has started whole.
    const popup = await browser.context.newPage();
    await popup.goto(worker.url().replace('background.js', 'popup.html'));
    await popup.getByRole('feed', { name: 'Notifications' }).getByRole('article').first().waitFor();
    await popup.close();
    expect(await profile.hosts.count()).toBe(1);
    expect(await page.evaluate<boolean>('window.__host.isConnected')).toBe(true);
    expect(await sameDocument(page)).toBe(true);
  });

  it('come back once after an update, and act', async () => {
    await keepHost(page);
    // The same build installed again: an update, as the browser makes one.
    ({ worker } = await browser.install());
    const profile = new ProfilePage(page);
    // The copy the update left behind is cut off from the extension; a new one takes its place.
    await expect.poll(() => newHost(page), { timeout: 10_000 }).toBe(true);
    await profile.waitForControls();
    expect(await buttonsOnPage(profile)).toBe('1 host, 1 group');
    expect(await profile.hosts.count()).toBe(1);
    expect(await sameDocument(page)).toBe(true);
    await actsOn(profile, demoFollows);
  });
});

describe.runIf(BROWSERS.includes('firefox'))(
  'buttons on a profile page open before the site is granted, in Firefox',
  () => {
    let product: E2EProduct;
    let page: E2EPage;
    let username: string;

    beforeAll(async () => {
      product = await startProduct({ browser: 'firefox', signedIn: false });
      ({ username } = await product.service.newUser('writer', { displayName: 'A Writer' }));
    });
    afterAll(() => product?.close());

    const demoFollows = async () =>
      (await product.service.client(product.demoToken).user(username).get()).following === true;

    it('appear once the site is granted and the account signed in, without a reload, and act', async () => {
      page = await product.openPage(`${product.service.origin}/@${username}`);
      await mark(page);
      const profile = new ProfilePage(page);
      expect(await profile.hosts.count()).toBe(0);

      await product.signIn();
      await profile.waitForControls();
      expect(await profile.hosts.count()).toBe(1);
      expect(await sameDocument(page)).toBe(true);
      await actsOn(profile, demoFollows);
    });

    it('come back once after an update, and act', async () => {
      await keepHost(page);
      await (product.browser as FirefoxBrowser).reloadExtension();
      const profile = new ProfilePage(page);
      await expect.poll(() => newHost(page), { timeout: 10_000 }).toBe(true);
      await profile.waitForControls();
      expect(await buttonsOnPage(profile)).toBe('1 host, 1 group');
      expect(await sameDocument(page)).toBe(true);
      await actsOn(profile, demoFollows);
    });
  },
);
