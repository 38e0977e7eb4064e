/**
 * Clickjacking: the page may cover the buttons' frame with something that lets clicks through,
 * make it transparent, shrink, turn or clip it, or slide it under the pointer just before a
 * click. The frame sits in the top layer (see `shadow-host.ts`), where the page's own styles
 * reach it only through the frame's elements, and two witnesses say how it is shown: the browser,
 * where it can tell (Chrome's IntersectionObserver v2, watching the frame's own root element,
 * says whether anything covers, fades or distorts it), and the content script, which finds how
 * the page shows the frame (`frame-finding.ts`) and tells the frame over the channel only it can
 * use. A click from a pointer acts only on a frame the page shows legibly, in place and unchanged
 * for a moment; then at once where the browser has seen it whole that long, else once the pointer
 * has rested on it as long (which also refuses a frame slid under a moving pointer). A tap acts on
 * a frame that was so before the finger came down. A click from the keyboard (Enter or Space on a
 * focused button) always acts. The rules themselves are in `click-rules.ts`.
 */
import type { FrameFinding } from './click-rules';

/** How long the frame must have been seen whole and unchanged, or the pointer have rested on it, before a click acts. */
export const RESTED_MS = 500;

/** The rules load with the first click from a pointer: most visits to a profile click nothing. */
const rules = () => import('./click-rules');

export interface ClickGuard {
  /**
   * Whether a trusted click may act (see `judgeClick` in `click-rules.ts`); it may first ask the
   * content script how the page shows the frame now.
   */
  allows(event: MouseEvent): boolean | Promise<boolean>;
  /** The content script's finding, each time it comes. */
  see?(finding: FrameFinding): void;
}

export interface ClickGuardOptions {
  /** The frame's document: its root element is what is watched. */
  document: Document;
  /** Asks the content script for its finding now; it answers through `see`. */
  look(): void;
  /** Milliseconds on a steady clock. */
  now?: () => number;
  signal?: AbortSignal;
}

/** What the guard has heard of the frame and the pointer, which the rules judge a click by (see `allowsClick`). */
export interface FrameWatch {
  now: () => number;
  look: () => void;
  /** Since when the browser has seen the frame whole; null while it is not, undefined where it cannot tell. */
  seenSince: number | null | undefined;
  /** Since when the pointer has been over the frame; null while it is not. */
  pointerSince: number | null;
  /** When a pointer last pressed on the frame. */
  pressedAt: number;
  /** The content script's latest finding; null before the first. */
  finding: FrameFinding | null;
  /** Since when the finding has been what it is. */
  steadySince: number;
  /** Each is called, once, when the next finding comes. */
  waiting: (() => void)[];
}

/** Chrome's entry: `isVisible` is there only where the browser tracks visibility. */
type VisibilityEntry = IntersectionObserverEntry & { isVisible?: unknown };

export function guardClicks({ document, look, now = () => performance.now(), signal }: ClickGuardOptions): ClickGuard {
  const root = document.documentElement;
  const watch: FrameWatch = {
    now,
    look,
    seenSince: undefined,
    pointerSince: null,
    pressedAt: 0,
    finding: null,
    steadySince: 0,
    waiting: [],
  };
  const Observer = document.defaultView?.IntersectionObserver;
  if (Observer) {
    const observer = new Observer(
      (entries) => {
        for (const entry of entries as VisibilityEntry[]) {
          if (typeof entry.isVisible !== 'boolean') continue;
          watch.seenSince = entry.isVisible ? (watch.seenSince ?? now()) : null;
        }
      },
      // Chrome's visibility tracking; other browsers ignore what they do not know.
      { trackVisibility: true, delay: 100 } as IntersectionObserverInit,
    );
    observer.observe(root);
    signal?.addEventListener('abort', () => observer.disconnect(), { once: true });
  }

  const over = () => {
    watch.pointerSince ??= now();
  };
  root.addEventListener('pointerenter', over, { signal });
  document.addEventListener('pointermove', over, { signal });
  // A frame placed under a pointer that has not moved since (the page loaded or reloaded beneath
  // it) hears of the pointer first from a press: that click asks for another, which acts once
  // the pointer has rested as long.
  document.addEventListener(
    'pointerdown',
    () => {
      over();
      watch.pressedAt = now();
    },
    { signal },
  );
  root.addEventListener(
    'pointerleave',
    () => {
      watch.pointerSince = null;
    },
    { signal },
  );

  let found = '';
  return {
    see(finding) {
      const text = JSON.stringify(finding);
      if (text !== found) watch.steadySince = now();
      found = text;
      watch.finding = finding;
      for (const wake of watch.waiting.splice(0)) wake();
    },
    allows(event) {
      return (
        event.detail === 0 ||
        rules().then(
          ({ allowsClick }) => allowsClick(event, watch),
          () => false,
        )
      );
    },
  };
}
