import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

/** An element focus can stay on: still in the page and not disabled. */
function canHoldFocus(element: Element | null): element is HTMLElement {
  return element instanceof HTMLElement && element.isConnected && !element.matches(':disabled');
}

export interface FocusKeeper {
  /** Call on focusin inside `root`, so the keeper knows what had focus last. */
  onFocusIn(event: FocusEvent): void;
  /** Remembers what has focus now, to give it back once the dialog it opens closes. */
  rememberOpener(): void;
  /** Moves focus to the active item after the next render, as keyboard moves do. */
  focusActiveSoon(): void;
}

/**
 * Keeps focus somewhere sensible as the popup changes under it. After every render: gives focus
 * back to what opened a dialog once it closed, follows the active item after a keyboard move,
 * and when the element that had focus left the page or was disabled (a deleted row, a toolbar
 * button that went away), moves focus to the active item, else the first one, else a heading.
 */
export function useFocusKeeper(
  root: RefObject<HTMLElement | null>,
  activeId: string | null,
  dialogOpen: boolean,
): FocusKeeper {
  const lastFocused = useRef<HTMLElement | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const followActive = useRef(false);

  const item = (id: string | null) =>
    id === null ? null : root.current?.querySelector<HTMLElement>(`article[data-id="${id}"]`);

  function rescue(): void {
    const target =
      item(activeId) ??
      root.current?.querySelector<HTMLElement>('article.item') ??
      root.current?.querySelector<HTMLElement>('#state-title') ??
      root.current?.querySelector<HTMLElement>('h1');
    target?.focus();
  }

  useLayoutEffect(() => {
    if (dialogOpen) return;
    const returning = opener.current;
    if (returning) {
      opener.current = null;
      if (canHoldFocus(returning)) returning.focus();
      else rescue();
      return;
    }
    if (followActive.current) {
      followActive.current = false;
      const active = item(activeId);
      active?.focus();
      active?.scrollIntoView?.({ block: 'nearest' });
      return;
    }
    const focused = document.activeElement;
    const lost = !focused || focused === document.body || !focused.isConnected;
    if (lost && lastFocused.current && !canHoldFocus(lastFocused.current)) rescue();
  });

  return {
    onFocusIn(event) {
      if (event.target instanceof HTMLElement) lastFocused.current = event.target;
    },
    rememberOpener() {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    focusActiveSoon() {
      followActive.current = true;
    },
  };
}
