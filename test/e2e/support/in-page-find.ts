/**
 * What the Firefox locators run inside a page, bundled with dom-accessibility-api and put into
 * the page as a script of the test's own (`firefox-page.ts`): every element under a root that
 * a CSS selector, a text or a role and name finds, in tree order, open shadow roots included.
 *
 * Roles and names are the WAI-ARIA and accname computations, as Playwright's own locators make
 * them in Chromium. Firefox's accessibility tree answers the same question through WebDriver
 * BiDi's `locateNodes`, but at a second or more a call once the popup holds a few hundred rows;
 * the accessibility suite holds the two to the same answers for the controls people know.
 */
import { computeAccessibleName, getRole, isInaccessible } from 'dom-accessibility-api';

export type FindKind = 'css' | 'text' | 'aria';

/** Elements below `node` in tree order, going into open shadow roots. */
function below(node: Node): Element[] {
  const all: Element[] = [];
  for (const child of (node as ParentNode).children ?? []) {
    all.push(child);
    if (child.shadowRoot) all.push(...below(child.shadowRoot));
    all.push(...below(child));
  }
  return all;
}

/** What a text query reads of an element: a field's value, or its text, through a shadow root. */
function textOf(element: Element): string {
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) return element.value;
  if (element.shadowRoot) return [...element.shadowRoot.children].map(textOf).join('');
  return element.textContent ?? '';
}

/**
 * `css`: the elements matching the selector. `text`: the innermost elements whose text holds
 * the text, as puppeteer's text selector takes them. `aria`: the elements in the accessibility
 * tree (the root itself too) with that role, if one is given, and exactly that name, if one is.
 */
export function find(root: Node, kind: FindKind, wanted: string | null, name?: string): Element[] {
  const elements = below(root);
  if (kind === 'css') return elements.filter((element) => element.matches(wanted ?? '*'));
  if (kind === 'text') {
    const holding = elements.filter((element) => textOf(element).includes(wanted ?? ''));
    const inner = new Set(holding);
    return holding.filter(
      (element) => ![...element.children, ...(element.shadowRoot?.children ?? [])].some((c) => inner.has(c)),
    );
  }
  const candidates = root instanceof Element ? [root, ...elements] : elements;
  return candidates.filter(
    (element) =>
      (wanted === null || getRole(element) === wanted) &&
      (name === undefined || computeAccessibleName(element) === name) &&
      !hidden(element),
  );
}

/** Whether the element is out of the accessibility tree, for itself or any ancestor, hosts included. */
function hidden(element: Element): boolean {
  for (let at: Element | null = element; at; at = (at.getRootNode() as ShadowRoot).host ?? null) {
    if (isInaccessible(at)) return true;
  }
  return false;
}
