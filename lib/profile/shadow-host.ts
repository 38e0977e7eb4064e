/**
 * The element that carries the buttons' frame into the page. Its shadow root keeps the page's
 * CSS off the frame; the buttons themselves live in the frame, an extension page the page can
 * neither read nor script.
 */
export const HOST_TAG = 'inbox-companion-profile';

/* The page's own rules for the host element outrank :host unless these are important. */
const CSS = `
:host {
  all: initial !important;
  display: inline-block !important;
  vertical-align: middle !important;
}
:host([data-loading]) {
  position: absolute !important;
  width: 0 !important;
  height: 0 !important;
  overflow: hidden !important;
}
iframe {
  display: block;
  border: 0;
  margin: 0;
  color-scheme: normal;
  max-width: 100%;
}
:host([data-floating]) iframe {
  position: fixed;
  right: 16px;
  bottom: 16px;
  z-index: 2147483646;
  max-width: calc(100vw - 32px);
  background: #fff;
  border: 1px solid #d1d9e0;
  border-radius: 8px;
  box-shadow: 0 4px 16px #0003;
}
@media (prefers-color-scheme: dark) {
  :host([data-floating]) iframe {
    background: #151b23;
    border-color: #3d444d;
  }
}
:host([data-modal]) iframe {
  position: fixed;
  inset: 0;
  width: 100vw !important;
  height: 100vh !important;
  max-width: none;
  z-index: 2147483647;
  background: transparent;
  border: 0;
  box-shadow: none;
}
.spacer {
  display: none;
}
:host([data-modal]) .spacer {
  display: block;
}
`;

export interface ShadowHost {
  host: HTMLElement;
  root: ShadowRoot;
  /** Keeps the buttons' place in the page while the frame covers the page. */
  spacer: HTMLElement;
}

export function createShadowHost(document: Document): ShadowHost {
  // A page may define an element of our name for itself; its shadow root leaves no room for
  // ours, so the buttons then come under a name no page can know in advance.
  const { host, root } = claim(document, HOST_TAG) ?? (claim(document, `${HOST_TAG}-${randomSuffix()}`) as Claimed);
  const style = document.createElement('style');
  style.textContent = CSS;
  const spacer = document.createElement('div');
  spacer.className = 'spacer';
  root.append(style, spacer);
  return { host, root, spacer };
}

type Claimed = { host: HTMLElement; root: ShadowRoot };

/** A new element of this name with a shadow root of ours, or null when the page's own element has one. */
function claim(document: Document, tag: string): Claimed | null {
  const host = document.createElement(tag);
  if (host.shadowRoot) return null;
  try {
    // Open, so end-to-end tests and accessibility audits reach the frame; what the page could
    // read through it is only the frame element, never the buttons inside.
    return { host, root: host.attachShadow({ mode: 'open' }) };
  } catch {
    return null;
  }
}

/** Eight hex digits; getRandomValues, unlike randomUUID, works on pages that are not secure contexts. */
function randomSuffix(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(4)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
