/**
 * The popup taking over the first screen painted before it loaded. It draws the first screen
 * storage describes now and keeps it for the next opening; where the painted copy shows the
 * same, it hydrates the painted elements, so the same nodes stay on screen with their focus and
 * scroll, and they gain their handlers; where the copy has gone stale, the screen drawn now takes
 * its place with the focus and scroll carried over. Then it acts on the clicks made on the
 * painted screen meanwhile.
 */
import { hydrate, render } from 'preact';
import { browser } from 'wxt/browser';
import { readFirstScreen, snapshotFirstScreen } from '../../lib/popup/first-screen-state';
import { createInboxStore } from '../../lib/popup/inbox-store';
import type { StorageAreas } from '../../lib/popup/storage-areas';
import { INTERACTIVE_MARK } from './first-row-mark';
import { copyOf, drawFirstScreen, placeFirstScreen } from './first-screen';
import { keepCopy } from './first-screen-copy';
import { Popup } from './popup';

const KEEP_DELAY_MS = 200;

/** What tells an element from its neighbours wherever it is drawn: its kind, its names, its words. */
const signature = (element: Element) =>
  [element.tagName, element.className, element.id, element.getAttribute('aria-label'), element.textContent].join('|');

/**
 * The element of `to` that is `element` of `from`: the same control of the row with the same id,
 * or outside the rows the same control in the same order; null when `to` has none.
 */
function counterpart(element: Element | null, from: Element, to: Element): HTMLElement | null {
  if (!element || !from.contains(element)) return null;
  const row = element.closest('article');
  const scope = row ? to.querySelector(`article[data-id="${CSS.escape(row.getAttribute('data-id') ?? '')}"]`) : to;
  if (!scope || element === row) return scope as HTMLElement | null;
  const alike = (within: Element) =>
    [...within.querySelectorAll(element.tagName)].filter(
      (each) => signature(each) === signature(element) && (row !== null || each.closest('article') === null),
    );
  return (alike(scope)[alike(row ?? from).indexOf(element)] as HTMLElement | undefined) ?? null;
}

/** Puts `fresh` in the place of the stale `painted` with its scroll and focus; the held clicks follow. */
function replaceStale(app: HTMLElement, painted: HTMLElement, fresh: HTMLElement, clicked: Element[]) {
  const focused = counterpart(document.activeElement, painted, fresh);
  const scrolled = painted.querySelector('.scroller')?.scrollTop ?? 0;
  const moved = clicked.map((element) => counterpart(element, painted, fresh));
  app.replaceChildren(fresh);
  const scroller = fresh.querySelector('.scroller');
  if (scroller) scroller.scrollTop = scrolled;
  focused?.focus();
  return moved;
}

/** Keeps the copy for the next opening as storage changes while the popup is open. */
function keepCopyCurrent() {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const keep = () =>
    snapshotFirstScreen()
      .then(readFirstScreen)
      .then((screen) => {
        const drawn = drawFirstScreen(screen);
        keepCopy(drawn && copyOf(drawn));
      })
      .catch(() => undefined);
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(keep, KEEP_DELAY_MS);
  };
  browser.storage.local.onChanged.addListener(later);
  browser.storage.sync.onChanged.addListener(later);
}

/**
 * Starts the popup in `app`, from storage as `areas` gives it: over the screen painted from the
 * kept copy when there is one (`clicks` gives the clicks made on it), with the store starting
 * from the state the first screen is drawn from.
 */
export async function startPopup(
  app: HTMLElement,
  areas?: Promise<StorageAreas>,
  painted: HTMLElement | null = null,
  clicks: (() => Element[]) | null = null,
): Promise<void> {
  const read = snapshotFirstScreen(areas);
  const screen = await read.then(readFirstScreen).catch(() => null);
  const fresh = screen && drawFirstScreen(screen);
  keepCopy(fresh && copyOf(fresh));
  keepCopyCurrent();
  let clicked = clicks?.() ?? [];
  let taken: HTMLElement | null = painted;
  if (painted && fresh && painted.outerHTML === fresh.outerHTML) {
    // Hydration keeps what the elements show: a box a click ticked on the painted screen goes back
    // to the popup's state, and the click made again below ticks it with the popup's handler.
    for (const element of clicked) if (element instanceof HTMLInputElement) element.checked = !element.checked;
  } else if (painted && fresh) {
    clicked = replaceStale(app, painted, fresh, clicked).filter((element) => element !== null);
    taken = fresh;
  } else if (fresh) {
    taken = placeFirstScreen(app, fresh);
  } else {
    taken = null;
    clicked = [];
  }
  const store = createInboxStore(read, screen ?? undefined);
  if (!taken) {
    app.replaceChildren();
    render(<Popup store={store} />, app);
  } else {
    hydrate(<Popup store={store} />, app);
  }
  performance.mark(INTERACTIVE_MARK);
  for (const element of clicked) (element as HTMLElement).click();
}
