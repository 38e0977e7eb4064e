/**
 * The popup taking over the first screen painted before it loaded. It renders over the painted
 * elements, which are the ones it rendered for the same state last time, so where storage still
 * says the same the same nodes stay on screen with their focus and scroll, and they gain their
 * handlers; where the copy has gone stale (the inbox changed while the popup was closed) only
 * what differs changes. Then it acts on the clicks and key presses made on the painted screen
 * meanwhile, each on the same control of the same row.
 */
import { render } from 'preact';
import { browser } from 'wxt/browser';
import {
  type FirstScreen,
  firstScreenItems,
  readFirstScreen,
  snapshotFirstScreen,
} from '../../lib/popup/first-screen-state';
import { createInboxStore } from '../../lib/popup/inbox-store';
import type { StorageAreas } from '../../lib/popup/storage-areas';
import { INTERACTIVE_MARK } from './first-row-mark';
import { type HeldInput, keepCopy } from './first-screen-copy';
import { Popup } from './popup';

const KEEP_DELAY_MS = 200;

/** Where a control is, in words that hold when the rows around it change: its row, and which of its like. */
interface Place {
  row: string | null;
  signature: string;
  index: number;
}

/** What tells an element from its neighbours wherever it is drawn: its kind, its names, its words. */
const signature = (element: Element) =>
  [element.tagName, element.className, element.id, element.getAttribute('aria-label'), element.textContent].join('|');

const rowOf = (root: Element, row: string | null) =>
  row === null ? root : root.querySelector(`article[data-id="${CSS.escape(row)}"]`);

/** The elements like `element` in `scope`; outside a row, those outside every row. */
const alike = (scope: Element, element: { tagName: string }, wanted: string, inRow: boolean) =>
  [...scope.querySelectorAll(element.tagName)].filter(
    (each) => signature(each) === wanted && (inRow || each.closest('article') === null),
  );

function placeOf(element: Element | null, root: Element): Place | null {
  if (!element || !root.contains(element)) return null;
  const row = element.closest('article');
  const wanted = signature(element);
  const index = row === element ? -1 : alike(row ?? root, element, wanted, row !== null).indexOf(element);
  return { row: row?.getAttribute('data-id') ?? null, signature: wanted, index };
}

function elementAt(place: Place | null, root: Element): HTMLElement | null {
  const scope = place && rowOf(root, place.row);
  if (!place || !scope) return null;
  if (place.index < 0) return scope as HTMLElement;
  const tagName = place.signature.slice(0, place.signature.indexOf('|'));
  return (alike(scope, { tagName }, place.signature, place.row !== null)[place.index] as HTMLElement) ?? null;
}

/** Keeps the first screen `screen` describes for the next opening, drawn by code loaded for it. */
const keepDrawnCopy = (screen: Promise<FirstScreen> | FirstScreen) =>
  Promise.all([import('./first-screen'), screen])
    .then(([{ keepFirstScreen }, shown]) => keepFirstScreen(shown))
    .catch(() => undefined);

/**
 * Keeps the copy for the next opening as storage changes while the popup is open in `app`, drawn
 * from storage; stops once `app` has left the page.
 */
function keepCopyCurrent(app: HTMLElement) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const keep = () => {
    if (app.isConnected) void keepDrawnCopy(snapshotFirstScreen().then(readFirstScreen));
  };
  const later = () => {
    clearTimeout(timer);
    if (app.isConnected) timer = setTimeout(keep, KEEP_DELAY_MS);
    else {
      browser.storage.local.onChanged.removeListener(later);
      browser.storage.sync.onChanged.removeListener(later);
    }
  };
  browser.storage.local.onChanged.addListener(later);
  browser.storage.sync.onChanged.addListener(later);
}

/**
 * Starts the popup in `app`, from storage as `areas` gives it: over the screen painted from the
 * kept copy when there is one (`held` gives the clicks and key presses made on it), with the store starting
 * from the state the first screen shows.
 */
export async function startPopup(
  app: HTMLElement,
  areas?: Promise<StorageAreas>,
  painted: HTMLElement | null = null,
  held: (() => HeldInput[]) | null = null,
): Promise<void> {
  const read = snapshotFirstScreen(areas);
  const screen = await read.then(readFirstScreen).catch(() => null);
  const inputs = held?.() ?? [];
  const places = painted ? inputs.map((input) => placeOf(input.target, painted)) : [];
  const focused = painted && placeOf(document.activeElement, painted);
  const scrolled = painted?.querySelector('.scroller')?.scrollTop ?? 0;
  // A box a click ticked on the painted screen goes back as it was, and the click made again
  // below ticks it with the popup's handler.
  for (const input of inputs) {
    if (input.kind === 'click' && input.target instanceof HTMLInputElement)
      input.target.checked = !input.target.checked;
  }
  render(<Popup store={createInboxStore(read, screen ?? undefined)} />, app);
  performance.mark(INTERACTIVE_MARK);
  const shown = app.firstElementChild;
  if (!painted && screen) {
    // Without a first row on screen yet the feed renders its first rows now and the rest a frame
    // later: the copy is drawn whole from storage instead.
    void keepDrawnCopy(screen);
  } else {
    keepCopy(
      screen && firstScreenItems(screen).length > 0 && shown?.querySelector('[role="feed"] article') ? shown : null,
    );
  }
  if (painted) {
    const scroller = app.querySelector('.scroller');
    if (scroller && scroller.scrollTop !== scrolled) scroller.scrollTop = scrolled;
    const focus = elementAt(focused, app);
    if (focus && focus !== document.activeElement) focus.focus();
  }
  keepCopyCurrent(app);
  for (const [index, input] of inputs.entries()) {
    // Each after the popup has rendered what the one before did, as it would have been.
    if (index > 0) await new Promise((resolve) => setTimeout(resolve));
    const target = elementAt(places[index] ?? null, app);
    if (input.kind === 'click') target?.click();
    else {
      // A key pressed with focus on the page, or on what is no longer there, goes to the page.
      const init = { ...input.key, bubbles: true, cancelable: true };
      (target ?? document.body).dispatchEvent(new KeyboardEvent('keydown', init));
    }
  }
}
