/**
 * The element that carries the buttons into the page. Its shadow root keeps the page's CSS out
 * and ours in; key presses inside it stay inside, so typing a report never sets off the page's
 * keyboard shortcuts.
 */
export const HOST_TAG = 'inbox-companion-profile';

export interface ShadowHost {
  host: HTMLElement;
  root: ShadowRoot;
  /** Where the UI renders. */
  mountPoint: HTMLElement;
}

export function createShadowHost(document: Document, css: string): ShadowHost {
  const host = document.createElement(HOST_TAG);
  // Open, so assistive technology, accessibility audits and end-to-end tests can reach the UI.
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = css;
  const mountPoint = document.createElement('div');
  root.append(style, mountPoint);
  for (const type of ['keydown', 'keyup', 'keypress']) host.addEventListener(type, (event) => event.stopPropagation());
  return { host, root, mountPoint };
}
