/**
 * The search's marks in the rows (`highlight`), loaded when a search is first typed rather than
 * with the popup: a search's rows come from the service after it, and until the marks are here a
 * row shows its text unmarked.
 */
type Highlight = typeof import('./highlight').highlight;

let loaded: Highlight | null = null;

/** Loads the marks; once it resolves, `searchMarks` has them. */
export async function loadSearchMarks(): Promise<void> {
  loaded ??= (await import('./highlight')).highlight;
}

/** What marks a search's words in a text, once loaded; else null. */
export const searchMarks = (): Highlight | null => loaded;
