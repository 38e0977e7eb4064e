/**
 * `npm run screenshots`: pictures of the product as a person sees it, taken from the
 * end-to-end fixture (the reference service with demo data, Chromium with the extension
 * signed in as demo), into docs/screenshots/.
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'wxt';
import { OptionsPage } from '../test/e2e/support/options-page';
import { PopupPage } from '../test/e2e/support/popup-page';
import { startProduct } from '../test/e2e/support/product';
import { ProfilePage } from '../test/e2e/support/profile-page';

const OUT = resolve('docs/screenshots');
await mkdir(OUT, { recursive: true });
await build({ mode: 'e2e' });
const product = await startProduct();
const saved: string[] = [];

/** Waits until every picture on the page, in its frames too, has loaded or failed: faces come lazily. */
async function picturesSettled(page: Page) {
  for (const frame of page.frames()) {
    await frame
      .waitForFunction(() => [...document.images].every((img) => img.complete), undefined, { timeout: 5_000 })
      .catch(() => undefined);
  }
}

async function shoot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await picturesSettled(page);
  const path = resolve(OUT, `${name}.png`);
  await page.screenshot({ path, ...options });
  saved.push(path);
}

try {
  for (const scheme of ['light', 'dark'] as const) {
    const page = await product.browser.context.newPage();
    await page.setViewportSize({ width: 400, height: 600 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(product.browser.pageUrl('popup.html'));
    const popup = new PopupPage(page);
    await popup.waitForRows();
    await popup.select(1);
    await popup.select(2);
    await shoot(page, `popup-${scheme}`);
    if (scheme === 'light') {
      await popup.button('Mark selected read').click();
      await page.getByRole('button', { name: 'Undo' }).waitFor();
      await shoot(page, 'popup-undo');
      await popup.rows.first().getByRole('button', { name: 'Snooze' }).click();
      await page.getByRole('menu', { name: 'Snooze until' }).waitFor();
      await shoot(page, 'popup-snooze');
      await page.keyboard.press('Escape');
    }
    await page.close();
  }

  // A second account, added with a pasted token as a person with a work account would.
  const work = await product.service.newUser('work', { displayName: 'Work' });
  await product.service.fillInbox(work.username, 6, { read: false });
  const optionsPage = await product.browser.context.newPage();
  await optionsPage.setViewportSize({ width: 760, height: 900 });
  await optionsPage.goto(product.browser.pageUrl('options.html'));
  const options = new OptionsPage(optionsPage);
  await options.button('Add account').click();
  await optionsPage.getByText('Use a token instead').click();
  await options.fill({ apiBaseUrl: product.service.apiBaseUrl, siteOrigin: product.service.origin, token: work.token });
  await options.button('Add with this token').click();
  await options.waitForNotice(`Signed in as @${work.username}.`);
  await shoot(optionsPage, 'options', { fullPage: true });
  await optionsPage.close();

  const accounts = await product.browser.context.newPage();
  await accounts.setViewportSize({ width: 400, height: 600 });
  await accounts.goto(product.browser.pageUrl('popup.html'));
  await new PopupPage(accounts).waitForRows();
  await accounts.getByRole('group', { name: 'Accounts' }).getByRole('button', { name: /^All/ }).waitFor();
  await shoot(accounts, 'popup-accounts');
  await accounts.close();

  const profile = new ProfilePage(await product.browser.context.newPage());
  await profile.page.setViewportSize({ width: 900, height: 640 });
  await profile.page.goto(`${product.service.origin}/@alice`);
  await profile.waitForControls();
  await shoot(profile.page, 'profile-buttons');
  await profile.button('Report').click();
  await profile.dialog.waitFor();
  await profile.dialog.getByRole('radio', { name: 'Spam' }).check();
  await profile.dialog.getByRole('textbox').fill('Posts the same link under every post.');
  await shoot(profile.page, 'profile-report-dialog');
} finally {
  await product.close();
}
for (const path of saved) process.stdout.write(`${path}\n`);
