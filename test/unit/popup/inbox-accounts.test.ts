import { describe, expect, it } from 'vitest';
import { ALL_ACCOUNTS } from '../../../lib/messaging';
import { chooseView, sumByType } from '../../../lib/popup/inbox-accounts';

describe('the account on show', () => {
  const two = [{ id: 'home' }, { id: 'work' }];

  it('is the only account, or all of several, or the one chosen last while it exists', () => {
    expect(chooseView([], null)).toBe('');
    expect(chooseView([{ id: 'home' }], ALL_ACCOUNTS)).toBe('home');
    expect(chooseView([{ id: 'home' }], 'gone')).toBe('home');
    expect(chooseView(two, null)).toBe(ALL_ACCOUNTS);
    expect(chooseView(two, 'work')).toBe('work');
    expect(chooseView(two, ALL_ACCOUNTS)).toBe(ALL_ACCOUNTS);
    expect(chooseView(two, 'removed-since')).toBe(ALL_ACCOUNTS);
  });

  it('adds counts by type over the accounts that have them', () => {
    const counts = (mention: number, like: number) => ({ follow: 0, mention, reply: 1, like, system: 0 });
    expect(sumByType([])).toBeNull();
    expect(sumByType([null])).toBeNull();
    expect(sumByType([counts(2, 5), null, counts(1, 0)])).toEqual({
      follow: 0,
      mention: 3,
      reply: 2,
      like: 5,
      system: 0,
    });
  });
});
