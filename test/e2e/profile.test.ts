import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './support/browsers';
import { type E2EProduct, startProduct } from './support/product';
import { BUTTONS_FRAME, ProfilePage } from './support/profile-page';

describe.each(BROWSERS)('in-page buttons on profile pages in %s', (browser) => {
  let product: E2EProduct;

  beforeAll(async () => {
    product = await startProduct({ browser });
  });
  afterAll(() => product?.close());

  async function open(username: string) {
    const profile = new ProfilePage(await product.openPage(`${product.service.origin}/@${username}`));
    await profile.waitForControls();
    return profile;
  }

  const demo = () => product.service.client(product.demoToken);

  it('appear once, beside the profile, and follow an in-page URL change', async () => {
    const profile = await open('alice');
    expect(await profile.hosts.count()).toBe(1);
    const target = (await profile.page.locator('a[data-spa-link]').first().getAttribute('href'))?.slice(2) ?? '';
    await profile.navigateInPage(target);
    await profile.waitForControls();
    await expect.poll(() => profile.hosts.count()).toBe(1);
    const following = (await demo().user(target).get()).following;
    await expect.poll(() => profile.button(following ? 'Unfollow' : 'Follow').isVisible()).toBe(true);
    await profile.page.goBack();
    await expect.poll(() => profile.page.url()).toMatch(/@alice$/);
    await expect.poll(() => profile.hosts.count()).toBe(1);
    await profile.page.close();
  });

  it('hold the buttons’ room from the moment their frame is placed, so nothing on the page moves when they come', async () => {
    const profile = await open('alice');
    const target = (await profile.page.locator('a[data-spa-link]').first().getAttribute('href'))?.slice(2) ?? '';
    // What the page sees, in order: the frame's size each time it changes, and the frame's word
    // that its buttons are drawn (its layout, which the page hears too).
    await profile.page.evaluate(`(() => {
      const seen = (window.__seen = []);
      const host = document.querySelector('inbox-companion-profile');
      const note = () => {
        const frame = host.shadowRoot.querySelector('iframe');
        if (!frame || !host.isConnected || host.hasAttribute('data-loading')) return;
        const box = frame.getBoundingClientRect();
        const size = box.width + '×' + box.height;
        if (!seen.includes(size)) seen.push(size);
      };
      for (const node of [host.shadowRoot, host, document.body]) {
        new MutationObserver(note).observe(node, { subtree: true, childList: true, attributes: true });
      }
      window.addEventListener('message', ({ data }) => {
        if (data && data.type === 'inbox-companion:layout' && data.shown && !seen.includes('drawn')) seen.push('drawn');
      });
    })()`);
    await profile.navigateInPage(target);
    await profile.waitForControls();
    await expect.poll(() => profile.page.evaluate<string[]>('window.__seen')).toContain('drawn');
    const size = await profile.page
      .locator(BUTTONS_FRAME)
      .evaluate((frame) => `${frame.getBoundingClientRect().width}×${frame.getBoundingClientRect().height}`);
    expect(await profile.page.evaluate<string[]>('window.__seen')).toEqual([size, 'drawn']);
    await profile.page.close();
  });

  it('follow: the service records it and the button flips; unfollow undoes it', async () => {
    const { username } = await product.service.newUser('writer', { displayName: 'A Writer' });
    const profile = await open(username);
    await profile.button('Follow').click();
    await profile.button('Unfollow').waitFor();
    expect((await demo().user(username).get()).following).toBe(true);
    await profile.button('Unfollow').click();
    await profile.button('Follow').waitFor();
    expect((await demo().user(username).get()).following).toBe(false);
    await profile.page.close();
  });

  it('adopts the true state when the page was out of date (already following)', async () => {
    const { username } = await product.service.newUser('painter');
    const profile = await open(username);
    await profile.button('Follow').waitFor();
    await demo().user(username).follow();
    await profile.button('Follow').click();
    await profile.button('Unfollow').waitFor();
    expect(await profile.page.getByRole('alert').count()).toBe(0);
    await profile.page.close();
  });

  it('reports with reason and comment, and the service holds the report', async () => {
    const { username } = await product.service.newUser('spammer');
    const profile = await open(username);
    await profile.button('Report').click();
    await profile.dialog.getByRole('radio', { name: 'Spam' }).check();
    await profile.dialog.getByRole('textbox', { name: 'Details (optional)' }).fill('Posts the same link everywhere.');
    await profile.dialogButton('Send report').click();
    await expect.poll(() => profile.dialog.textContent()).toMatch(/received/i);
    const { rows } = await product.service.server.database.query<{ reason: string; comment: string }>(
      'SELECT r.reason, r.comment FROM reports r JOIN users u ON u.id = r.reported_id WHERE u.username = $1',
      [username],
    );
    expect(rows).toEqual([{ reason: 'spam', comment: 'Posts the same link everywhere.' }]);
    await profile.page.close();
  });

  it('holds the same room on the person’s own profile as on anyone’s, with nothing to click, and adds nothing for an unknown user', async () => {
    const size = (profile: ProfilePage) =>
      profile.page.locator(BUTTONS_FRAME).evaluate((frame) => `${frame.offsetWidth}×${frame.offsetHeight}`);
    const other = await open('alice');
    const room = await size(other);
    await other.navigateInPage('demo');
    await other.waitForControls();
    await expect.poll(() => size(other)).toBe(room);
    expect(await other.hosts.count()).toBe(1);
    await other.page.close();

    const own = await open('demo');
    expect(await size(own)).toBe(room);
    expect(await own.button('Follow').isVisible()).toBe(false);
    expect(await own.button('Report').isVisible()).toBe(false);
    // Muting yourself is refused by the service: there is nothing to mute or unmute here.
    expect(await own.button('Mute').isVisible()).toBe(false);
    expect(await own.button('Unmute').isVisible()).toBe(false);
    await own.page.close();

    // A muted person's profile takes the same room: the page cannot learn whom the person muted.
    const muting = await open('alice');
    await muting.button('Mute').click();
    await muting.button('Unmute').waitFor();
    await muting.page.close();
    const muted = await open('alice');
    await muted.button('Unmute').waitFor();
    await expect.poll(() => size(muted)).toBe(room);
    await muted.button('Unmute').click();
    await muted.button('Mute').waitFor();
    expect(await demo().inbox.mutes.list()).toEqual([]);
    await muted.page.close();

    const unknown = await product.openPage(`${product.service.origin}/@nobody_here`);
    await unknown.waitForLoadState('load');
    await unknown.waitForTimeout(500);
    expect(await unknown.locator('inbox-companion-profile').count()).toBe(0);
    await unknown.close();
  });
});
