import { createHash } from 'node:crypto';
import { Window } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GALLERY_LAYOUTS, type GalleryLayout } from '../../server/site/gallery';
import { BACKENDS, startTestService, type TestService } from '../support/service';
import { authorizeParams, newPkce } from './support/oauth';

const scriptHash = (html: string) => {
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  return `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
};

describe.each(BACKENDS)('web site on %s', (backend) => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ backend });
  });
  afterAll(() => service?.close());

  const page = (path: string) => fetch(`${service.origin}${path}`, { headers: { accept: 'text/html' } });

  it('serves a profile page with name, bio, counts, join date and the actions element', async () => {
    const ada = await service.newUser('ada', { displayName: 'Ada Lovelace', bio: 'Analytical engines.' });
    const fan = await service.newUser('fan');
    await fan.client.user(ada.username).follow();
    const response = await page(`/@${ada.username}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html; charset=UTF-8/i);
    const html = await response.text();
    const { document } = new Window({ url: `${service.origin}/@${ada.username}` });
    document.write(html);
    const profile = document.querySelector('#profile');
    expect(profile?.getAttribute('data-username')).toBe(ada.username);
    expect(profile?.querySelector('.display-name')?.textContent).toBe('Ada Lovelace');
    expect(profile?.querySelector('.username')?.textContent).toBe(`@${ada.username}`);
    expect(profile?.querySelector('.bio')?.textContent).toBe('Analytical engines.');
    expect(profile?.querySelector('[data-count="followers"]')?.textContent).toBe('1');
    expect(profile?.querySelector('[data-count="following"]')?.textContent).toBe('0');
    expect(profile?.querySelector('.joined time')?.getAttribute('datetime')).toMatch(/^\d{4}-/);
    const actions = document.querySelectorAll('[data-profile-actions]');
    expect(actions).toHaveLength(1);
    expect(actions[0]?.parentElement?.querySelector('.display-name')).toBeTruthy();
    expect(document.title).toBe(`Ada Lovelace (@${ada.username}) · Inbox Companion demo`);
  });

  it('finds the page in any letter case and answers unknown users with a 404 HTML page', async () => {
    const user = await service.newUser('MixedCase');
    expect((await page(`/@${user.username.toUpperCase()}`)).status).toBe(200);
    for (const path of ['/@nobody_here', '/@', '/@bad-name', `/@${'x'.repeat(31)}`]) {
      const response = await page(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toContain('Not found');
    }
    expect(await (await page('/@nobody_here')).text()).toContain('There is no user called @nobody_here.');
  });

  it('shows a name from the path on the 404 page only when it could be a username', async () => {
    const names = ['x'.repeat(8 * 1024), 'admin\u202egnp.exe', 'p\u0430ypal', '<b>bold</b>', 'bad-name'];
    for (const name of names) {
      const response = await page(`/@${encodeURIComponent(name)}`);
      expect(response.status, name).toBe(404);
      const html = await response.text();
      expect(html).toContain('There is no such user.');
      expect(html).not.toContain(name.slice(0, 40));
      expect(html).not.toContain(encodeURIComponent(name).slice(0, 40));
      expect(html).not.toContain('\u202e');
    }
  });

  it('escapes everything users wrote', async () => {
    const evil = await service.newUser('evil', {
      displayName: '<img src=x onerror=alert(1)>',
      bio: '"><script>alert(2)</script>&amp;',
    });
    const html = await (await page(`/@${evil.username}`)).text();
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>alert(2)');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;&amp;amp;');
    const list = await (await page('/')).text();
    expect(list).not.toContain('<img src=x');
    expect(list).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('sends a strict Content-Security-Policy that allows exactly the page script', async () => {
    const user = await service.newUser('csp');
    const response = await page(`/@${user.username}`);
    const csp = response.headers.get('content-security-policy') ?? '';
    const html = await response.text();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src ${scriptHash(html)}`);
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends the sign-in page and its error page under a CSP that runs no script and frames nowhere', async () => {
    const params = authorizeParams(newPkce());
    const form = await page(`/oauth/authorize?${params}`);
    params.set('client_id', 'unknown');
    const refused = await page(`/oauth/authorize?${params}`);
    expect([form.status, refused.status]).toEqual([200, 400]);
    for (const response of [form, refused]) {
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const html = await response.text();
      expect(html).not.toContain('<script');
      expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    }
    expect(form.headers.get('content-security-policy')).toContain(
      "form-action 'self' https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org",
    );
    expect(refused.headers.get('content-security-policy')).toContain("form-action 'none'");
  });

  it('links to the people the user follows first, and to others, as in-page links', async () => {
    const me = await service.newUser('linker');
    const followed = await service.newUser('zz_followed');
    await me.client.user(followed.username).follow();
    const html = await (await page(`/@${me.username}`)).text();
    const { document } = new Window({ url: `${service.origin}/@${me.username}` });
    document.write(html);
    const links = [...document.querySelectorAll('nav a[data-spa-link]')].map((a) => a.getAttribute('href'));
    expect(links[0]).toBe(`/@${followed.username}`);
    expect(links.length).toBeGreaterThan(1);
    expect(links).not.toContain(`/@${me.username}`);
  });

  it('lists the users at / with links to their pages', async () => {
    const user = await service.newUser('listed', { displayName: 'Listed Person' });
    const response = await page('/');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`href="/@${user.username}"`);
    expect(html).toContain('Listed Person');
    expect(html).toContain(`${service.apiBaseUrl}/openapi.json`);
  });

  it('shows a profile in each of the gallery’s layouts, listed at /gallery, and ignores any other layout', async () => {
    const user = await service.newUser('gallery');
    const gallery = await page('/gallery');
    expect(gallery.status).toBe(200);
    const { document } = new Window({ url: `${service.origin}/gallery` });
    document.write(await gallery.text());
    const links = [...document.querySelectorAll('main li a')].map((a) => a.getAttribute('href') ?? '');
    expect(links.map((href) => href.replace(/^.*\?layout=/, ''))).toEqual(Object.keys(GALLERY_LAYOUTS));
    const plain = await (await page(`/@${user.username}`)).text();
    for (const [name, look] of Object.entries(GALLERY_LAYOUTS) as [string, GalleryLayout][]) {
      const response = await page(`/@${user.username}?layout=${name}`);
      expect(response.status, name).toBe(200);
      const html = await response.text();
      if (look.css) expect(html, name).toContain(`<style>${look.css}</style>`);
      if (look.html) expect(html, name).toContain(look.html);
      expect(html.includes('dir="rtl"'), name).toBe(look.rtl === true);
      // The same page, with the same one script the policy allows.
      expect(html, name).toContain('data-profile-actions');
      expect(scriptHash(html), name).toBe(scriptHash(plain));
    }
    for (const other of ['nothing', '__proto__', 'toString', '<script>alert(1)</script>']) {
      const response = await page(`/@${user.username}?layout=${encodeURIComponent(other)}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(plain);
    }
  });

  it('navigates in place: a click re-renders the profile from the API, pushes history, and Back re-renders', async () => {
    const start = await service.newUser('spa_start', { displayName: 'Start Person', bio: 'first' });
    const next = await service.newUser('spa_next', { displayName: 'Next Person', bio: 'second' });
    await start.client.user(next.username).follow();
    await next.client.user(start.username).follow();
    const window = new Window({
      url: `${service.origin}/@${start.username}`,
      settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true },
    });
    const { document } = window;
    document.write(await (await page(`/@${start.username}`)).text());
    const rendered = (name: string) =>
      new Promise<void>((resolve) => {
        const observer = new window.MutationObserver(() => {
          if (document.querySelector('#profile .display-name')?.textContent === name) {
            observer.disconnect();
            resolve();
          }
        });
        observer.observe(document.body, { childList: true, subtree: true });
      });
    const firstActions = document.querySelector('[data-profile-actions]');
    firstActions?.append(document.createElement('button'));

    const link = document.querySelector(`a[data-spa-link][href="/@${next.username}"]`) as unknown as HTMLElement;
    const shown = rendered('Next Person');
    link.click();
    await shown;
    expect(window.location.pathname).toBe(`/@${next.username}`);
    expect(document.querySelector('#profile')?.getAttribute('data-username')).toBe(next.username);
    expect(document.querySelector('#profile .bio')?.textContent).toBe('second');
    expect(document.querySelector('[data-count="followers"]')?.textContent).toBe('1');
    const actions = document.querySelectorAll('[data-profile-actions]');
    expect(actions).toHaveLength(1);
    expect(actions[0]).not.toBe(firstActions);
    expect(actions[0]?.children).toHaveLength(0);
    expect(document.title).toBe(`Next Person (@${next.username}) · Inbox Companion demo`);
    expect(document.querySelector(`a[href="/@${next.username}"]`)?.getAttribute('aria-current')).toBe('page');

    const back = rendered('Start Person');
    window.history.back();
    await back;
    expect(window.location.pathname).toBe(`/@${start.username}`);
    expect(document.querySelector('#profile .bio')?.textContent).toBe('first');
    await window.happyDOM.close();
  });
});
