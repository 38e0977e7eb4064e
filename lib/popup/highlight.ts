/**
 * Where a search's words occur in a row's text, ignoring case and accents as the service does
 * ("zoe" marks "Zoë"), so the row can mark them.
 */

export interface Segment {
  text: string;
  match: boolean;
}

const MARKS = /\p{M}/gu;

/** Lower case without accents, one folded string per character of `text`. */
function foldEach(text: string): string[] {
  return Array.from(text, (char) => char.normalize('NFD').replace(MARKS, '').toLowerCase());
}

/** The words of a search, folded, longest first so a longer word wins where two overlap. */
export function searchWords(query: string): string[] {
  const words = query.split(/\s+/).filter(Boolean);
  return [...new Set(words.map((word) => foldEach(word).join('')))].filter(Boolean).sort((a, b) => b.length - a.length);
}

/** `text` cut into the parts that match a word of `query` and those that do not. */
export function highlight(text: string, query: string): Segment[] {
  const words = searchWords(query);
  if (words.length === 0) return [{ text, match: false }];
  const chars = Array.from(text);
  const folded = foldEach(text);
  // Where each character's folded form starts in the folded text, to map a match back to characters.
  const starts: number[] = [];
  let joined = '';
  for (const part of folded) {
    starts.push(joined.length);
    joined += part;
  }
  const marked = new Array<boolean>(chars.length).fill(false);
  for (const word of words) {
    for (let at = joined.indexOf(word); at !== -1; at = joined.indexOf(word, at + 1)) {
      const end = at + word.length;
      for (let i = 0; i < chars.length; i++) {
        const from = starts[i] ?? 0;
        const to = from + (folded[i]?.length ?? 0);
        if (to > at && from < end) marked[i] = true;
      }
    }
  }
  const segments: Segment[] = [];
  for (let i = 0; i < chars.length; i++) {
    const match = marked[i] ?? false;
    const last = segments.at(-1);
    if (last && last.match === match) last.text += chars[i];
    else segments.push({ text: chars[i] ?? '', match });
  }
  return segments.length > 0 ? segments : [{ text, match: false }];
}
