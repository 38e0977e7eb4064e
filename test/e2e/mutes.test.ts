import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './support/browsers';
import { received, restartService, waitingChanges } from './support/offline';
import { PopupPage } from './support/popup-page';
import { type E2EProduct, startProduct } from './support/product';
import { ProfilePage } from './support/profile-page';
import { waitUntil } from './support/wait';

/** Loads the page again, as its reload button does, and waits for the buttons of the new load. */
async function reload(profile: ProfilePage) {
  type Marked = { loadedBefore?: boolean };
  await profile.page.evaluate(() => {
    (window as Marked).loadedBefore = true;
  });
  await profile.page.evaluate(() => location.reload()).catch(() => undefined);
  await waitUntil('the page to load again', 10_000, async () =>
    profile.page.evaluate(() => (window as Marked).loadedBefore === undefined).catch(() => false),
  );
  await profile.waitForControls();
}

describe.each(BROWSERS)('mutes and search in %s', (browser) => {
  let product: E2EProduct;
  let popup: PopupPage;

  const demo = () => product.service.client(product.demoToken);

  beforeAll(async () => {
    product = await startProduct({ browser });
    popup = new PopupPage(await product.openPage('popup.html'));
    await popup.waitForRows();
  });
  afterAll(() => product?.close());

  it('muting a row’s person takes their rows and their unread ones off the badge at once; Undo brings them back', async () => {
    const unread = await demo().inbox.count();
    await expect.poll(() => product.badgeText()).toBe(String(unread));
    const { data } = await demo().inbox.fetch({ limit: 25 });
    const actor = data.find((item) => item.actor && !item.read)?.actor?.username ?? '';
    const theirs = data.filter((item) => item.actor?.username === actor);
    const row = popup.page.locator(`article[data-id="${theirs[0]?.id}"]`);

    await row.getByRole('button', { name: 'Mute' }).click();
    await popup.page.getByRole('menuitem', { name: `Mute @${actor}` }).click();
    await popup.page.getByRole('menuitem', { name: 'For 1 day' }).click();

    for (const item of theirs) await expect.poll(() => popup.rowTexts()).not.toContain(item.text);
    await expect.poll(() => popup.toast.innerText()).toMatch(new RegExp(`Muted @${actor}`));
    const muted = await demo().inbox.count();
    expect(muted).toBeLessThan(unread);
    await expect.poll(() => product.badgeText()).toBe(muted === 0 ? '' : String(muted));
    expect((await demo().inbox.mutes.list()).map((mute) => mute.actor)).toEqual([actor]);

    await popup.toast.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => popup.rowTexts()).toContain(theirs[0]?.text);
    await expect.poll(() => product.badgeText()).toBe(String(unread));
    expect(await demo().inbox.mutes.list()).toEqual([]);
  });

  it('a search with an accent finds the row and marks the word; Esc brings the whole list back', async () => {
    await product.service.notify('demo', [
      { type: 'mention', text: 'Jürgen mentioned you: the Müller café opens at nine' },
    ]);
    const word = 'MULLER';
    const box = popup.page.locator('input[type="search"][aria-label="Search notifications"]');
    await popup.page.keyboard.press('/');
    await expect.poll(() => box.evaluate((input) => input === document.activeElement)).toBe(true);
    await box.fill(word);
    await expect.poll(() => popup.rowTexts()).toContain('Jürgen mentioned you: the Müller café opens at nine');
    for (const text of await popup.rowTexts()) expect(text).toMatch(/Müller/);
    await expect.poll(() => popup.page.locator('article.item mark').first().textContent()).toBe('Müller');
    await box.fill('qqqzzzxxx');
    await popup.heading("No notification matches 'qqqzzzxxx'").waitFor();
    await popup.page.keyboard.press('Escape');
    await expect.poll(async () => (await popup.rowTexts()).length).toBeGreaterThan(1);
  });

  it('Mute on a profile page, beside Follow, takes the person’s unread ones off the badge at once and leaves following them', async () => {
    await product.service.deliver({
      username: 'demo',
      type: 'mention',
      text: 'carol asks about the venue',
      actor: 'carol',
    });
    if (!(await demo().user('carol').get()).following) await demo().user('carol').follow();
    await product.pollNow();
    const unread = await demo().inbox.count();
    await expect.poll(() => product.badgeText()).toBe(String(unread));

    const profile = new ProfilePage(await product.openPage(`${product.service.origin}/@carol`));
    await profile.waitForControls();
    await profile.button('Unfollow').waitFor();
    await profile.button('Mute').click();
    await profile.button('Unmute').waitFor();
    await expect
      .poll(() => profile.controls.getByRole('status').textContent())
      .toBe("@carol is muted: their notifications wait in the popup's Muted view.");

    const muted = await demo().inbox.count();
    expect(muted).toBeLessThan(unread);
    await expect.poll(() => product.badgeText()).toBe(muted === 0 ? '' : String(muted));
    expect((await demo().user('carol').get()).following).toBe(true);
    const [mute] = await demo().inbox.mutes.list();
    expect(mute?.actor).toBe('carol');
    await profile.page.close();

    await demo().inbox.mutes.remove(mute?.id ?? '');
    await expect.poll(() => product.badgeText()).toBe(String(unread));
  });

  it('a person muted on their profile page is still shown muted when the page is loaded again, and Unmute brings their notifications back', async () => {
    const text = 'dave says the build is green';
    await product.service.deliver({ username: 'demo', type: 'mention', text, actor: 'dave' });
    await product.pollNow();
    const unread = await demo().inbox.count();
    await expect.poll(() => product.badgeText()).toBe(String(unread));
    const profile = new ProfilePage(await product.openPage(`${product.service.origin}/@dave`));
    await profile.waitForControls();
    await profile.button('Mute').click();
    await profile.button('Unmute').waitFor();
    expect((await demo().inbox.mutes.list()).map((mute) => mute.actor)).toEqual(['dave']);
    await expect.poll(() => product.badgeText()).toBe(String(unread - 1));

    await reload(profile);
    await profile.button('Unmute').waitFor();
    expect(await profile.button('Mute').count()).toBe(0);
    if (browser === 'chromium') {
      // A worker started since knows nothing of the mute but what the service says.
      await product.browser.stopBackground();
      await reload(profile);
      await profile.button('Unmute').waitFor();
    }

    // The pointer left where the reload found it: a person's comes to the button from elsewhere.
    await profile.page.locator('h1').hover();
    await profile.button('Unmute').click();
    await profile.button('Mute').waitFor();
    await expect
      .poll(() => profile.controls.getByRole('status').textContent())
      .toBe('@dave is no longer muted: their notifications are back in the inbox.');
    expect(await demo().inbox.mutes.list()).toEqual([]);
    expect((await demo().inbox.fetch({ limit: 100 })).data.map((item) => item.text)).toContain(text);
    await expect.poll(() => product.badgeText()).toBe(String(unread));
    await reload(profile);
    await profile.button('Mute').waitFor();
    await profile.page.close();
  });

  it('Mute on a profile page while the service cannot be reached shows the person muted, and is made once when it is back', async () => {
    const profile = new ProfilePage(await product.openPage(`${product.service.origin}/@grace`));
    await profile.waitForControls();
    const mutesBefore = received(product, 'POST', '/api/inbox/mutes').length;
    await product.stopService();
    await profile.button('Mute').click();
    await profile.button('Unmute').waitFor();
    await expect
      .poll(() => profile.controls.getByRole('status').textContent())
      .toBe("Will be sent when you're back online");
    expect((await waitingChanges(product.worker)).map((change) => change.kind)).toEqual(['mute']);

    await restartService(product);
    await product.pollNow();
    await waitUntil('the outbox to be sent', 20_000, async () => (await waitingChanges(product.worker)).length === 0);
    expect(received(product, 'POST', '/api/inbox/mutes')).toHaveLength(mutesBefore + 1);
    const mutes = await demo().inbox.mutes.list();
    expect(mutes.map((mute) => mute.actor)).toEqual(['grace']);
    // Unmute removes the mute the service made, which the worker now knows.
    await profile.button('Unmute').click();
    await profile.button('Mute').waitFor();
    await expect.poll(async () => (await demo().inbox.mutes.list()).length).toBe(0);
    await profile.page.close();
  });

  it('a mute removed in the popup’s Muted view no longer shows on the person’s profile', async () => {
    const profile = new ProfilePage(await product.openPage(`${product.service.origin}/@erin`));
    await profile.waitForControls();
    await profile.button('Mute').click();
    await profile.button('Unmute').waitFor();
    const [mute] = await demo().inbox.mutes.list();
    expect(mute?.actor).toBe('erin');
    const muted = new PopupPage(await product.openPage('popup.html'));
    await muted.page.getByRole('tab', { name: 'Muted' }).click();
    await muted.page.getByRole('button', { name: 'Remove the mute of @erin' }).click();
    await expect.poll(async () => (await demo().inbox.mutes.list()).map((each) => each.id)).toEqual([]);
    await muted.page.close();
    await reload(profile);
    await profile.button('Mute').waitFor();
    expect(await profile.button('Unmute').count()).toBe(0);
    await profile.page.close();
  });

  it('holding back people not followed, on the options page, takes a stranger’s notification away; Show brings it back', async () => {
    if ((await demo().user('bob').get()).following) await demo().user('bob').unfollow();
    const text = 'bob, whom you do not follow, mentioned you';
    await product.service.deliver({ username: 'demo', type: 'mention', text, actor: 'bob' });
    await product.pollNow();
    const unread = await demo().inbox.count();
    await expect.poll(() => product.badgeText()).toBe(String(unread));

    const options = await product.openPage('options.html');
    const hold = options.getByRole('radio', { name: 'Hold back', exact: true });
    await hold.click();
    await expect.poll(async () => (await demo().inbox.policy()).strangers).toBe('mute');
    const held = await demo().inbox.count();
    expect(held).toBeLessThan(unread);
    await expect.poll(() => product.badgeText()).toBe(held === 0 ? '' : String(held));
    const hidden = new PopupPage(await product.openPage('popup.html'));
    await hidden.page.getByRole('tab', { name: 'Muted' }).click();
    await expect.poll(() => hidden.page.getByText(text).count()).toBeGreaterThan(0);
    await hidden.page.close();

    await options.getByRole('radio', { name: 'Show', exact: true }).click();
    await expect.poll(async () => (await demo().inbox.policy()).strangers).toBe('accept');
    await expect.poll(() => product.badgeText()).toBe(String(unread));
    const shown = new PopupPage(await product.openPage('popup.html'));
    await shown.waitForRows();
    await expect.poll(() => shown.rowTexts()).toContain(text);
    await shown.page.close();
    await options.close();
  });
});
