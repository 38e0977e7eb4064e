/**
 * How the page shows the buttons' frame, found from the content script's side: what the frame
 * cannot learn for itself, since the page around it is another origin's. The guard in the frame
 * judges it (`findingProblem` in `click-guard.ts`). What the top layer paints apart from the page
 * (see `shadow-host.ts`), the page's styles on the frame's ancestors do not reach: only the
 * frame's own elements count there, which the page reaches through the host's shadow root.
 */
import type { FrameFinding } from './click-rules';

/** The elements the top layer holds: a page's own dialogs and popovers, and our layer. */
export const TOP_LAYER = ':modal, :popover-open';

export interface FindingOptions {
  iframe: HTMLIFrameElement;
  /** Whether the frame's place on the page is in sight (see `placeInSight`). */
  inSight: boolean;
  /** The page's top-layer elements that were open when the frame last went into the top layer: they are under it. */
  below: ReadonlySet<Element>;
}

/** An element's box on screen, in the page's CSS pixels: x, y, width, height, rounded. */
function boxOf(element: Element): number[] {
  const { x, y, width, height } = element.getBoundingClientRect();
  return [x, y, width, height].map(Math.round);
}

export function findFrame({ iframe, inSight, below }: FindingOptions): FrameFinding {
  const { ownerDocument: document } = iframe;
  const view = document.defaultView as Window;
  const styles: (string | undefined)[][] = [];
  for (let element: Element | null = iframe; element; ) {
    const { opacity, filter, transform, clipPath, maskImage, mixBlendMode, visibility } =
      view.getComputedStyle(element);
    styles.push([opacity, filter, transform, clipPath, maskImage, mixBlendMode, visibility]);
    // The top layer paints an element apart from its ancestors: what they do does not reach it.
    if (element.matches(':popover-open')) break;
    element = element.parentElement ?? (element.parentNode as ShadowRoot | null)?.host ?? null;
  }
  return {
    box: boxOf(iframe),
    size: [iframe.offsetWidth, iframe.offsetHeight],
    viewport: [view.innerWidth, view.innerHeight],
    styles,
    shown: inSight,
    covers: [...document.querySelectorAll(TOP_LAYER)].filter((element) => !below.has(element)).map(boxOf),
  };
}

/**
 * Whether the buttons' place on the page is in sight: a quarter of the way down it and a quarter
 * of the way up, in the middle (inside it even on a slightly turned card), no element of the
 * page's over it and no scrolling box clipping it. A point out of the viewport finds nothing, and
 * counts as in sight: the rules judge how much of the frame is on screen. The layer that shows the
 * buttons over that place is left out of the look, as it would otherwise be all the look finds: it
 * takes no pointer for that moment (hiding it instead would tell the browser's visibility tracking
 * in Chrome that the frame was hidden).
 */
export function placeInSight(host: HTMLElement, layer: HTMLElement): boolean {
  const { x, y, width, height } = host.getBoundingClientRect();
  layer.style.pointerEvents = 'none';
  const seen = [1, 3].every((quarter) => {
    const found = host.ownerDocument.elementFromPoint(x + width / 2, y + (height * quarter) / 4);
    return found === host || found === null;
  });
  layer.style.pointerEvents = '';
  return seen;
}
