/**
 * What the buttons' frame tells the content script that placed it: whether it has anything to
 * show, whether its report dialog is open, and how big its buttons are. Nothing else crosses,
 * since the page hears it too; the content script takes it only from its own frame's window.
 */
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
