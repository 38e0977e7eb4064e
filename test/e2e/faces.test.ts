import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatarColour, initialsOf } from '../../lib/avatar';
import { hasChromium, type Product, startProduct } from './support/product';
import { BUTTONS_FRAME } from './support/profile-page';

/**
 * People whose pictures the service gives as it is told: its own, a broken one, and two never to
 * load. Short names keep each of their rows to one line.
 */
const PEOPLE = {
  drawn: { displayName: 'Dot Dee' },
  broken: { displayName: 'Bo Bee', avatarUrl: '/pictures/nobody-here.png' },
  script: { displayName: 'Jo Jay', avatarUrl: 'javascript:fetch("/stolen")' },
  inline: {
    displayName: 'Di Inn',
    avatarUrl: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' width='8' height='8'/>",
  },
} as const;
type Who = keyof typeof PEOPLE;

/** What a face shows: its box, its initials, its colour, and its picture if it has one. */
interface FaceSeen {
  width: number;
  height: number;
  text: string;
  background: string;
  picture: {
    src: string;
    loaded: boolean;
    hidden: boolean;
    loading: string;
    decoding: string;
    referrer: string;
  } | null;
}

const seeFaces = (root: Element) =>
  [...root.querySelectorAll<HTMLElement>('.avatar')].map((face): FaceSeen => {
    const box = face.getBoundingClientRect();
    const img = face.querySelector('img');
    return {
      width: box.width,
      height: box.height,
      text: face.textContent ?? '',
      background: getComputedStyle(face).backgroundColor,
      picture: img && {
        src: img.getAttribute('src') ?? '',
        loaded: img.complete && img.naturalWidth > 0,
        hidden: img.hidden || !img.isConnected,
        loading: img.loading,
        decoding: img.decoding,
        referrer: img.referrerPolicy,
      },
    };
  });

/** The colour a browser computes from `avatarColour`, as `rgb(…)`. */
async function computedColour(page: Page, username: string): Promise<string> {
  return page.evaluate((colour) => {
    const probe = document.createElement('span');
    probe.style.background = colour;
    document.body.append(probe);
    const rgb = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return rgb;
  }, avatarColour(username));
}

