// @vitest-environment happy-dom
// @vitest-environment-options { "url": "http://127.0.0.1:8787/@bob" }
import { waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContentScriptContext } from 'wxt/utils/content-script-context';
import definition from '../../../entrypoints/profile.content/index';
import { HOST_TAG } from '../../../lib/profile/shadow-host';
import { type ProfileBackground, profileBackground } from './profile-background';

const background = vi.hoisted(() => ({ current: null as ProfileBackground | null }));

vi.mock('../../../lib/messaging', async (original) => ({
  ...(await original<typeof import('../../../lib/messaging')>()),
  ask: (...args: Parameters<ProfileBackground['ask']>) => background.current?.ask(...args),
}));

const contexts: ContentScriptContext[] = [];
function inject() {
  const ctx = new ContentScriptContext('profile', definition);
  contexts.push(ctx);
  return definition.main(ctx);
}

const button = () =>
  [...document.querySelectorAll(HOST_TAG)].flatMap((host) => [...(host.shadowRoot?.querySelectorAll('button') ?? [])]);

beforeEach(() => {
  background.current = profileBackground();
  document.body.innerHTML = '<section><h1>bob</h1><div data-profile-actions></div></section>';
});

afterEach(() => {
  for (const ctx of contexts.splice(0)) ctx.abort();
});

describe('the profile content script', () => {
  it('is registered at run time only, so the manifest gets no entry or host permission from it', () => {
    expect(definition.registration).toBe('runtime');
    expect(definition.matches).toBeUndefined();
  });

  it('adds the buttons once, even when injected twice into the same page', async () => {
    await inject();
    await waitFor(() => expect(document.querySelectorAll(HOST_TAG)).toHaveLength(1));
    await inject();
    await waitFor(() => expect(background.current?.sent().filter((t) => t === 'profile.start')).toHaveLength(2));
    await waitFor(() => expect(button().map((b) => b.textContent)).toEqual(['Follow', 'Report']));
    expect(document.querySelectorAll(HOST_TAG)).toHaveLength(1);
    expect(contexts[0]?.isValid).toBe(false);
  });

  it('takes the buttons off when the extension stops the script', async () => {
    await inject();
    await waitFor(() => expect(document.querySelectorAll(HOST_TAG)).toHaveLength(1));
    contexts[0]?.abort();
    expect(document.querySelectorAll(HOST_TAG)).toHaveLength(0);
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
        (element) => element.localName.startsWith(`${HOST_TAG}-`) && element.shadowRoot?.querySelector('button'),
      );
    await waitFor(() => expect(ours()).toHaveLength(1));
    expect(ours()[0]?.shadowRoot?.textContent).toContain('Follow');
  });
});
