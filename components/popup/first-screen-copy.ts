/**
 * The popup's last first screen, kept in the page's own `localStorage`, which reads without a
 * round trip: the next opening paints it in its first frame, with the rows' ages counted again
 * to the moment it opens, and without the faces' pictures. The popup renders over it as soon as
 * its code has loaded, keeping the painted elements and changing only what storage now says
 * otherwise.
 */
import { COPY_KEY } from '../../lib/popup/first-screen-copy-key';
import { relativeTime } from '../../lib/popup/relative-time';
import { FIRST_ROW_MARK } from './first-row-mark';

interface FirstScreenCopy {
  /** The first screen's markup, as first rendered. */
  html: string;
  /** The language it is written in, which its ages are counted in again. */
  lang: string;
  title: string;
}

/**
 * Keeps `screen`, the first screen as drawn before any input, for the next opening, in the
 * page's language and title; removes the copy when there is no first screen to paint.
 */
export function keepCopy(screen: Element | null): void {
  try {
    if (!screen) localStorage.removeItem(COPY_KEY);
    else {
      const copy: FirstScreenCopy = {
        html: screen.outerHTML,
        lang: document.documentElement.lang,
        title: document.title,
      };
      localStorage.setItem(COPY_KEY, JSON.stringify(copy));
    }
  } catch {
    // Storage full or turned off: the next opening waits for the popup's code, as the first one does.
  }
}

/** The kept copy, or null when there is none or it cannot be read. */
function readCopy(): FirstScreenCopy | null {
  try {
    const copy = JSON.parse(localStorage.getItem(COPY_KEY) ?? 'null') as FirstScreenCopy | null;
    return typeof copy?.html === 'string' && typeof copy.lang === 'string' ? copy : null;
  } catch {
    return null;
  }
}

/** The copy's screen, its ages counted to `now`; null when it shows no rows or cannot be counted. */
function screenOf(copy: FirstScreenCopy, now: number): HTMLElement | null {
  // Parsed into a document of its own, which runs no script and loads no picture, and taken into
  // this one once ready: no markup is assigned to this page.
  const root = new DOMParser().parseFromString(copy.html, 'text/html').body.firstElementChild;
  if (!(root instanceof HTMLElement) || !root.querySelector('article')) return null;
  try {
    for (const time of root.querySelectorAll('time')) {
      time.textContent = relativeTime(time.dateTime, now, copy.lang);
    }
  } catch {
    // A language the platform does not know: the popup renders the screen once its code is there.
    return null;
  }
  // The faces' pictures come with the popup, which sets them again as it takes over. To the
  // browser each is a document of its own (the pictures the site draws are SVG), loaded and drawn
  // on the main thread while the popup's code waits for it.
  for (const picture of root.querySelectorAll('img[src]')) picture.removeAttribute('src');
  // A property, which markup does not carry.
  for (const box of root.querySelectorAll<HTMLInputElement>('[role="switch"]')) {
    box.checked = box.getAttribute('aria-checked') === 'true';
  }
  return document.adoptNode(root);
}

/**
 * Paints the kept copy into `app` and returns its root, or returns null and leaves `app` as it is
 * when there is none. `now` is the time the rows' ages are counted to.
 */
export function paintCopy(app: HTMLElement, now = Date.now()): HTMLElement | null {
  const copy = readCopy();
  const root = copy && screenOf(copy, now);
  if (!copy || !root) return null;
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

/** A click or a key press made on the painted screen, and the element it was made on. */
export type HeldInput =
  | { kind: 'click'; target: Element }
  | {
      kind: 'key';
      target: Element;
      key: Pick<KeyboardEventInit, 'key' | 'code' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>;
    };

/** A text field or the like, which takes the keys typed in it itself. */
const editable = (target: Element) =>
  (target as HTMLElement).isContentEditable || !!target.closest('input, textarea, select');

/**
 * Holds the clicks and key presses made on the painted screen, which has no handlers of its own,
 * so the popup can make them again once it has taken over: each on the element it was made on,
 * in order. A box ticks as it would, and the popup's box takes the click that ticks it; a link
 * opens nothing until the popup opens it, as the popup does (marking it read). Keys pressed in a
 * text field are its own.
 */
export function holdInput(painted: HTMLElement): () => HeldInput[] {
  const held: HeldInput[] = [];
  const click = (event: MouseEvent) => {
    const target = event.target as Element;
    if (target.closest('a')) event.preventDefault();
    held.push({ kind: 'click', target });
  };
  const press = (event: KeyboardEvent) => {
    const target = event.target as Element;
    if (editable(target)) return;
    const { key, code, shiftKey, ctrlKey, metaKey, altKey } = event;
    held.push({ kind: 'key', target, key: { key, code, shiftKey, ctrlKey, metaKey, altKey } });
  };
  painted.addEventListener('click', click, { capture: true });
  addEventListener('keydown', press, { capture: true });
  return () => {
    painted.removeEventListener('click', click, { capture: true });
    removeEventListener('keydown', press, { capture: true });
    return held;
  };
}
