import { describe, expect, it } from 'vitest';
import {
  AlreadyFollowingError,
  BadRequestError,
  NetworkError,
  NotFollowingError,
  RateLimitedError,
} from '../../../lib/api/errors';
import { actionFor, followChanged, followFailed, followState, startFollowChange } from '../../../lib/profile/follow';

const describe400 = (error: unknown) => `failed: ${(error as Error).name}`;

describe('the follow state machine', () => {
  it('sends follow when not following and unfollow when following', () => {
    expect(actionFor(followState(false))).toBe('follow');
    expect(actionFor(followState(true))).toBe('unfollow');
  });

  it('keeps the old state while the request is out, then shows the new one', () => {
    const pending = startFollowChange(followState(false));
    expect(pending).toEqual({ following: false, pending: 'follow', problem: null });
    expect(followChanged(pending)).toEqual(followState(true));
    expect(followChanged(startFollowChange(followState(true)))).toEqual(followState(false));
  });

  it('ignores a second click while a request is out', () => {
    const pending = startFollowChange(followState(true));
    expect(startFollowChange(pending)).toBe(pending);
    expect(followChanged(followState(true))).toEqual(followState(true));
  });

  it('adopts the true state from already_following and not_following, without a problem', () => {
    const following = new AlreadyFollowingError({ status: 400, code: 'already_following' });
    const notFollowing = new NotFollowingError({ status: 400, code: 'not_following' });
    expect(followFailed(startFollowChange(followState(false)), following, describe400)).toEqual(followState(true));
    expect(followFailed(startFollowChange(followState(true)), notFollowing, describe400)).toEqual(followState(false));
  });

  it('restores the old state and says why on any other failure, other 400s included', () => {
    for (const [before, error] of [
      [false, new NetworkError()],
      [true, new RateLimitedError({ status: 429, code: 'rate_limited', retryAfter: 5 })],
      [false, new BadRequestError({ status: 400, code: 'cannot_follow_self' })],
    ] as const) {
      expect(followFailed(startFollowChange(followState(before)), error, describe400)).toEqual({
        following: before,
        pending: null,
        problem: `failed: ${error.name}`,
      });
    }
  });

  it('clears the last problem when the next request starts', () => {
    const failed = followFailed(startFollowChange(followState(false)), new NetworkError(), describe400);
    expect(startFollowChange(failed).problem).toBeNull();
  });
});
