import { describe, expect, it } from 'vitest';
import {
  AlreadyFollowingError,
  ApiError,
  BadRequestError,
  errorFromProblem,
  InvalidArgumentError,
  InvalidUndoError,
  NetworkError,
  RateLimitedError,
  reviveError,
  ServerError,
  TimeoutError,
  TooManyChannelsError,
  UndoExpiredError,
  UserNotFoundError,
} from '../../../lib/api';
import { parseRetryAfter } from '../../../lib/api/http';
import { failureKind } from '../../../lib/failure';

describe('reviveError', () => {
  it.each([
    new AlreadyFollowingError({ status: 400, code: 'already_following', detail: 'You already follow bob.' }),
    new UserNotFoundError({ status: 404, code: 'user_not_found', detail: 'No user nobody.' }),
    new RateLimitedError({ status: 429, code: 'rate_limited', detail: 'Slow down.', retryAfter: 60 }),
    new TooManyChannelsError({ status: 429, code: 'too_many_channels', detail: 'Close one.', retryAfter: 60 }),
    new InvalidArgumentError('invalid_ids', 'not a uuid'),
    new UndoExpiredError({ status: 410, code: 'undo_expired', detail: 'Too late.' }),
    new InvalidUndoError({ status: 400, code: 'invalid_undo', detail: 'Not yours.' }),
    new NetworkError(),
    new TimeoutError(),
  ])('brings $name back into its class after structured cloning', (original) => {
    const cloned = structuredClone(original.toJSON());
    const revived = reviveError(cloned);
    expect(revived).toBeInstanceOf(original.constructor);
    expect(revived.toJSON()).toEqual(original.toJSON());
  });

  it('revives a bare Error that carries the fields, as messaging delivers it', () => {
    const bare = Object.assign(new Error('x'), {
      name: 'RateLimitedError',
      status: 429,
      code: 'rate_limited',
      retryAfter: 5,
    });
    const revived = reviveError(bare);
    expect(revived).toBeInstanceOf(RateLimitedError);
    expect((revived as RateLimitedError).retryAfter).toBe(5);
  });

  it('takes a code or name that is an Object property for what it is: an unknown one', () => {
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const answered = errorFromProblem({ status: 400, code: key, detail: 'odd' });
      expect(answered).toBeInstanceOf(BadRequestError);
      expect(answered.code).toBe(key);
      expect(reviveError({ name: key, status: 503, code: key })).toBeInstanceOf(ServerError);
      expect(failureKind({ name: key, status: 400, code: key })).toBe('refused');
    }
  });

  it('turns anything else into an ApiError with code internal_error', () => {
    const revived = reviveError(new TypeError('boom'));
    expect(revived).toBeInstanceOf(ApiError);
    expect(revived).toMatchObject({ code: 'internal_error', detail: 'boom' });
    expect(reviveError(Object.create(null))).toMatchObject({ code: 'internal_error' });
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2026-11-21T09:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
