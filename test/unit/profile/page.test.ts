// @vitest-environment happy-dom
// @vitest-environment-options { "url": "http://127.0.0.1:8787/" }
import { waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchProfilePage } from '../../../lib/profile/page';

const config = {
  siteOrigin: 'http://127.0.0.1:8787',
  profilePath: '/@:username',
  profileAnchor: '[data-profile-actions]',
};

/** The reference service's profile section, as its page and its in-page navigation write it. */
function profileSection(username: string, anchor = true): string {
  return `<section id="profile"><h1>${username}</h1>${anchor ? '<div data-profile-actions></div>' : ''}</section>`;
}

/** What the site's script does on a `data-spa-link` click: new section, then a new URL. */
function navigate(username: string, anchor = true) {
  document.querySelector('#profile')?.remove();
  document.body.insertAdjacentHTML('afterbegin', profileSection(username, anchor));
  history.pushState(null, '', `/@${username}`);
}

let stop: AbortController;
let opened: { username: string; signal: AbortSignal }[];
let host: HTMLElement;
let showing: boolean;

function watch() {
  const page = watchProfilePage({
    document,
    config,
    host,
    signal: stop.signal,
    shown: () => showing,
    open: (username, signal) => opened.push({ username, signal }),
  });
  page.check();
  return page;
}

const hosts = () => document.querySelectorAll('test-buttons');
const anchor = () => document.querySelector('[data-profile-actions]');

beforeEach(() => {
  history.replaceState(null, '', '/');
  document.body.innerHTML = '';
  stop = new AbortController();
  opened = [];
  host = document.createElement('test-buttons');
  host.attachShadow({ mode: 'open' });
  showing = true;
});

afterEach(() => stop.abort());

describe('a page still being parsed', () => {
  it('waits for the anchor rather than floating, and floats once the page is parsed without one', () => {
    history.replaceState(null, '', '/@bob');
    let state: DocumentReadyState = 'loading';
    Object.defineProperty(document, 'readyState', { configurable: true, get: () => state });
    try {
      watch();
      expect(hosts()).toHaveLength(0);
      state = 'interactive';
      document.dispatchEvent(new Event('DOMContentLoaded'));
      expect(hosts()).toHaveLength(1);
      expect(host.hasAttribute('data-floating')).toBe(true);
    } finally {
      delete (document as { readyState?: unknown }).readyState;
    }
  });

  it('goes beside the anchor as soon as the parser has it', async () => {
    history.replaceState(null, '', '/@bob');
    Object.defineProperty(document, 'readyState', { configurable: true, get: () => 'loading' });
    try {
      watch();
      document.body.innerHTML = profileSection('bob');
      await waitFor(() => expect(anchor()?.nextSibling).toBe(host));
      expect(host.hasAttribute('data-floating')).toBe(false);
    } finally {
      delete (document as { readyState?: unknown }).readyState;
    }
  });
});

describe('a profile page with the anchor', () => {
  it('opens the profile named by the URL and attaches right after the anchor', () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = profileSection('bob');
    watch();
    expect(opened.map((o) => o.username)).toEqual(['bob']);
    expect(anchor()?.nextSibling).toBe(host);
    expect(host.hasAttribute('data-floating')).toBe(false);
  });

  it('adds nothing until there is something to show, and takes it off when there is not', () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = profileSection('bob');
    showing = false;
    const page = watch();
    expect(hosts()).toHaveLength(0);
    showing = true;
    page.check();
    expect(hosts()).toHaveLength(1);
    showing = false;
    page.check();
    expect(hosts()).toHaveLength(0);
  });

  it('never attaches twice, however often it is asked', () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = profileSection('bob');
    const page = watch();
    page.check();
    page.check();
    expect(hosts()).toHaveLength(1);
    expect(opened).toHaveLength(1);
  });

  it('re-attaches to a replacement anchor without a URL change, keeping one copy', async () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = profileSection('bob');
    watch();
    const old = anchor();
    document
      .querySelector('#profile')
      ?.replaceWith(document.createRange().createContextualFragment(profileSection('bob')));
    await waitFor(() => expect(anchor()?.nextSibling).toBe(host));
    expect(anchor()).not.toBe(old);
    expect(hosts()).toHaveLength(1);
    expect(opened).toHaveLength(1);
  });

  it('removes the empty copies a page makes when it clones its own DOM', async () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = profileSection('bob');
    watch();
    const section = document.querySelector('#profile') as Element;
    section.replaceWith(section.cloneNode(true));
    await waitFor(() => expect(anchor()?.nextSibling).toBe(host));
    expect(hosts()).toHaveLength(1);
  });

  it('comes back when the page removes it', async () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = profileSection('bob');
    watch();
    host.remove();
    await waitFor(() => expect(anchor()?.nextSibling).toBe(host));
  });

  it('does not trade removals forever with a page that takes it off whenever it appears', async () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = profileSection('bob');
    let removals = 0;
    const fighter = new MutationObserver(() => {
      if (host.isConnected) {
        host.remove();
        removals += 1;
      }
    });
    fighter.observe(document.body, { childList: true, subtree: true });
    watch();
    // A page and the buttons answering each other's mutations would never let this timer run.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(removals).toBeGreaterThan(0);
    expect(removals).toBeLessThan(10);
    fighter.disconnect();
    await waitFor(() => expect(anchor()?.nextSibling).toBe(host));
    expect(hosts()).toHaveLength(1);
  });
});

