import { describe, expect, it } from 'vitest';
import { highlight } from '../../../lib/popup/highlight';

const marked = (text: string, query: string) =>
  highlight(text, query)
    .filter((segment) => segment.match)
    .map((segment) => segment.text);

describe('the search’s words marked in a row', () => {
  it('marks a word whatever its case and accents, in the text as written', () => {
    expect(marked('Zoë replied to your post', 'zoe')).toEqual(['Zoë']);
    expect(marked('Jürgen Müller liked it', 'MULLER')).toEqual(['Müller']);
    expect(marked('Zoe and ZOË', 'zoë')).toEqual(['Zoe', 'ZOË']);
  });

  it('marks every word of the search, and a part of a word while typing', () => {
    expect(marked('Zoë mentioned you at the café', 'cafe zo')).toEqual(['Zo', 'café']);
  });

  it('keeps the text whole: the parts put together are the text', () => {
    const text = 'Noël — déjà vu 👋 naïve';
    for (const query of ['noel', 'deja vu', 'e', '👋', 'naive x']) {
      expect(
        highlight(text, query)
          .map((segment) => segment.text)
          .join(''),
      ).toBe(text);
    }
  });

  it('marks nothing for an empty search or words that are not there', () => {
    expect(highlight('Hello', '   ')).toEqual([{ text: 'Hello', match: false }]);
    expect(marked('Hello', 'bye')).toEqual([]);
  });
});
