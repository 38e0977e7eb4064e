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

/**
 * A menu's keys as the ARIA pattern has them: its first item takes focus when it opens and
 * whenever `key` changes (other items in it); arrow keys, Home and End move; Escape and Tab
 * close it. Enter chooses the focused item, as any button does. Returns the menu's key handler.
 */
export function useMenuKeys(
  menu: { current: HTMLElement | null },
  onClose: () => void,
  key?: unknown,
): (event: KeyboardEvent) => void {
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  useLayoutEffect(() => {
    items()[0]?.focus();
  }, [key]);
  return (event) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 };
    const to = moves[event.key];
    if (to !== undefined) all[(to + all.length) % all.length]?.focus();
    else if (event.key === 'Escape' || event.key === 'Tab') onClose();
    else return;
    event.preventDefault();
    event.stopPropagation();
  };
}
