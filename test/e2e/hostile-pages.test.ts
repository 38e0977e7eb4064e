import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTED_MS } from '../../lib/profile/click-guard';
import { BROWSERS } from './support/browsers';
import { type HostileSite, profileHtml, startHostileSite } from './support/hostile-site';
import { type E2EProduct, type Product, startProduct } from './support/product';
import { BUTTONS_FRAME, ProfilePage } from './support/profile-page';

/** The content script's own JavaScript world in a page, reached through the DevTools protocol. */
async function contentScriptWorld(
  page: Page,
): Promise<{ cdp: CDPSession; evaluate(expression: string): Promise<unknown> }> {
  const cdp = await page.context().newCDPSession(page);
  const worlds: { id: number; name: string; type?: string }[] = [];
  cdp.on('Runtime.executionContextCreated', ({ context }) =>
    worlds.push({ id: context.id, name: context.name, type: context.auxData?.type }),
  );
  await cdp.send('Runtime.enable');
  const deadline = Date.now() + 10_000;
  let world = worlds.find((w) => w.type === 'isolated' && w.name === 'Inbox Companion');
  while (!world && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    world = worlds.find((w) => w.type === 'isolated' && w.name === 'Inbox Companion');
  }
  if (!world) throw new Error(`no content script world among ${JSON.stringify(worlds)}`);
  const contextId = world.id;
  return {
    cdp,
    async evaluate(expression) {
      const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
        expression,
        contextId,
        awaitPromise: true,
        returnByValue: true,
      });
      if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
      return result.value;
    },
  };
}

const answer = (value: unknown) => JSON.stringify(value);

/**
 * One service and one browser of each kind for every page below: first pages on the service’s
 * own site, then, with the account’s site moved to another origin, pages that fight the buttons
 * and pages that disguise them.
 */