describe.runIf(hasChromium)('faces in Chromium', () => {
  let product: Product;
  let popup: Page;
  const usernames = {} as Record<Who, string>;
  /** Every address the extension's pages asked for, with the Referer each was sent with. */
  const requested: { url: string; referer: string | undefined }[] = [];
  const asked = (pattern: RegExp) => requested.filter(({ url }) => pattern.test(url));

  const row = (who: Who) => popup.locator('article.item:not(.group)', { hasText: `${who} note` });

  beforeAll(async () => {
    product = await startProduct();
    const { service } = product;
    const now = Date.now();
    for (const [who, details] of Object.entries(PEOPLE) as [Who, (typeof PEOPLE)[Who]][]) {
      const username = `${who.slice(0, 2)}_${now.toString(36).slice(-4)}`;
      await service.server.admin.createUser({ username, ...details });
      usernames[who] = username;
    }
    const at = (seconds: number) => new Date(now - seconds * 1000).toISOString();
    await service.notify('demo', [
      // Three people liking one post: one row with their faces.
      ...(['drawn', 'broken', 'script'] as const).map((who, index) => ({
        type: 'like' as const,
        text: `${who} liked your post`,
        actor: usernames[who],
        path: '/posts/faces',
        createdAt: at(10 + index),
      })),
      // A notice from the service, of one line.
      { type: 'system' as const, text: 'Short notice', createdAt: at(5) },
      ...(Object.keys(PEOPLE) as Who[]).map((who, index) => ({
        type: 'mention' as const,
        text: `${who} note`,
        actor: usernames[who],
        createdAt: at(1 + index),
      })),
    ]);
    product.browser.context.on('request', (request) =>
      requested.push({ url: request.url(), referer: request.headers().referer }),
    );
    popup = await product.openPage('popup.html');
    await row('drawn').waitFor({ timeout: 10_000 });
  });
  afterAll(() => product?.close());

  it('shows each person’s picture on their row, round, small and at a fixed size, with no referrer', async () => {
    const drawn = (await row('drawn').evaluate(seeFaces))[0];
    const { avatarUrl } = await product.service.client(product.demoToken).user(usernames.drawn).get();
    expect(avatarUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/avatars\//);
    expect(drawn).toMatchObject({
      text: initialsOf(PEOPLE.drawn.displayName),
      picture: { src: avatarUrl, hidden: false, loading: 'lazy', decoding: 'async', referrer: 'no-referrer' },
    });
    expect(drawn?.width).toBe(drawn?.height);
    expect(drawn?.width).toBeGreaterThanOrEqual(24);
    expect(drawn?.width).toBeLessThanOrEqual(32);
    await expect.poll(async () => (await row('drawn').evaluate(seeFaces))[0]?.picture?.loaded).toBe(true);
    const pictures = asked(/\/avatars\//);
    expect(pictures.length).toBeGreaterThan(0);
    expect(pictures.filter(({ referer }) => referer)).toEqual([]);
  });

  it('shows the initials on the person’s colour when their picture fails to load', async () => {
    await expect.poll(async () => (await row('broken').evaluate(seeFaces))[0]?.picture?.hidden ?? true).toBe(true);
    const [broken] = await row('broken').evaluate(seeFaces);
    expect(broken?.text).toBe(initialsOf(PEOPLE.broken.displayName));
    expect(broken?.background).toBe(await computedColour(popup, usernames.broken));
    expect(asked(/\/pictures\/nobody-here\.png$/)).toHaveLength(1);
  });

  it('never loads a javascript: or data: address, and shows the initials instead', async () => {
    for (const who of ['script', 'inline'] as const) {
      const [face] = await row(who).evaluate(seeFaces);
      expect(face).toMatchObject({ text: initialsOf(PEOPLE[who].displayName), picture: null });
      expect(face?.background).toBe(await computedColour(popup, usernames[who]));
    }
    const sources = await popup.evaluate(() => [...document.images].map((img) => img.src));
    expect(sources.filter((src) => !/^https?:/.test(src))).toEqual([]);
    expect(asked(/^(javascript|data):/)).toEqual([]);
    expect(product.requests.some((line) => line.includes('/stolen'))).toBe(false);
  });

  it('lets the popup load pictures only from https and this computer, even one put there by hand', async () => {
    const loads = (src: string) =>
      popup.evaluate(
        (source) =>
          new Promise<boolean>((resolve) => {
            const img = new Image();
            img.onload = () => resolve(true);
            img.onerror = () => resolve(false);
            img.src = source;
          }),
        src,
      );
    const { avatarUrl } = await product.service.client(product.demoToken).user(usernames.drawn).get();
    expect(await loads(avatarUrl ?? '')).toBe(true);
    expect(await loads(PEOPLE.inline.avatarUrl)).toBe(false);
  });

  it('shows up to three overlapping faces on a grouped row, the newest person first', async () => {
    const group = popup.locator('article.item.group', { hasText: 'liked your post' }).first();
    const faces = await group.evaluate(seeFaces);
    expect(faces.map((face) => face.text)).toEqual(
      (['drawn', 'broken', 'script'] as const).map((who) => initialsOf(PEOPLE[who].displayName)),
    );
    const [first = 0, second = 0] = await group
      .locator('.avatar')
      .evaluateAll((all) => all.map((face) => face.getBoundingClientRect().x));
    expect(second - first).toBeLessThan(faces[0]?.width ?? 0);
    expect(second - first).toBeGreaterThan(0);
  });

  it('shows the person’s face on the profile buttons’ frame, and initials for one that may not load', async () => {
    const seen = async (who: Who) => {
      const page = await product.openPage(`${product.service.origin}/@${usernames[who]}`);
      const frame = page.frameLocator(BUTTONS_FRAME);
      await frame.getByRole('button', { name: 'Follow', exact: true }).waitFor({ timeout: 10_000 });
      if (PEOPLE[who].displayName === PEOPLE.drawn.displayName) {
        await expect
          .poll(async () => (await frame.locator('.bar').evaluate(seeFaces))[0]?.picture?.loaded, { timeout: 10_000 })
          .toBe(true);
      }
      const faces = await frame.locator('.bar').evaluate(seeFaces);
      await page.close();
      return faces;
    };
    const [drawn] = await seen('drawn');
    expect(drawn).toMatchObject({ text: initialsOf(PEOPLE.drawn.displayName), picture: { loaded: true } });
    expect(drawn?.width).toBeLessThanOrEqual(32);
    const [script] = await seen('script');
    expect(script).toMatchObject({ text: initialsOf(PEOPLE.script.displayName), picture: null });
    expect(asked(/^(javascript|data):/)).toEqual([]);
  });

  it('keeps the selection toolbar to one row, as tall as a notification of one line', async () => {
    const toolbar = popup.locator('fieldset.toolbar');
    const heights = async () => ({
      toolbar: await toolbar.evaluate((element) => element.getBoundingClientRect().height),
      row: await popup
        .locator('article.item', { hasText: 'Short notice' })
        .evaluate((element) => element.getBoundingClientRect().height),
    });
    const unselected = await heights();
    expect(unselected.toolbar).toBe(unselected.row);

    await row('drawn').getByRole('checkbox').check();
    await row('broken').getByRole('checkbox').check();
    await popup.getByText('2 selected').waitFor();
    const selected = await heights();
    expect(selected.toolbar).toBe(selected.row);
    expect(selected.row).toBe(unselected.row);
    // Every control on the one line, inside the toolbar's box.
    const outside = await toolbar.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return [...element.querySelectorAll('button, input, .selected-count')]
        .filter((control) => control.checkVisibility())
        .map((control) => control.getBoundingClientRect())
        .filter((rect) => rect.top < box.top || rect.bottom > box.bottom);
    });
    expect(outside).toEqual([]);
    for (const name of ['Mark selected read', 'Mark selected unread', 'Snooze selected', 'Delete selected']) {
      const button = popup.getByRole('button', { name, exact: true });
      expect(await button.getAttribute('title')).toBe(name);
    }
    expect(await popup.getByRole('checkbox', { name: 'Select all', exact: true }).isVisible()).toBe(true);

    // The whole inbox's actions wait in the More menu, under its button.
    await popup.getByRole('button', { name: 'More actions', exact: true }).click();
    await popup.getByRole('button', { name: 'Mark all read', exact: true }).waitFor();
    expect(await popup.getByRole('button', { name: 'Delete all', exact: true }).isVisible()).toBe(true);
    await popup.keyboard.press('Escape');
    await popup.getByRole('button', { name: 'Mark all read', exact: true }).waitFor({ state: 'hidden' });
    expect(await popup.getByText('2 selected').isVisible()).toBe(true);
    // An Escape the moment the menu opens, before its toggle event: it is the menu's, and the selection stays.
    const cleared = await popup.evaluate(() => {
      const more = document.querySelector('button[popovertarget]') as HTMLButtonElement;
      more.click();
      more.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
      (document.getElementById(more.getAttribute('popovertarget') ?? '') as HTMLElement).hidePopover();
      return document.querySelector('.selected-count') === null;
    });
    expect(cleared).toBe(false);
    expect(await popup.getByText('2 selected').isVisible()).toBe(true);
  });
});
