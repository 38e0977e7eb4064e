/**
 * The popup taking over the first screen painted before it loaded: it renders the same state off
 * screen and puts it in the painted screen's place in the same task, so no frame shows between
 * them; scroll, focus and a click made on the painted screen carry over.
 */
import { render } from 'preact';
import type { FirstScreen } from '../../lib/popup/first-screen-state';
import { createInboxStore } from '../../lib/popup/inbox-store';
import type { StoredReader } from '../../lib/stored';
import { INTERACTIVE_MARK } from './first-row-mark';
import { placeOf } from './first-screen';
import { Popup } from './popup';

const atPlace = (root: Element, place: number) =>
  place < 0 ? null : (root.querySelectorAll('*')[place] as HTMLElement | undefined);

/**
 * Starts the popup in `app`: in place of the painted first screen when there is one, with the
 * store starting from the state it was painted from.
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
  // The popup renders into a container of its own, which then takes the place of `app` whole.
  const next = document.createElement(app.tagName);
  next.id = app.id;
  render(<Popup store={store} />, next);
  const clicked = clicks?.() ?? [];
  const focused = placeOf(painted, document.activeElement);
  const scrollers = [...painted.querySelectorAll('.scroller')].map((each) => each.scrollTop);
  app.replaceWith(next);
  const root = next.firstElementChild as HTMLElement;
  root.querySelectorAll('.scroller').forEach((each, index) => {
    each.scrollTop = scrollers[index] ?? 0;
  });
  atPlace(root, focused)?.focus({ preventScroll: true });
  performance.mark(INTERACTIVE_MARK);
  for (const place of clicked) atPlace(root, place)?.click();
}
