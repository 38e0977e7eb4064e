/**
 * The popup taking over the first screen painted before it loaded: it hydrates the painted
 * elements, which are the ones it renders for the same state, so the same nodes stay on screen
 * with their focus and scroll, and it gains its handlers; then it acts on the clicks made on
 * the painted screen meanwhile.
 */
import { hydrate, render } from 'preact';
import type { FirstScreen } from '../../lib/popup/first-screen-state';
import { createInboxStore } from '../../lib/popup/inbox-store';
import type { StoredReader } from '../../lib/stored';
import { INTERACTIVE_MARK } from './first-row-mark';
import { Popup } from './popup';

const atPlace = (root: Element, place: number) =>
  place < 0 ? null : (root.querySelectorAll('*')[place] as HTMLElement | undefined);

/**
 * Starts the popup in `app`: over the painted first screen when there is one, with the store
 * starting from the state it was painted from.
 */
export function startPopup(
  app: HTMLElement,
  read: Promise<StoredReader>,
  screen: FirstScreen | null,
  painted: HTMLElement | null,
  clicks: (() => number[]) | null = null,
): void {
  const store = createInboxStore(read, screen ?? undefined);
  if (!painted) {
    render(<Popup store={store} />, app);
    performance.mark(INTERACTIVE_MARK);
    return;
  }
  const clicked = (clicks?.() ?? []).map((place) => atPlace(painted, place));
  // Hydration keeps what the elements show: a box a click ticked on the painted screen goes back
  // to the popup's state, and the click made again below ticks it with the popup's handler.
  for (const element of clicked) if (element instanceof HTMLInputElement) element.checked = !element.checked;
  hydrate(<Popup store={store} />, app);
  performance.mark(INTERACTIVE_MARK);
  for (const element of clicked) element?.click();
}
