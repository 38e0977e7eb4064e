/**
 * `npm run screenshots`: pictures of the product as a person sees it, taken from the
 * end-to-end fixture (the reference service with demo data, Chromium with the extension
 * signed in as demo), into docs/screenshots/.
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { build } from 'wxt';
import { type PriorityModel, personKey, priorityKey } from '../lib/priority/model';
import { OptionsPage } from '../test/e2e/support/options-page';
import { PopupPage } from '../test/e2e/support/popup-page';
import { E2E_ACCOUNT, startProduct } from '../test/e2e/support/product';
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

async function shoot(page: Page, name: string, options: { fullPage?: boolean; only?: Locator } = {}) {
  await picturesSettled(page);
  const path = resolve(OUT, `${name}.png`);
  const { only, ...whole } = options;
  await (only ? only.screenshot({ path }) : page.screenshot({ path, ...whole }));
  saved.push(path);
}

/** Each picture opens the popup as a person would a minute after the last one: no Undo on offer from it. */
async function forgetUndo() {
  await product.worker.evaluate(() => chrome.storage.session.remove('lastUndo'));
}

try {
  for (const scheme of ['light', 'dark'] as const) {
    await forgetUndo();
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

  // What priority learns of a person who follows two of the people in their inbox (as the in-page
  // buttons report it) and opened three of a third one's soon after they came: the Priority view
  // lists theirs, each saying why, and the options page what was learned.
  const demo = product.service.client(product.demoToken);
  const { data: newest } = await demo.inbox.fetch({ limit: 25 });
  const [first, second, third] = [...new Set(newest.flatMap((item) => (item.actor ? [item.actor.username] : [])))];
  if (!first || !second || !third) throw new Error('The demo inbox has notifications from fewer than three people.');
  const model: PriorityModel = {
    people: {
      [personKey(first)]: { open: [3, Date.now()] },
      [personKey(second)]: { follow: true },
      [personKey(third)]: { follow: true, act: [0.5, Date.now()] },
    },
    threads: {},
  };
  await product.worker.evaluate(([key, value]) => chrome.storage.local.set({ [key]: value }), [
    priorityKey(E2E_ACCOUNT).key.replace(/^local:/, ''),
    model,
  ] as const);
  const prioritised = await product.browser.context.newPage();
  await prioritised.setViewportSize({ width: 400, height: 600 });
  await prioritised.goto(product.browser.pageUrl('popup.html'));
  await new PopupPage(prioritised).waitForRows();
  await prioritised.getByRole('tab', { name: 'Priority' }).click();
  await prioritised.locator('article .reason').first().waitFor();
  await shoot(prioritised, 'popup-priority');
  await prioritised.close();

  // The first row's person muted for a day, as the row's Mute menu does: the Muted view lists the
  // mute and what it holds back, and the options page the mute beside the strangers setting.
  const { data } = await demo.inbox.fetch({ limit: 1, unreadOnly: true });
  const person = data[0]?.actor?.username;
  if (!person) throw new Error('The demo inbox has no unread notification from a person to mute.');
  await demo.inbox.mutes.add({ actor: person }, new Date(Date.now() + 86_400_000));
  await forgetUndo();
  const muted = await product.browser.context.newPage();
  await muted.setViewportSize({ width: 400, height: 600 });
  await muted.goto(product.browser.pageUrl('popup.html'));
  await new PopupPage(muted).waitForRows();
  await muted.getByRole('tab', { name: 'Muted' }).click();
  await muted.getByRole('list', { name: 'Mutes in force' }).waitFor();
  await muted.getByRole('list', { name: 'Muted notifications' }).getByRole('listitem').first().waitFor();
  await shoot(muted, 'popup-muted');
  await muted.close();

  // A second account, added with a pasted token as a person with a work account would.
  const work = await product.service.newUser('work', { displayName: 'Work' });
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
  await product.service.notify(work.username, [
    {
      type: 'mention',
      actor: 'grace',
      text: 'Grace Liu mentioned you: “@work the new colours pass contrast now”',
      createdAt: minutesAgo(3),
    },
    {
      type: 'reply',
      actor: 'dave',
      text: 'Dave Kim replied to your post: “Deployed, and the queue is empty”',
      createdAt: minutesAgo(12),
    },
    { type: 'follow', actor: 'li_wei', text: 'Li Wei followed you', createdAt: minutesAgo(40) },
    {
      type: 'mention',
      actor: 'priya',
      text: 'Priya Raman mentioned you: “@work can you review the robots’ lesson plan?”',
      createdAt: minutesAgo(75),
    },
    {
      type: 'like',
      actor: 'kenji',
      text: 'Kenji Sato liked your post “Release notes for March”',
      createdAt: minutesAgo(130),
    },
    { type: 'system', text: 'Maintenance tonight from 22:00 to 22:30', createdAt: minutesAgo(200) },
  ]);
  const optionsPage = await product.browser.context.newPage();
  await optionsPage.setViewportSize({ width: 760, height: 900 });
  await optionsPage.goto(product.browser.pageUrl('options.html'));
  const options = new OptionsPage(optionsPage);
  await options.button('Add account').click();
  await optionsPage.getByText('Use a token instead').click();
  await options.fill({ apiBaseUrl: product.service.apiBaseUrl, siteOrigin: product.service.origin, token: work.token });
  await options.button('Add with this token').click();
  await options.waitForNotice(`Signed in as @${work.username}.`);
  const controls = optionsPage.locator('section.inbox-controls').first();
  await controls.getByRole('button', { name: `Remove the mute of @${person}` }).waitFor();
  await shoot(optionsPage, 'options', { fullPage: true });
  await shoot(optionsPage, 'options-strangers', { only: controls });
  await shoot(optionsPage, 'options-priority', { only: optionsPage.locator('section.priority-section') });
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
  // The same buttons on a gallery page whose card is turned a little (`server/site/gallery.ts`).
  const gallery = new ProfilePage(await product.browser.context.newPage());
  await gallery.page.setViewportSize({ width: 900, height: 640 });
  await gallery.page.goto(`${product.service.origin}/@alice?layout=rotated`);
  await gallery.waitForControls();
  await shoot(gallery.page, 'profile-gallery');
  await gallery.page.close();
  await profile.button('Report').click();
  await profile.dialog.waitFor();
  await profile.dialog.getByRole('radio', { name: 'Spam' }).check();
  await profile.dialog.getByRole('textbox').fill('Posts the same link under every post.');
  await shoot(profile.page, 'profile-report-dialog');
} finally {
  await product.close();
}
for (const path of saved) process.stdout.write(`${path}\n`);
