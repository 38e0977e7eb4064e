// @vitest-environment happy-dom
// @vitest-environment-options { "url": "http://127.0.0.1:8787/@bob" }
import { waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ContentScriptContext } from 'wxt/utils/content-script-context';
import definition from '../../../entrypoints/profile.content/index';
import type { MessageType } from '../../../lib/messaging';
import { HOST_TAG } from '../../../lib/profile/shadow-host';
import { type ProfileBackground, profileBackground } from './profile-background';

const background: { current: ProfileBackground | null } = { current: null };

/**
 * The content script's messages reach the background of the test as the browser carries them,
 * through `runtime.sendMessage`: the answer's value, or the error's fields as a handler sends them.
 */
function answerTheContentScript() {
  const runtime = fakeBrowser.runtime as unknown as {
    sendMessage: (message: { type: MessageType; data: unknown }) => Promise<unknown>;
  };
  runtime.sendMessage = async ({ type, data }) => {
    const ask = background.current?.ask as ((type: MessageType, data: unknown) => Promise<unknown>) | undefined;
    try {
      return { res: await ask?.(type, data) };
    } catch (error) {
      return { err: { ...(error as object), message: (error as Error).message } };
    }
  };
}

const contexts: ContentScriptContext[] = [];
function inject() {
  const ctx = new ContentScriptContext('profile', definition);
  contexts.push(ctx);
  return definition.main(ctx);
}

/**
 * The content script's host elements: named by their tag, or by a name of their own where the
 * page has taken the tag (as the last test does, for every test after it on the same page).
 */
const hosts = () =>
  [...document.body.querySelectorAll('*')].filter(
    (element) => element.localName === HOST_TAG || element.localName.startsWith(`${HOST_TAG}-`),
  );

/** The buttons' frames the content script put into the page. */
const frames = () => hosts().flatMap((host) => [...(host.shadowRoot?.querySelectorAll('iframe') ?? [])]);

const browserCss = globalThis.CSS;

beforeEach(() => {
  // happy-dom has no top layer: the frame goes in its host, as in a browser without anchor positioning.
  vi.stubGlobal('CSS', { supports: () => false });
  background.current = profileBackground();
  answerTheContentScript();
  document.body.innerHTML = '<section><h1>bob</h1><div data-profile-actions></div></section>';
});

afterEach(() => {
  vi.stubGlobal('CSS', browserCss);
  for (const ctx of contexts.splice(0)) ctx.abort();
});

