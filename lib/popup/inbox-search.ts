/**
 * The search box's words reach the list once the person pauses typing: each keystroke restarts a
 * short wait, and only the words standing when it ends are searched. Clearing searches at once.
 * Which answer shows is the paging's business: a list restarted for newer words drops the
 * answers of older ones, whatever order they arrive in.
 */

export const SEARCH_DELAY_MS = 200;

/**
 * The service's `LIMITS.searchMax`, as a number here: the contract module would bring its schemas
 * into the popup's first load (a unit test keeps the two equal).
 */
export const SEARCH_MAX = 100;

export interface Search {
  /** The box now holds `text`. */
  type(text: string): void;
  /** Stops a wait under way, as when the popup closes. */
  cancel(): void;
}

/** What the service is asked for: the words trimmed, spaces folded, at most the service's length. */
export function searchTerm(text: string): string {
  return text.trim().replace(/\s+/g, ' ').slice(0, SEARCH_MAX).trim();
}

export function createSearch(apply: (term: string) => void, delay = SEARCH_DELAY_MS): Search {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: string | null = null;
  return {
    type(text) {
      const term = searchTerm(text);
      clearTimeout(timer);
      if (term === pending) return;
      pending = term;
      if (term === '') {
        apply('');
        return;
      }
      timer = setTimeout(() => apply(term), delay);
    },
    cancel() {
      clearTimeout(timer);
    },
  };
}
