/**
 * Several accounts in Chromium: one added through the service's own sign-in page, opened by
 * `identity.launchWebAuthFlow` and filled in as a person would, a second added with a pasted
 * token; the badge sums both, and signing out revokes the token at the service.
 */
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnauthenticatedError } from '../../lib/api';
import { BROWSERS } from './support/browsers';
import { OptionsPage } from './support/options-page';
import { PopupPage } from './support/popup-page';
import { type Product, startProduct } from './support/product';
import { BUTTONS_FRAME, ProfilePage } from './support/profile-page';

/**
 * Chromium only: Firefox shows `launchWebAuthFlow` in a window of its own chrome, which the
 * WebDriver BiDi session used here does not list as a page it can drive.
 */
/** A button in the in-page buttons' frame, through Chromium's own frame locator. */
const frameButton = (profile: ProfilePage, name: string) =>
  (profile.frame as unknown as FrameLocator).getByRole('button', { name: new RegExp(`^(${name})$`) });

describe.runIf(BROWSERS.includes('chromium'))('two accounts in Chromium', () => {
  let product: Product;
  let options: OptionsPage<Page>;
  let firstAccount: string | null = null;
  /** The second account's username and token. */
  let second = { username: '', token: '' };

  beforeAll(async () => {
    product = await startProduct({ signedIn: false });
    options = new OptionsPage(await product.openPage('options.html'));
  });
  afterAll(() => product?.close());

  it('signs in with the service’s own page, filled in as a person would', async () => {
    const { service } = product;
    await options.button('Add account').click();
    await options.field('Service address').fill(service.origin);
    await options.button('Continue').click();
    const signIn = options.page.getByRole('button', { name: `Sign in with ${new URL(service.origin).host}` });
    const opened = product.browser.context.waitForEvent('page');
    await signIn.click();
    const authorize = await opened;
    await authorize.waitForLoadState();
    expect(new URL(authorize.url()).pathname).toBe('/oauth/authorize');
    await authorize.getByLabel('Username').fill('demo');
    await authorize.getByLabel('Password').fill('demo');
    await authorize.getByRole('button', { name: 'Sign in and allow' }).click();
    // The extension asks the service who signed in, and names the account so.
    await expect.poll(() => options.notice(), { timeout: 15_000 }).toContain('Signed in as @demo.');
    const unread = await service.client(product.demoToken).inbox.count();
    await expect.poll(() => product.badgeText(), { timeout: 10_000 }).toBe(String(unread));
    firstAccount = await product.worker.evaluate(async () => {
      const { accounts } = await chrome.storage.local.get('accounts');
      return (accounts as { id: string }[])[0]?.id ?? null;
    });
    expect(firstAccount).not.toBeNull();
  });

  it('adds a second account with a pasted token, and the badge sums both', async () => {
    const { service } = product;
    const other = await service.newUser('second');
    second = { username: other.username, token: other.token };
    await service.fillInbox(other.username, 4, { read: false });
    await options.button('Add account').click();
    await options.page.getByText('Use a token instead').click();
    await options.fill({ apiBaseUrl: service.apiBaseUrl, siteOrigin: service.origin, token: other.token });
    await options.button('Add with this token').click();
    await expect.poll(() => options.notice()).toContain(`Signed in as @${other.username}.`);
    const demo = await service.client(product.demoToken).inbox.count();
    await expect.poll(() => product.badgeText(), { timeout: 10_000 }).toBe(String(demo + 4));
    const title = await product.badgeTitle();
    expect(title).toContain(`${demo + 4} unread notifications`);
    expect(title).toContain(`@demo: ${demo} unread notifications`);
    expect(title).toContain(`@${other.username}: 4 unread notifications`);
  });

  it('switches the popup between all accounts and each, acting as the account a row belongs to', async () => {
    const { service } = product;
    const popup = new PopupPage(await product.openPage('popup.html'));
    const secondService = service.client(second.token);
    const demo = await service.client(product.demoToken).inbox.count();
    const switcher = popup.page.getByRole('group', { name: 'Accounts' });
    const account = (name: RegExp) => switcher.getByRole('button', { name });
    await expect
      .poll(() => switcher.getByRole('button').allTextContents(), { timeout: 10_000 })
      .toEqual([`All ${demo + 4}`, `@demo ${demo}`, `@${second.username} 4`]);
    // All accounts as one list: each row says whose it is, and triage acts as that account.
    expect(await account(/^All/).getAttribute('aria-pressed')).toBe('true');
    await popup.waitForRows();
    const rows = popup.page.getByRole('feed', { name: 'Notifications' }).getByRole('article');
    const secondsRows = rows.filter({ hasText: `for @${second.username}` });
    await expect.poll(() => secondsRows.count()).toBe(4);
    expect(await rows.filter({ hasText: 'for @demo' }).count()).toBeGreaterThan(0);
    await secondsRows.first().getByRole('button', { name: 'Mark read', exact: true }).click();
    await expect.poll(() => secondService.inbox.count()).toBe(3);
    expect(await service.client(product.demoToken).inbox.count()).toBe(demo);
    await expect.poll(() => product.badgeText()).toBe(String(demo + 3));
    await popup.button('Undo').click();
    await expect.poll(() => secondService.inbox.count()).toBe(4);
    // "Mark all read" is for one account's inbox: not offered while all are on show.
    expect(await popup.button('Mark all read').count()).toBe(0);

    await account(new RegExp(`^@${second.username}`)).click();
    await expect.poll(() => popup.rowTexts()).toHaveLength(4);
    expect(await rows.filter({ hasText: 'for @' }).count()).toBe(0);
    await popup.button('Mark all read').click();
    await expect.poll(() => popup.toast.innerText()).toContain(`All notifications of @${second.username} marked read.`);
    await expect.poll(() => secondService.inbox.count()).toBe(0);
    expect(await service.client(product.demoToken).inbox.count()).toBe(demo);
    await expect.poll(() => product.badgeText()).toBe(String(demo));
    await popup.button('Undo').click();
    await expect.poll(() => secondService.inbox.count()).toBe(4);
    await popup.page.close();
  });

  it('lets the in-page buttons act as either account on the same site', async () => {
    const { service } = product;
    const target = await service.newUser('target');
    const profile = new ProfilePage(await product.openPage(`${service.origin}/@${target.username}`));
    await profile.waitForControls();
    // Chromium's own frame locator: the choice is a native select.
    const choice = (profile.frame as unknown as FrameLocator).getByRole('combobox', { name: 'as' });
    expect(await choice.inputValue()).toBe(firstAccount);
    // With the choice the buttons need more room than the profile's header gives them on one
    // line: they wrap within the frame, and each is whole inside it.
    const frameBox = await (profile.page as unknown as Page).locator(BUTTONS_FRAME).boundingBox();
    for (const control of [choice, frameButton(profile, 'Unfollow|Follow'), frameButton(profile, 'Report')]) {
      const box = await control.boundingBox();
      if (!frameBox || !box) throw new Error('The buttons’ frame or a control in it has no box.');
      expect(box.x).toBeGreaterThanOrEqual(frameBox.x);
      expect(box.y).toBeGreaterThanOrEqual(frameBox.y);
      expect(box.x + box.width).toBeLessThanOrEqual(frameBox.x + frameBox.width + 0.5);
      expect(box.y + box.height).toBeLessThanOrEqual(frameBox.y + frameBox.height + 0.5);
    }
    await choice.selectOption({ label: `@${second.username}` });
    await profile.button('Follow').click();
    await expect.poll(async () => (await service.client(second.token).user(target.username)).following).toBe(true);
    expect((await service.client(product.demoToken).user(target.username)).following).toBe(false);
    await profile.page.close();
  });

  it('signs the first account out: the service refuses its token, the other account stays', async () => {
    const { service } = product;
    const token = await product.worker.evaluate(
      (id) =>
        new Promise<string | null>((resolve) => {
          const opening = indexedDB.open('inbox-companion');
          opening.onsuccess = () => {
            const read = opening.result.transaction('secrets').objectStore('secrets').get(`token:${id}`);
            read.onsuccess = () => resolve((read.result as { token?: string } | undefined)?.token ?? null);
          };
        }),
      firstAccount,
    );
    expect(token).not.toBeNull();
    await options.page
      .getByRole('button', { name: /^Sign out/ })
      .first()
      .click();
    await expect.poll(() => options.notice()).toContain('is signed out');
    await expect(service.client(token ?? '').inbox.count()).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect.poll(() => product.badgeText(), { timeout: 10_000 }).toBe('4');
  });
});
