/**
 * The popup's last first screen, kept in the page's own `localStorage`, which reads without a
 * round trip: the next opening paints it in its first frame, with the rows' ages counted again
 * to the moment it opens. The popup checks it against storage as soon as its code has loaded and
 * puts the screen storage describes in its place when they differ.
 */
import { relativeTime } from '../../lib/popup/relative-time';
import { FIRST_ROW_MARK } from './first-row-mark';

/** The `localStorage` key of the kept first screen. */
export const COPY_KEY = 'firstScreen';

export interface FirstScreenCopy {
  /** The first screen's markup, as painted from storage. */
  html: string;
  /** The language it is written in, which its ages are counted in again. */
  lang: string;
  title: string;
}

/** Writes the copy the next opening paints, or removes it when there is no first screen to paint. */
export function keepCopy(copy: FirstScreenCopy | null): void {
  try {
    if (copy) localStorage.setItem(COPY_KEY, JSON.stringify(copy));
    else localStorage.removeItem(COPY_KEY);
  } catch {
    // Storage full or turned off: the next opening paints from storage, as the first one does.
  }
}

/**
 * Paints the kept copy into `app` and returns its root, or returns null and leaves `app` as it is
 * when there is none. `now` is the time the rows' ages are counted to.
 */
export function paintCopy(app: HTMLElement, now = Date.now()): HTMLElement | null {
  let copy: FirstScreenCopy | null = null;
  try {
    copy = JSON.parse(localStorage.getItem(COPY_KEY) ?? 'null');
  } catch {
    return null;
  }
  if (!copy?.html) return null;
  const holder = document.createElement('div');
  holder.innerHTML = copy.html;
  const root = holder.firstElementChild as HTMLElement | null;
  if (!root?.querySelector('article')) return null;
  for (const time of root.querySelectorAll('time')) {
    time.textContent = relativeTime(time.dateTime, now, copy.lang);
  }
  // A property, which markup does not carry.
  for (const box of root.querySelectorAll<HTMLInputElement>('[role="switch"]')) {
    box.checked = box.getAttribute('aria-checked') === 'true';
  }
  // A picture that fails to load goes and leaves the initials, as the popup's own faces do.
  root.addEventListener(
    'error',
    (event) => {
      if (event.target instanceof HTMLImageElement) event.target.hidden = true;
    },
    { capture: true },
  );
  document.documentElement.lang = copy.lang;
  document.title = copy.title;
  app.replaceChildren(root);
  performance.mark(FIRST_ROW_MARK);
  return root;
}

/**
 * Holds the clicks made on the painted screen, which has no handlers of its own, so the popup can
 * make them again once it has taken over: the elements clicked, in order. A box ticks as it
 * would, and the popup's box takes the click that ticks it; a link opens nothing until the popup
 * opens it, as the popup does (marking it read).
 */
export function holdClicks(painted: HTMLElement): () => Element[] {
  const clicked: Element[] = [];
  const hold = (event: MouseEvent) => {
    const target = event.target as Element;
    if (target.closest('a')) event.preventDefault();
    clicked.push(target);
  };
  painted.addEventListener('click', hold, { capture: true });
  return () => {
    painted.removeEventListener('click', hold, { capture: true });
    return clicked;
  };
}
