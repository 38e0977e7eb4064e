/**
 * Where the buttons go on the page: right after the page's anchor element when it has one, else
 * at the end of the body as a floating bar. The host element is moved, never copied, so however
 * often the page changes there is one set of buttons.
 */

/** The page's anchor element, or null when it has none or the selector is not valid CSS. */
export function findAnchor(document: Document, selector: string): Element | null {
  try {
    const anchor = document.querySelector(selector);
    return anchor?.parentElement ? anchor : null;
  } catch {
    return null;
  }
}

/**
 * Puts `host` beside the anchor, or floating in the body. Does nothing when it already is where
 * it belongs, so calling it on every change of the page settles at once. Returns true when it
 * moved the host.
 */
export function attachBeside(host: HTMLElement, document: Document, selector: string): boolean {
  const anchor = findAnchor(document, selector);
  const floating = anchor === null;
  if (host.hasAttribute('data-floating') !== floating) host.toggleAttribute('data-floating', floating);
  if (anchor) {
    if (anchor.nextSibling === host) return false;
    anchor.after(host);
    return true;
  }
  const body = document.body ?? document.documentElement;
  if (host.parentNode === body) return false;
  body.append(host);
  return true;
}
