import { describe, expect, it } from 'vitest';
import {
  ApiError,
  BadRequestError,
  CannotFollowSelfError,
  CannotReportSelfError,
  InvalidResponseError,
  NetworkError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthenticatedError,
  UserNotFoundError,
} from '../../../lib/api/errors';
import { profileFailureText, reportFailureText } from '../../../lib/profile/failure-text';

const now = new Date(2026, 10, 21, 10, 17, 30).getTime();
const clock = (date: Date) => new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' }).format(date);

describe('profileFailureText', () => {
  it('names each failure in words a person can act on', () => {
    expect(profileFailureText(new NetworkError())).toBe(
      'The service could not be reached. Check your connection and try again.',
    );
    expect(profileFailureText(new TimeoutError())).toBe('The service did not answer in time. Try again.');
    expect(profileFailureText(new UnauthenticatedError({ status: 401, code: 'unauthenticated' }))).toBe(
      'Your sign-in has expired. Sign in again in the settings.',
    );
    expect(profileFailureText(new UserNotFoundError({ status: 404, code: 'user_not_found' }))).toBe(
      'This account no longer exists.',
    );
    expect(profileFailureText(new CannotFollowSelfError({ status: 400, code: 'cannot_follow_self' }))).toBe(
      'You cannot follow yourself.',
    );
    expect(profileFailureText(new CannotReportSelfError({ status: 400, code: 'cannot_report_self' }))).toBe(
      'You cannot report yourself.',
    );
    expect(profileFailureText(new ServerError({ status: 503, code: 'service_unavailable' }))).toBe(
      'The service has a problem right now. Try again later.',
    );
    expect(profileFailureText(new InvalidResponseError(200, 'bad'))).toBe(
      'The service has a problem right now. Try again later.',
    );
  });

  it('never shows the service’s own English detail, only the code of an unexpected failure', () => {
    const error = new BadRequestError({ status: 400, code: 'invalid_body', detail: '<b>raw</b>' });
    expect(profileFailureText(error)).toBe('Something went wrong (invalid_body). Try again.');
    expect(profileFailureText(new Error('boom'))).toBe('Something went wrong (internal_error). Try again.');
    expect(profileFailureText(new ApiError({ status: 0, code: 'internal_error' }))).toContain('(internal_error)');
  });

  it('says when to try again after a rate limit', () => {
    const limited = new RateLimitedError({ status: 429, code: 'rate_limited', retryAfter: 30 });
    expect(profileFailureText(limited, now)).toBe(
      `Too many requests. Try again in 1 minute, at ${clock(new Date(now + 30_000))}.`,
    );
    expect(profileFailureText(new RateLimitedError({ status: 429, code: 'rate_limited' }))).toBe(
      'Too many requests. Try again later.',
    );
  });
});

describe('reportFailureText', () => {
  it('says when the person can report again', () => {
    const limited = new RateLimitedError({ status: 429, code: 'rate_limited', retryAfter: 3599 });
    expect(reportFailureText(limited, now)).toBe(
      'You have sent the most reports allowed for now. You can report again in 60 minutes, at ' +
        `${clock(new Date(now + 3_599_000))}.`,
    );
    expect(reportFailureText(new RateLimitedError({ status: 429, code: 'rate_limited' }))).toBe(
      'You have sent the most reports allowed for now. Try again later.',
    );
  });

  it('explains a refused report and falls back to the general words', () => {
    expect(reportFailureText(new BadRequestError({ status: 400, code: 'invalid_report' }))).toBe(
      'The service did not accept this report. Check the reason and the details.',
    );
    expect(reportFailureText(new BadRequestError({ status: 400, code: 'cannot_report_self' }))).toBe(
      profileFailureText(new BadRequestError({ status: 400, code: 'cannot_report_self' })),
    );
  });

  it('says a report needs a connection rather than keeping it to send late', () => {
    expect(reportFailureText(new NetworkError())).toBe("Reports need a connection: try again when you're back online.");
  });
});
