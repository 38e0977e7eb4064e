import { useLayoutEffect } from 'preact/hooks';

const GAP = 4;

/**
 * Puts a menu's panel beside what opened it: below it where it fits, else above, never outside
 * the popup; again whenever `key` changes (the panel's contents, so its height).
 */
export function useMenuPlacement(
  panel: { current: HTMLElement | null },
  anchor: HTMLElement | null,
  key: unknown,
): void {
  useLayoutEffect(() => {
    const element = panel.current;
    if (!element) return;
    const box = anchor?.isConnected ? anchor.getBoundingClientRect() : null;
    const height = element.offsetHeight;
    const below = box ? box.bottom + GAP : (innerHeight - height) / 2;
    const top = box && below + height > innerHeight - GAP ? box.top - GAP - height : below;
    element.style.top = `${Math.max(GAP, Math.min(top, innerHeight - height - GAP))}px`;
    element.style.right = `${Math.max(GAP, box ? innerWidth - box.right : GAP * 3)}px`;
  }, [anchor, key]);
}