describe.each(BROWSERS)('the in-page buttons against hostile pages, in %s', (browser) => {
  let product: E2EProduct;
  let hostile: HostileSite;

  beforeAll(async () => {
    product = await startProduct({ browser });
    hostile = await startHostileSite();
  });
  afterAll(async () => {
    await hostile?.close();
    await product?.close();
  });

  const apiRequestsSince = (from: number) => product.requests.slice(from).filter((line) => line.includes('/api/'));

  it('gives a web page no way to send the extension a message', async () => {
    const page = await product.openPage(`${product.service.origin}/@alice`);
    await new ProfilePage(page).waitForControls();
    const reach = await page.evaluate((id) => {
      const runtime = (globalThis as { chrome?: { runtime?: { sendMessage?: unknown; connect?: unknown } } }).chrome
        ?.runtime;
      let connected = 'no connect';
      try {
        if (typeof runtime?.connect === 'function')
          connected = String((runtime.connect as (id: string) => unknown)(id));
      } catch (error) {
        connected = `refused: ${(error as Error).message}`;
      }
      return { sendMessage: typeof runtime?.sendMessage, connected };
    }, product.browser.extensionId);
    expect(reach.sendMessage).toBe('undefined');
    expect(reach.connected).not.toMatch(/^\[object/);
    await page.close();
  });

  it('gives a page on another origin no buttons, and the service hears nothing', async () => {
    hostile.page('/@alice', profileHtml('alice'));
    const from = product.requests.length;
    const page = await product.openPage(`${hostile.origin}/@alice`);
    await page.waitForLoadState('load');
    await page.waitForTimeout(500);
    expect(await page.locator('inbox-companion-profile').count()).toBe(0);
    expect(apiRequestsSince(from)).toEqual([]);
    await page.close();
  });

  it('runs nothing a user wrote into their profile, and the buttons still work there', async () => {
    const payload = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    const { username } = await product.service.newUser('payload', {
      displayName: payload,
      bio: `${payload}<a href="javascript:window.__pwned=3">x</a>`,
    });
    const profile = new ProfilePage(await product.openPage(`${product.service.origin}/@${username}`));
    await profile.waitForControls();
    await profile.button('Follow').click();
    await profile.button('Unfollow').waitFor();
    expect(await profile.page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await profile.page.locator('img[src="x"]').count()).toBe(0);
    await profile.page.close();
  });

  /**
   * What the content script itself may do, tried from inside its own world. Chromium only: the
   * DevTools protocol reaches that world, WebDriver BiDi in Firefox does not reach a content
   * script's sandbox.
   */
  describe.runIf(browser === 'chromium')('the content script’s own world', () => {
    /** Chromium’s pages, which are Playwright’s and reach the DevTools protocol. */
    const openPage = (path: string) => (product as Product).openPage(path);

    it('keeps the token out of the content script’s world, and refuses what it asks beyond profiles', async () => {
      const page = await openPage(`${product.service.origin}/@alice`);
      await new ProfilePage(page).waitForControls();
      const world = await contentScriptWorld(page);
      const storage = await world.evaluate(
        `chrome.storage.local.get('token').then((v) => 'read ' + JSON.stringify(v), (e) => 'refused: ' + e.message)`,
      );
      expect(storage).toMatch(/^refused: /);
      const asks = await world.evaluate(`Promise.all([
        ['accounts.signOut', { account: 'account-1' }],
        ['inbox.delete', { ids: 'all' }],
        ['connection.test', { apiBaseUrl: 'http://127.0.0.1:9/api', token: null }],
        ['status.get', undefined],
      ].map(([type, data]) => chrome.runtime.sendMessage({
        id: 1, type, data, timestamp: Date.now(),
        sender: { id: chrome.runtime.id, url: chrome.runtime.getURL('/popup.html') },
      }).then((answer) => JSON.stringify(answer))))`);
      expect(asks).toHaveLength(4);
      for (const answer of asks as string[]) expect(answer).toMatch(/"code":"forbidden"/);
      expect(answer(asks)).not.toContain(product.demoToken);
      expect(await product.service.client(product.demoToken).inbox.count()).toBeGreaterThan(0);
      await world.cdp.detach();
      await page.close();
    });

    it('gives a page on another origin no buttons and no answers, though the script runs there', async () => {
      hostile.page('/@alice', profileHtml('alice'));
      const from = product.requests.length;
      const page = await openPage(`${hostile.origin}/@alice`);
      const world = await contentScriptWorld(page);
      const config = await world.evaluate(
        `chrome.runtime.sendMessage({ id: 1, type: 'profile.start', data: { url: location.href }, timestamp: Date.now() })
          .then((answer) => JSON.stringify(answer))`,
      );
      expect(config).toMatch(/"code":"forbidden"/);
      expect(await page.locator('inbox-companion-profile').count()).toBe(0);
      expect(apiRequestsSince(from)).toEqual([]);
      await world.cdp.detach();
      await page.close();
    });

    describe('a page that scripts the buttons', () => {
      /** The follow and report calls the service answered since `from`, as `METHOD /path STATUS`. */
      const actionsSince = (from: number) =>
        apiRequestsSince(from)
          .filter((line) => /\/(follow|report) /.test(line))
          .map((line) => line.split(' ').slice(0, 3).join(' '));
      const relation = async (username: string) =>
        (await product.service.client(product.demoToken).user(username)).following;
      const reportsOf = async (username: string) => {
        const { rows } = await product.service.server.database.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM reports r JOIN users u ON u.id = r.reported_id WHERE u.username = $1',
          [username],
        );
        return rows[0]?.n;
      };
      /** Runs in the page's own world, as the page's script: it reaches what it can through the host. */
      const inPage = <R = string>(page: Page, script: string) =>
        page.evaluate(`(async () => {
          const host = document.querySelector('inbox-companion-profile');
          const root = host?.shadowRoot;
          const frame = root?.querySelector('iframe');
          if (!frame) return 'no frame';
          ${script}
        })()`) as Promise<R>;

      it('finds nothing of the buttons’ state to read: not through the host, not inside the frame', async () => {
        const { username } = await product.service.newUser('watched');
        await product.service.client(product.demoToken).user(username).follow();
        const profile = new ProfilePage(await openPage(`${product.service.origin}/@${username}`));
        await profile.waitForControls();
        await profile.button('Unfollow').waitFor();
        const seen = await inPage<string[]>(
          profile.page,
          `const reads = [root.textContent, document.body.innerText, document.documentElement.outerHTML];
          for (const read of [() => frame.contentDocument?.body?.innerText, () => frame.contentWindow.document.body.innerText,
            () => [...root.querySelectorAll('button')].map((b) => b.textContent).join(' ')]) {
            try { reads.push(String(read() ?? '')); } catch (error) { reads.push('refused'); }
          }
          return reads;`,
        );
        expect(seen).toContain('refused');
        for (const text of seen) {
          expect(text).not.toMatch(/\b(Unfollow|Follow|Report)\b/);
        }
        // Nor does the frame's size, which the page can read, tell whether the person follows.
        const size = () =>
          inPage(profile.page, 'const box = frame.getBoundingClientRect(); return box.width + "x" + box.height;');
        const following = await size();
        await profile.button('Unfollow').click();
        await profile.button('Follow').waitFor();
        expect(await size()).toBe(following);
        await profile.page.close();
      });

      it('cannot act through the frame: messages to it, its own copies of it, another src and pushState change nothing', async () => {
        const { username } = await product.service.newUser('framed');
        const other = await product.service.newUser('other');
        const from = product.requests.length;
        const profile = new ProfilePage(await openPage(`${product.service.origin}/@${username}`));
        await profile.waitForControls();
        const ran = await inPage(
          profile.page,
          `const forged = [
            { id: 1, type: 'profile.follow', data: '${username}', timestamp: Date.now() },
            { id: 2, type: 'profile.report', data: { username: '${username}', reason: 'spam', comment: 'x' }, timestamp: 1 },
            { type: 'inbox-companion:layout', shown: true, modal: true, width: 5000, height: 5000 },
            { username: '${other.username}' }, 'click', null,
          ];
          for (const message of forged) frame.contentWindow.postMessage(message, '*');
          // Copies of the frame the page makes itself, one told another profile in its address.
          const copies = [frame.src, frame.src + '?username=${other.username}#@${other.username}'].map((src) => {
            const copy = document.createElement('iframe');
            copy.src = src;
            copy.className = 'copy';
            document.body.append(copy);
            return new Promise((resolve) => copy.addEventListener('load', resolve, { once: true }));
          });
          await Promise.all(copies);
          for (const copy of document.querySelectorAll('iframe.copy')) {
            for (const message of forged) copy.contentWindow.postMessage(message, '*');
            copy.contentWindow.postMessage({ type: 'inbox-companion:claim', claim: 'guessed' }, '*');
          }
          frame.contentWindow.postMessage({ type: 'inbox-companion:claim', claim: 'guessed' }, '*');
          history.pushState(null, '', '/@${other.username}');
          history.pushState(null, '', '/@${username}');
          frame.src = frame.src.replace('profile-frame.html', 'popup.html');
          return 'ran';`,
        );
        expect(ran).toBe('ran');
        const copies = await Promise.all(
          (await profile.page.locator('iframe.copy').elementHandles()).map((copy) => copy.contentFrame()),
        );
        expect(copies.map((copy) => copy?.url())).toEqual([
          expect.stringMatching(/\/profile-frame\.html$/),
          expect.stringMatching(/\/profile-frame\.html\?username=/),
        ]);
        expect(apiRequestsSince(from).some((line) => line.includes(`/user/${other.username}`))).toBe(false);
        expect(actionsSince(from)).toEqual([]);
        // The page's copies never learnt the content script's claim: they show nothing, and may do nothing.
        for (const copy of copies) expect(await copy?.evaluate(() => document.body.innerText.trim())).toBe('');
        await profile.page.evaluate(() => {
          for (const copy of document.querySelectorAll('iframe.copy')) copy.remove();
        });
        // The person's own click, in the frame the buttons put there, is the only action.
        await profile.page.evaluate((to) => history.pushState(null, '', `/@${to}`), other.username);
        await profile.page.evaluate((to) => history.pushState(null, '', `/@${to}`), username);
        await profile.waitForControls();
        await profile.button('Follow').click();
        await profile.button('Unfollow').waitFor();
        expect(actionsSince(from)).toEqual([`POST /api/user/${username}/follow 204`]);
        expect(await relation(other.username)).toBe(false);
        expect(await reportsOf(username)).toBe(0);
        await profile.page.close();
      });

      it('acts on no click through a transparent layer the page lays over the buttons from the top layer', async () => {
        const { username } = await product.service.newUser('covered');
        const from = product.requests.length;
        const profile = new ProfilePage(await openPage(`${product.service.origin}/@${username}`));
        await profile.waitForControls();
        // A layer at the highest z-index is drawn under the buttons, which are in the top layer: it
        // hides nothing, and covers nothing. Only a dialog or popover the page opens after them can.
        const covered = await inPage(
          profile.page,
          `for (const [id, popover] of [['under', false], ['cover', true]]) {
            const cover = document.createElement('div');
            cover.id = id;
            cover.popover = popover ? 'manual' : null;
            Object.assign(cover.style, {
              position: 'fixed', inset: '0', width: '100vw', height: '100vh', margin: '0', border: '0',
              background: 'rgba(255, 255, 255, 0.01)', pointerEvents: 'none', zIndex: '2147483647',
            });
            if (!popover) cover.removeAttribute('popover');
            document.body.append(cover);
            if (popover) cover.showPopover();
          }
          return 'covered';`,
        );
        expect(covered).toBe('covered');
        // The person rests the pointer on what they see and clicks: the click reaches the button, which
        // the browser reports covered, so it only asks for another.
        await profile.button('Follow').click();
        await expect.poll(() => profile.frame.locator('button[data-again]').count()).toBe(1);
        expect(actionsSince(from)).toEqual([]);
        expect(await relation(username)).toBe(false);
        await profile.page.evaluate(() => document.getElementById('cover')?.remove());
        await profile.button('Follow').click();
        await profile.button('Unfollow').waitFor();
        expect(actionsSince(from)).toEqual([`POST /api/user/${username}/follow 204`]);
        await profile.page.close();
      });

      it('acts on no profile when the page changes its URL to another profile under an open report', async () => {
        const shown = await product.service.newUser('shown');
        const swapped = await product.service.newUser('swapped');
        const from = product.requests.length;
        const profile = new ProfilePage(await openPage(`${product.service.origin}/@${shown.username}`));
        await profile.waitForControls();
        await profile.button('Report').click();
        await profile.dialog.getByRole('radio', { name: 'Spam' }).click();
        await profile.page.evaluate((to) => history.pushState(null, '', `/@${to}`), swapped.username);
        // The buttons follow the URL to the other profile; the report for the first is gone with its frame.
        await expect
          .poll(() => apiRequestsSince(from).some((line) => line.startsWith(`GET /api/user/${swapped.username} `)))
          .toBe(true);
        await profile.waitForControls();
        expect(await profile.dialog.count()).toBe(0);
        await profile.page.evaluate((to) => history.pushState(null, '', `/@${to}`), shown.username);
        await expect.poll(() => apiRequestsSince(from).filter((line) => line.includes(shown.username)).length).toBe(2);
        await profile.waitForControls();
        await profile.button('Follow').click();
        await profile.button('Unfollow').waitFor();
        expect(actionsSince(from)).toEqual([`POST /api/user/${shown.username}/follow 204`]);
        expect(await relation(swapped.username)).toBe(false);
        expect(await reportsOf(shown.username)).toBe(0);
        expect(await reportsOf(swapped.username)).toBe(0);
        await profile.page.close();
      });
    });
  });

  describe('on a site of its own', () => {
    beforeAll(async () => {
      await product.worker.evaluate(async (siteOrigin) => {
        const { accounts } = await chrome.storage.local.get('accounts');
        const [account] = accounts as { siteOrigin: string }[];
        await chrome.storage.local.set({ accounts: [{ ...account, siteOrigin }] });
      }, hostile.origin);
    });

    describe('a site that fights them', () => {
      async function open(username: string, extra: string) {
        hostile.page(`/@${username}`, profileHtml(username, extra));
        const profile = new ProfilePage(await product.openPage(`${hostile.origin}/@${username}`));
        await profile.waitForControls();
        return profile;
      }

      it('keeps its look and works when the page restyles everything, the host included', async () => {
        const css = `<style>
          inbox-companion-profile { all: unset !important; font-size: 40px !important; color: rgb(255, 0, 0) !important; }
          * { font-family: monospace !important; color: rgb(255, 0, 0) !important; }
          button { font-size: 40px !important; color: rgb(255, 0, 0) !important; display: none !important; }
        </style>`;
        const { username } = await product.service.newUser('styled');
        const profile = await open(username, css);
        const style = await profile.button('Follow').evaluate((button) => {
          const s = getComputedStyle(button);
          return { color: s.color, fontSize: s.fontSize, display: s.display };
        });
        expect(style.color).not.toBe('rgb(255, 0, 0)');
        expect(style.fontSize).not.toBe('40px');
        expect(style.display).not.toBe('none');
        await profile.button('Follow').click();
        await profile.button('Unfollow').waitFor();
        await profile.button('Unfollow').click();
        await profile.button('Follow').waitFor();
        await profile.page.close();
      });

      it('comes back once when the page removes it, and never twice', async () => {
        const remover = `<script>
          window.removals = 0;
          setInterval(() => {
            const host = document.querySelector('inbox-companion-profile');
            if (host && window.removals < 3) { host.remove(); window.removals++; }
          }, 100);
        </script>`;
        const profile = await open('bob', remover);
        await expect
          .poll(() => profile.page.evaluate(() => (window as { removals?: number }).removals), { timeout: 10_000 })
          .toBe(3);
        await profile.waitForControls();
        expect(await profile.hosts.count()).toBe(1);
        await profile.page.close();
      });

      it('leaves the page responsive, with at most one copy, when the page removes it every time it appears', async () => {
        // The buttons may be in place before this script runs (they come as soon as the anchor is
        // parsed): it removes any copy already there as well as every later one.
        const fighter = `<script>
          window.removals = 0;
          const removeAll = () => {
            for (const host of document.querySelectorAll('inbox-companion-profile')) { host.remove(); window.removals++; }
          };
          removeAll();
          new MutationObserver(removeAll).observe(document.documentElement, { childList: true, subtree: true });
        </script>`;
        hostile.page('/@carol', profileHtml('carol', fighter));
        const page = await product.openPage(`${hostile.origin}/@carol`);
        await expect
          .poll(() => page.evaluate(() => (window as { removals?: number }).removals ?? 0), { timeout: 10_000 })
          .toBeGreaterThan(0);
        const ticks = await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              let n = 0;
              const timer = setInterval(() => {
                n++;
                if (n === 5) {
                  clearInterval(timer);
                  resolve(n);
                }
              }, 20);
            }),
        );
        expect(ticks).toBe(5);
        expect(await page.locator('inbox-companion-profile').count()).toBeLessThanOrEqual(1);
        await page.close();
      });

      it('stays one working copy when the page copies its own markup over and over', async () => {
        const cloner = `<script>
          let copies = 0;
          const timer = setInterval(() => {
            const main = document.querySelector('main');
            main.innerHTML = main.innerHTML;
            if (++copies === 5) {
              clearInterval(timer);
              document.documentElement.dataset.copies = 'done';
            }
          }, 150);
        </script>`;
        const profile = await open('dave', cloner);
        // Each copy puts in a new frame; the one to click is the one after the last copy.
        await expect
          .poll(() => profile.page.evaluate(() => document.documentElement.dataset.copies), { timeout: 10_000 })
          .toBe('done');
        expect(await profile.page.evaluate(() => document.querySelectorAll('main h1').length)).toBe(1);
        await expect.poll(() => profile.hosts.count(), { timeout: 10_000 }).toBe(1);
        await profile.waitForControls();
        await profile.button('Report').click();
        await profile.dialog.getByRole('button', { name: 'Cancel' }).click();
        await profile.page.close();
      });

      it('still adds its buttons when the page has claimed the host element’s name for itself', async () => {
        const squatter = `<script>
          customElements.define('inbox-companion-profile', class extends HTMLElement {
            constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<b>taken</b>'; }
          });
        </script>`;
        hostile.page('/@alice', profileHtml('alice', '').replace('<body>', `<body>${squatter}`));
        const profile = new ProfilePage(await product.openPage(`${hostile.origin}/@alice`));
        await profile.waitForControls();
        expect(await profile.controls.count()).toBe(1);
        await profile.button('Report').click();
        await profile.dialog.getByRole('button', { name: 'Cancel' }).click();
        await profile.page.close();
      });
    });

    /**
     * A page that disguises the buttons: their frame sits in the top layer, out of reach of the
     * page's own styles, but the page can still restyle the frame's elements through the host's open
     * shadow root, zoom the whole page, open a layer of its own over it, or move it under the pointer.
     */
    describe('a page that disguises them', () => {
      /** The follows, mutes and reports the service answered since `from`. */
      const actions = (from: number) =>
        product.requests
          .slice(from)
          .filter((line) => /^(POST|DELETE) \/api\/(user\/[^/]+\/(follow|report)|inbox\/mutes)/.test(line));

      /**
       * A person's click on the Follow button where the page shows it, after the pointer rested
       * there: the drivers' own clicks place the pointer as if the frame were not shrunk or turned.
       */
      async function restedClickOnFollow(profile: ProfilePage, turned: boolean) {
        const [across, down] = await profile.button('Follow').evaluate((button) => {
          const box = button.getBoundingClientRect();
          return [(box.x + box.width / 2) / innerWidth, (box.y + box.height / 2) / innerHeight];
        });
        const box = await profile.page
          .locator(BUTTONS_FRAME)
          .evaluate((frame) => frame.getBoundingClientRect().toJSON());
        const at = (start: number, length: number, share: number) => start + length * (turned ? 1 - share : share);
        await profile.page.mouse.move(at(box.x, box.width, across), at(box.y, box.height, down));
        await profile.page.waitForTimeout(RESTED_MS + 100);
        await profile.page.mouse.down();
        await profile.page.mouse.up();
      }

      /**
       * The page's script: once the buttons' frame is there, and again for each new frame, runs
       * `work` (a function body with `host`, `layer` and `frame`) until it says it is done.
       */
      const onButtons = (work: string) => `<script>
        setInterval(() => {
          const host = document.querySelector('inbox-companion-profile');
          const frame = host?.shadowRoot?.querySelector('iframe');
          const layer = frame?.parentElement;
          if (frame && !frame.dataset.done && ((host, layer, frame) => { ${work} })(host, layer, frame)) {
            frame.dataset.done = 'yes';
          }
        }, 50);
      </script>`;

      async function open(work: string) {
        const { username } = await product.service.newUser('disguised');
        hostile.page(`/@${username}`, profileHtml(username, onButtons(work)));
        const profile = new ProfilePage(await product.openPage(`${hostile.origin}/@${username}`));
        await profile.waitForControls();
        await expect
          .poll(() =>
            profile.page.evaluate(
              () =>
                document.querySelector('inbox-companion-profile')?.shadowRoot?.querySelector('iframe')?.dataset.done ??
                '',
            ),
          )
          .toBe('yes');
        return profile;
      }

      it.each([
        ['made nearly transparent', `frame.style.opacity = '0.3'; return true;`],
        ['faded with filter: opacity()', `frame.style.filter = 'opacity(0.2)'; return true;`],
        ['shrunk', `frame.style.transformOrigin = '0 0'; frame.style.transform = 'scale(0.3)'; return true;`],
        ['shrunk with the whole page', `document.documentElement.style.zoom = '0.3'; return true;`],
        ['clipped to a sliver', `frame.style.clipPath = 'inset(45% 0 45% 0)'; return true;`],
        ['turned upside down', `frame.style.transform = 'rotate(180deg)'; return true;`],
        [
          'covered by a popover of the page’s own that lets clicks through',
          `if (!layer.matches(':popover-open')) return false;
          const cover = document.createElement('div');
          cover.popover = 'manual';
          cover.style.cssText = 'position: fixed; inset: 0; width: 100vw; height: 100vh; margin: 0; border: 0; ' +
            'background: rgba(255, 255, 255, 0.9); pointer-events: none';
          cover.textContent = 'Click anywhere to win';
          document.body.append(cover);
          cover.showPopover();
          return true;`,
        ],
      ])('acts on no rested click on a frame %s, and on the key that the person presses', async (_, work) => {
        const from = product.requests.length;
        const profile = await open(work);
        await restedClickOnFollow(profile, work.includes('rotate'));
        await expect.poll(() => profile.frame.locator('button[data-again]').count()).toBe(1);
        await profile.page.waitForTimeout(300);
        expect(actions(from)).toEqual([]);
        // Nothing the page does keeps the person from the buttons: the keyboard always acts.
        await profile.button('Follow').focus();
        await profile.page.keyboard.press('Enter');
        await profile.button('Unfollow').waitFor();
        expect(actions(from)).toHaveLength(1);
        await profile.page.close();
      });

      it('acts on no rested click on a frame the page squeezes to less room than its buttons need', async () => {
        const profile = await open(`document.querySelector('main').style.width = '80px'; return true;`);
        const from = product.requests.length;
        const box = await profile.page
          .locator(BUTTONS_FRAME)
          .evaluate((frame) => frame.getBoundingClientRect().toJSON());
        expect(box.width).toBeLessThanOrEqual(80);
        // What shows of the Follow button: the buttons wrap, each wider than the frame.
        const follow = await profile.button('Follow').evaluate((button) => button.getBoundingClientRect().toJSON());
        await profile.page.mouse.move(
          box.x + Math.min(follow.x + 20, box.width - 4),
          box.y + follow.y + follow.height / 2,
        );
        await profile.page.waitForTimeout(RESTED_MS + 100);
        await profile.page.mouse.down();
        await profile.page.mouse.up();
        await expect.poll(() => profile.frame.locator('button[data-again]').count()).toBe(1);
        await profile.page.waitForTimeout(300);
        expect(actions(from)).toEqual([]);
        await profile.button('Follow').focus();
        await profile.page.keyboard.press('Enter');
        await profile.button('Unfollow').waitFor();
        expect(actions(from)).toHaveLength(1);
        await profile.page.close();
      });

      it('acts on no click on a frame the page moves under a moving pointer, and on the next after a rest', async () => {
        // The page keeps the Follow button under the pointer wherever it goes on the page.
        const profile = await open(`
          addEventListener('mousemove', (event) => {
            const main = document.querySelector('main');
            const box = frame.getBoundingClientRect();
            main.style.position = 'relative';
            main.style.left = (parseFloat(main.style.left) || 0) + event.clientX - (box.left + 60) + 'px';
            main.style.top = (parseFloat(main.style.top) || 0) + event.clientY - (box.top + box.height / 2) + 'px';
          });
          return true;`);
        const from = product.requests.length;
        const box = await profile.page.locator(BUTTONS_FRAME).evaluate((frame) => {
          const { x, y } = frame.getBoundingClientRect();
          return { x, y };
        });
        await profile.page.mouse.move(box.x + 300, box.y + 200);
        await profile.page.mouse.move(box.x + 340, box.y + 240, { steps: 4 });
        await profile.page.mouse.down();
        await profile.page.mouse.up();
        await expect.poll(() => profile.frame.locator('button[data-again]').count()).toBe(1);
        await profile.page.waitForTimeout(300);
        expect(actions(from)).toEqual([]);
        // Now the frame stays where the pointer is: the person sees the button under it, and a click
        // after a rest acts.
        await profile.page.waitForTimeout(RESTED_MS + 100);
        await profile.page.mouse.down();
        await profile.page.mouse.up();
        await profile.button('Unfollow').waitFor();
        expect(actions(from)).toHaveLength(1);
        await profile.page.close();
      });
    });
  });
});