describe('a profile page without the anchor', () => {
  it('floats at the end of the body', () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = `${profileSection('bob', false)}<footer></footer>`;
    watch();
    expect(host.parentNode).toBe(document.body);
    expect(host.hasAttribute('data-floating')).toBe(true);
    expect(hosts()).toHaveLength(1);
  });

  it('moves beside the anchor once the page adds one', async () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = profileSection('bob', false);
    watch();
    document.querySelector('h1')?.insertAdjacentHTML('afterend', '<div data-profile-actions></div>');
    await waitFor(() => expect(anchor()?.nextSibling).toBe(host));
    expect(host.hasAttribute('data-floating')).toBe(false);
    expect(hosts()).toHaveLength(1);
  });

  it('floats when the configured selector is not valid CSS', () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = profileSection('bob');
    watchProfilePage({
      document,
      config: { ...config, profileAnchor: '[[nonsense' },
      host,
      signal: stop.signal,
      shown: () => true,
      open: () => {},
    }).check();
    expect(host.parentNode).toBe(document.body);
  });
});

describe('single-page navigation', () => {
  it('ends the old profile and opens the new one beside the new anchor', async () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = profileSection('bob');
    watch();
    navigate('alice');
    await waitFor(() => expect(opened.map((o) => o.username)).toEqual(['bob', 'alice']));
    expect(opened[0]?.signal.aborted).toBe(true);
    expect(opened[1]?.signal.aborted).toBe(false);
    await waitFor(() => expect(anchor()?.nextSibling).toBe(host));
    expect(document.querySelector('h1')?.textContent).toBe('alice');
    expect(hosts()).toHaveLength(1);
  });

  it('follows Back through popstate even when the page does not change its content', async () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = profileSection('bob');
    watch();
    history.pushState(null, '', '/@alice');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(opened.map((o) => o.username)).toEqual(['bob', 'alice']);
  });

  it('reads the same profile under another spelling as the same profile', () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = profileSection('bob');
    const page = watch();
    history.replaceState(null, '', '/@BOB');
    page.check();
    expect(opened).toHaveLength(1);
  });

  it('stays quiet on pages that are not profile pages, then starts on navigating to one', async () => {
    history.replaceState(null, '', '/inbox');
    document.body.innerHTML = '<main id="profile"></main>';
    watch();
    expect(opened).toEqual([]);
    expect(hosts()).toHaveLength(0);
    navigate('bob');
    await waitFor(() => expect(anchor()?.nextSibling).toBe(host));
    expect(opened.map((o) => o.username)).toEqual(['bob']);
  });

  it('takes the buttons off when navigating away from profile pages', async () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = profileSection('bob');
    watch();
    document.querySelector('#profile')?.remove();
    history.pushState(null, '', '/settings');
    document.body.append(document.createElement('main'));
    await waitFor(() => expect(opened[0]?.signal.aborted).toBe(true));
    expect(hosts()).toHaveLength(0);
  });
});

describe('the end of the content script', () => {
  it('takes everything off the page and stops following it', async () => {
    history.replaceState(null, '', '/@bob');
    document.body.innerHTML = profileSection('bob');
    watch();
    stop.abort();
    expect(hosts()).toHaveLength(0);
    expect(opened[0]?.signal.aborted).toBe(true);
    navigate('alice');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await Promise.resolve();
    expect(opened).toHaveLength(1);
    expect(hosts()).toHaveLength(0);
  });
});