describe('the profile content script', () => {
  it('is registered at run time only, so the manifest gets no entry or host permission from it', () => {
    expect(definition.registration).toBe('runtime');
    expect(definition.matches).toBeUndefined();
  });

  it('adds the buttons’ frame once, beside the anchor, even when injected twice into the same page', async () => {
    await inject();
    await waitFor(() => expect(hosts()).toHaveLength(1));
    await inject();
    await waitFor(() => expect(background.current?.sent().filter((t) => t === 'profile.start')).toHaveLength(2));
    await waitFor(() => expect(frames()).toHaveLength(1));
    expect(frames()[0]?.src).toMatch(/^chrome-extension:\/\/[^/]+\/profile-frame\.html$/);
    expect(frames()[0]?.title).toBe('Inbox Companion: follow or report @bob');
    expect(document.querySelector('[data-profile-actions]')?.nextSibling).toBe(hosts()[0]);
    expect(hosts()).toHaveLength(1);
    expect(contexts[0]?.isValid).toBe(false);
  });

  it('keeps the frame hidden until the frame itself, not the page, says how big it is', async () => {
    await inject();
    await waitFor(() => expect(frames()).toHaveLength(1));
    const host = hosts()[0];
    const layout = { type: 'inbox-companion:layout', shown: true, modal: false, width: 300, height: 40 };
    window.postMessage(layout, '*');
    window.dispatchEvent(new MessageEvent('message', { data: layout, origin: 'chrome-extension://test-extension-id' }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(host?.hasAttribute('data-loading')).toBe(true);
    expect(frames()[0]?.style.width).toBe('');
  });

  describe('the buttons’ room', () => {
    /** happy-dom lays nothing out: the unseen copy of the buttons measures as the browser lays it out. */
    beforeEach(() => {
      const measured = HTMLElement.prototype.getBoundingClientRect;
      vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
        if (this.classList.contains('room')) return new DOMRect(0, 0, 351.6, 39.6);
        return measured.call(this);
      });
    });
    afterEach(() => vi.restoreAllMocks());

    it('is held beside the anchor from the start, as big as the buttons will be, with nothing of them in it', async () => {
      await inject();
      await waitFor(() => expect(frames()).toHaveLength(1));
      const host = hosts()[0];
      expect(host?.hasAttribute('data-loading')).toBe(false);
      expect(frames()[0]?.style.width).toBe('352px');
      expect(frames()[0]?.style.height).toBe('40px');
      expect(host?.shadowRoot?.querySelector('.room')).toBeNull();
      expect(host?.shadowRoot?.textContent).not.toMatch(/Follow|Report/);
    });

    it('is not held where the frame shows something else first: signed out, or floating without an anchor', async () => {
      background.current = profileBackground({ me: null });
      await inject();
      await waitFor(() => expect(frames()).toHaveLength(1));
      expect(hosts()[0]?.hasAttribute('data-loading')).toBe(true);
      expect(frames()[0]?.style.width).toBe('');
      for (const ctx of contexts.splice(0)) ctx.abort();

      background.current = profileBackground();
      document.body.innerHTML = '<section><h1>bob</h1></section>';
      await inject();
      await waitFor(() => expect(frames()).toHaveLength(1));
      const host = hosts()[0];
      expect(host?.hasAttribute('data-floating')).toBe(true);
      expect(host?.hasAttribute('data-loading')).toBe(true);
      expect(frames()[0]?.style.width).toBe('');
    });
  });

  it('gives the claim to its own frame once it says it listens, and to the extension’s origin only', async () => {
    await inject();
    await waitFor(() => expect(frames()).toHaveLength(1));
    // The frame's own window, which happy-dom does not load for an extension's address.
    const posted: unknown[][] = [];
    const frame = { postMessage: (...args: unknown[]) => posted.push(args) } as unknown as Window;
    Object.defineProperty(frames()[0], 'contentWindow', { value: frame });
    const ready = { type: 'inbox-companion:ready' };
    // The extension's origin as the script reads it (Node gives an extension address the opaque origin "null").
    const origin = new URL(browser.runtime.getURL('/')).origin;
    // The page says it for the frame: from its own window, or from the right window but another origin.
    window.dispatchEvent(new MessageEvent('message', { data: ready, origin, source: window }));
    window.dispatchEvent(new MessageEvent('message', { data: ready, origin: location.origin, source: frame }));
    expect(posted).toEqual([]);
    window.dispatchEvent(new MessageEvent('message', { data: ready, origin, source: frame }));
    expect(posted).toEqual([[{ type: 'inbox-companion:claim', claim: expect.any(String) }, origin]]);
  });

  it('takes the buttons off when the extension stops the script', async () => {
    await inject();
    await waitFor(() => expect(hosts()).toHaveLength(1));
    contexts[0]?.abort();
    expect(hosts()).toHaveLength(0);
  });

  it('adds its buttons under another name when the page has taken the host element’s name', async () => {
    customElements.define(
      HOST_TAG,
      class extends HTMLElement {
        constructor() {
          super();
          this.attachShadow({ mode: 'open' }).innerHTML = '<b>taken</b>';
        }
      },
    );
    await inject();
    const ours = () =>
      [...document.body.querySelectorAll('*')].filter(
        (element) => element.localName.startsWith(`${HOST_TAG}-`) && element.shadowRoot?.querySelector('iframe'),
      );
    await waitFor(() => expect(ours()).toHaveLength(1));
  });
});
