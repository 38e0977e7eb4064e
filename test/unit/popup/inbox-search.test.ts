import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../../lib/api/contract';
import { createSearch, SEARCH_DELAY_MS, SEARCH_MAX, searchTerm } from '../../../lib/popup/inbox-search';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the search box’s words reaching the list', () => {
  it('searches once typing pauses, for the words standing then', () => {
    const searched: string[] = [];
    const search = createSearch((term) => searched.push(term));
    for (const text of ['z', 'zo', 'zoe']) {
      search.type(text);
      vi.advanceTimersByTime(SEARCH_DELAY_MS - 50);
    }
    expect(searched).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(searched).toEqual(['zoe']);
  });

  it('clears at once, and a wait under way for older words never lands after it', () => {
    const searched: string[] = [];
    const search = createSearch((term) => searched.push(term));
    search.type('cafe');
    search.type('');
    expect(searched).toEqual(['']);
    vi.advanceTimersByTime(SEARCH_DELAY_MS * 2);
    expect(searched).toEqual(['']);
  });

  it('does not search again for the same words with other spaces', () => {
    const searched: string[] = [];
    const search = createSearch((term) => searched.push(term));
    search.type('zoe  cafe');
    vi.advanceTimersByTime(SEARCH_DELAY_MS);
    search.type(' zoe cafe ');
    vi.advanceTimersByTime(SEARCH_DELAY_MS);
    expect(searched).toEqual(['zoe cafe']);
  });

  it('asks for at most what the service takes', () => {
    expect(SEARCH_MAX).toBe(LIMITS.searchMax);
    expect(searchTerm(`  ${'a'.repeat(150)}  `)).toHaveLength(LIMITS.searchMax);
  });
});
