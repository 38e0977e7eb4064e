/**
 * The element that carries the buttons' frame into the page. Its shadow root keeps the page's
 * CSS off the frame; the buttons themselves live in the frame, an extension page the page can
 * neither read nor script. The host holds the buttons' place on the page; the frame is shown over
 * that place from the top layer (a manual popover placed with CSS anchor positioning), as the
 * password managers show their in-page menus: there the page's filters, fades and transforms do
 * not reach it, no element of the page's is drawn over it but a dialog or popover opened after
 * it, and the browser finds it seen whole. A browser without anchor positioning shows the frame
 * in the host itself.
 */
import css from './shadow-host.css?inline';

export const HOST_TAG = 'inbox-companion-profile';

export interface ShadowHost {
  host: HTMLElement;
  root: ShadowRoot;
  /** Holds the buttons' place in the page while the frame is shown over it or covers the page. */
  spacer: HTMLElement;
  /** Holds the frame: in the top layer where the browser can place it there. */
  layer: HTMLElement;
}

export function createShadowHost(document: Document): ShadowHost {
  // A page may define an element of our name for itself; its shadow root leaves no room for
  // ours, so the buttons then come under a name no page can know in advance.
  const { host, root } = claim(document, HOST_TAG) ?? (claim(document, `${HOST_TAG}-${randomSuffix()}`) as Claimed);
  const style = document.createElement('style');
  style.textContent = css;
  const layer = document.createElement('div');
  if (CSS.supports('anchor-name', '--a')) layer.popover = 'manual';
  // A canvas, drawn on never: like the frame, a replaced element, which a narrow page can make
  // narrower than the width it asks for (a box of fixed width would widen the page instead).
  const spacer = document.createElement('canvas');
  root.append(style, layer, spacer);
  return { host, root, spacer, layer };
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
