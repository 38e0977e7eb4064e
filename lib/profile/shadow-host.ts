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
  // A page may define an element of our name for itself; its shadow root leaves no room for
  // ours, so the buttons then come under a name no page can know in advance.
  const { host, root } = claim(document, HOST_TAG) ?? (claim(document, `${HOST_TAG}-${randomSuffix()}`) as Claimed);
  const style = document.createElement('style');
  style.textContent = css;
  const mountPoint = document.createElement('div');
  root.append(style, mountPoint);
  for (const type of ['keydown', 'keyup', 'keypress']) host.addEventListener(type, (event) => event.stopPropagation());
  return { host, root, mountPoint };
}

type Claimed = { host: HTMLElement; root: ShadowRoot };

/** A new element of this name with a shadow root of ours, or null when the page's own element has one. */
function claim(document: Document, tag: string): Claimed | null {
  const host = document.createElement(tag);
  if (host.shadowRoot) return null;
  try {
    // Open, so assistive technology, accessibility audits and end-to-end tests can reach the UI.
    return { host, root: host.attachShadow({ mode: 'open' }) };
  } catch {
    return null;
  }
}

/** Eight hex digits; getRandomValues, unlike randomUUID, works on pages that are not secure contexts. */
function randomSuffix(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(4)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
