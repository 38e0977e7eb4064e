/**
 * Clickjacking: the page may cover the buttons' frame with something that lets clicks through,
 * make it transparent, or slide it under the pointer just before a click. Where the browser can
 * tell (Chrome's IntersectionObserver v2, watching the frame's own root element, says whether
 * anything covers, fades or distorts it), a click from a pointer acts only on a frame seen whole
 * for a moment; elsewhere only once the pointer has rested on the frame a moment, which also
 * refuses a frame slid under a moving pointer. A click from the keyboard (Enter or Space on a
 * focused button) always acts.
 */

/** How long the frame must have been seen whole, or the pointer have rested on it, before a click acts. */
export const RESTED_MS = 500;

export interface ClickGuard {
  /** Whether a trusted click may act now. */
  allows(event: MouseEvent): boolean;
}

export interface ClickGuardOptions {
  /** The frame's document: its root element is what is watched. */
  document: Document;
  /** Milliseconds on a steady clock. */
  now?: () => number;
  signal?: AbortSignal;
}

/** Chrome's entry: `isVisible` is there only where the browser tracks visibility. */
type VisibilityEntry = IntersectionObserverEntry & { isVisible?: unknown };

export function guardClicks({ document, now = () => performance.now(), signal }: ClickGuardOptions): ClickGuard {
  const root = document.documentElement;
  /** Since when the browser has seen the frame whole; null while it is not, undefined where it cannot tell. */
  let seenSince: number | null | undefined;
  const Observer = document.defaultView?.IntersectionObserver;
  if (Observer) {
    const observer = new Observer(
      (entries) => {
        for (const entry of entries as VisibilityEntry[]) {
          if (typeof entry.isVisible !== 'boolean') continue;
          seenSince = entry.isVisible ? (seenSince ?? now()) : null;
        }
      },
      // Chrome's visibility tracking; other browsers ignore what they do not know.
      { trackVisibility: true, delay: 100 } as IntersectionObserverInit,
    );
    observer.observe(root);
    signal?.addEventListener('abort', () => observer.disconnect(), { once: true });
  }

  /** Since when the pointer has been over the frame; null while it is not. */
  let pointerSince: number | null = null;
  const over = () => {
    pointerSince ??= now();
  };
  root.addEventListener('pointerenter', over, { signal });
  document.addEventListener('pointermove', over, { signal });
  // A frame placed under a pointer that has not moved since (the page loaded or reloaded beneath
  // it) hears of the pointer first from a press: that click asks for another, which acts once
  // the pointer has rested as long.
  document.addEventListener('pointerdown', over, { signal });
  root.addEventListener(
    'pointerleave',
    () => {
      pointerSince = null;
    },
    { signal },
  );

  return {
    allows(event) {
      // A click the keyboard made has no pointer position to be tricked about.
      if (event.detail === 0) return true;
      const since = seenSince === undefined ? pointerSince : seenSince;
      return since !== null && now() - since >= RESTED_MS;
    },
  };
}
