import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../lib/api/errors';
import { createPrefetch } from '../../../lib/background/handlers/profile-prefetch';
import type { ProfileAnswer } from '../../../lib/messaging';

const answer = (username: string): Promise<ProfileAnswer> =>
  Promise.resolve({
    ok: false,
    error: new NotFoundError({ status: 404, code: 'user_not_found', detail: `No user @${username}.` }).toJSON(),
  });

describe('profiles fetched as a profile page starts', () => {
  it('gives a tab its profile once, and only for the person it was fetched for', async () => {
    const prefetch = createPrefetch(() => 0);
    const ada = answer('ada');
    prefetch.put(1, 'a:ada', ada);
    expect(prefetch.take(1, 'a:grace')).toBeNull();
    prefetch.put(1, 'a:ada', ada);
    expect(prefetch.take(1, 'a:ada')).toBe(ada);
    expect(prefetch.take(1, 'a:ada')).toBeNull();
  });

  it('fetches again for a frame that asks more than ten seconds later', () => {
    let now = 0;
    const prefetch = createPrefetch(() => now);
    prefetch.put(1, 'a:ada', answer('ada'));
    now = 10_001;
    expect(prefetch.take(1, 'a:ada')).toBeNull();
  });

  it('keeps no profile of tabs closed before their frame asked, once ten seconds have passed', () => {
    let now = 0;
    const prefetch = createPrefetch(() => now);
    for (let tab = 1; tab <= 50; tab++) prefetch.put(tab, 'a:ada', answer('ada'));
    now = 5_000;
    prefetch.put(51, 'a:grace', answer('grace'));
    expect(prefetch.size).toBe(51);
    now = 10_001;
    prefetch.put(52, 'a:grace', answer('grace'));
    expect(prefetch.size).toBe(2);
  });
});
