/**
 * Keeps keyboard focus inside an open dialog: Tab from its last stop goes to its first, and
 * Shift+Tab from its first to its last. A group of radio buttons is one stop, as the browser
 * treats it.
 */
const FOCUSABLE = 'button, input, select, textarea, a[href], [tabindex]';

const radioGroup = (element: Element): string | null =>
  element instanceof HTMLInputElement && element.type === 'radio' && element.name ? element.name : null;

/** The elements Tab stops at inside `container`, in order; one per radio group. */
export function tabStops(container: Element): HTMLElement[] {
  const all = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => !element.matches(':disabled, [tabindex="-1"], [hidden], [hidden] *'),
  );
  const checked = new Set(
    all.filter((element) => radioGroup(element) && (element as HTMLInputElement).checked).map(radioGroup),
  );
  const seen = new Set<string>();
  return all.filter((element) => {
    const group = radioGroup(element);
    if (!group) return true;
    if (checked.has(group)) return (element as HTMLInputElement).checked;
    if (seen.has(group)) return false;
    seen.add(group);
    return true;
  });
}

const sameStop = (a: Element | null, b: Element): boolean =>
  a === b || (a !== null && radioGroup(a) !== null && radioGroup(a) === radioGroup(b));

/** Handles a keydown inside `container`: wraps Tab and Shift+Tab at its ends. */
export function trapTab(event: KeyboardEvent, container: Element): void {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
  const stops = tabStops(container);
  const first = stops[0];
  const last = stops[stops.length - 1];
  const root = container.getRootNode() as Document | ShadowRoot;
  const active = root.activeElement;
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const outside = !active || !container.contains(active);
  if (event.shiftKey && (outside || sameStop(active, first))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (outside || sameStop(active, last))) {
    event.preventDefault();
    first.focus();
  }
}
