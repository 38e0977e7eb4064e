/**
 * Where the popup keeps a copy of its last first screen: the extension pages' own
 * `localStorage`, which the background's worker cannot reach. A page that signs an account out
 * or removes it forgets the copy, so the next opening shows none of that account's rows.
 */

/** The `localStorage` key of the kept first screen. */
export const COPY_KEY = 'firstScreen';

/** Forgets the kept first screen; the next opening paints once the popup's code is there. */
export function forgetFirstScreen(): void {
  try {
    localStorage.removeItem(COPY_KEY);
  } catch {
    // Storage turned off: there is no copy to forget.
  }
}
