/**
 * The messages between the content script and the buttons' frame it placed. The frame tells the
 * content script that it listens for its claim, then its layout: whether it has anything to
 * show, whether its report dialog is open, and how big its buttons are; and, when a person
 * clicks, that it wants to know how the page shows it now. Nothing else, since the page hears it
 * too, and the content script takes it only from its own frame's window. The content script
 * gives its frame the tab's claim (see `lib/background/profile-frames.ts`), then how the page
 * shows the frame, each time with the claim: posted to the extension's origin, which the page
 * cannot read, so the frame knows them from anything the page posts.
 */
import type { FrameFinding } from './click-rules';

export interface FrameLayout {
  shown: boolean;
  /** The report dialog is open: the frame covers the page, as a modal dialog does. */
  modal: boolean;
  width: number;
  height: number;
}

const TYPE = 'inbox-companion:layout';
/** No layout is wider or taller than this many CSS pixels. */
const MAX_SIDE = 4096;

export const layoutMessage = (layout: FrameLayout) => ({ type: TYPE, ...layout });

const side = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(MAX_SIDE, Math.max(0, Math.ceil(value))) : null;

/** The layout a message carries, or null when it is not one. */
export function readLayout(data: unknown): FrameLayout | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, shown, modal, width, height } = data as Record<string, unknown>;
  const w = side(width);
  const h = side(height);
  if (type !== TYPE || typeof shown !== 'boolean' || typeof modal !== 'boolean' || w === null || h === null) {
    return null;
  }
  return { shown, modal, width: w, height: h };
}

const READY = 'inbox-companion:ready';

/** Whether a message is a frame's word that it listens for its claim. */
export function isReady(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as Record<string, unknown>).type === READY;
}

const LOOK = 'inbox-companion:look';

export const lookMessage = { type: LOOK };

/** Whether a message is a frame's word that it wants to know how the page shows it now. */
export const isLook = (data: unknown) =>
  typeof data === 'object' && data !== null && (data as Record<string, unknown>).type === LOOK;

const FINDING = 'inbox-companion:finding';

export const findingMessage = (claim: string, finding: FrameFinding) => ({ type: FINDING, claim, finding });

/** The finding a message carries with this claim, the frame's own; null for any other message. */
export function readFinding(data: unknown, claim: string): FrameFinding | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as Record<string, unknown>;
  return message.type === FINDING && message.claim === claim ? (message.finding as FrameFinding) : null;
}

const CLAIM = 'inbox-companion:claim';

export const claimMessage = (claim: string) => ({ type: CLAIM, claim });

/** The claim a message carries, or null when it is not one. */
export function readClaim(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, claim } = data as Record<string, unknown>;
  return type === CLAIM && typeof claim === 'string' && claim.length > 0 && claim.length <= 64 ? claim : null;
}

/**
 * The claims the frame's parent window posts to it, one at a time as they come. The page shares
 * that window and may post too, so a claim is only a candidate until the background takes it.
 * Once it listens, it tells its parent so, to any origin: it does not know the site's yet, and
 * the word carries nothing. The content script answers with the claim, which it posts to the
 * extension's origin alone, so a page that says the same gets nothing.
 */
export function claimsFrom(window: Window, signal?: AbortSignal): () => Promise<string> {
  const received: string[] = [];
  let wake: (() => void) | null = null;
  window.addEventListener(
    'message',
    (event) => {
      const claim = event.source === window.parent ? readClaim(event.data) : null;
      if (claim === null) return;
      received.push(claim);
      wake?.();
    },
    { signal },
  );
  window.parent.postMessage({ type: READY }, '*');
  return async () => {
    while (received.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return received.shift() as string;
  };
}
