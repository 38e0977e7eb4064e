import { describe, expect, it } from 'vitest';
import {
  InvalidResponseError,
  NetworkError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthenticatedError,
} from '../../../lib/api/errors';
import type { ConnectionStatus, StatusKind } from '../../../lib/messaging';
import {
  currentProblem,
  describeInboxProblem,
  failureReason,
  problemFromError,
} from '../../../lib/popup/inbox-problem';

const status = (kind: StatusKind): ConnectionStatus => ({ kind, count: 3, checkedAt: 1, nextCheckAt: 2, detail: null });
const unauthenticated = new UnauthenticatedError({ status: 401, code: 'unauthenticated' });

describe('problemFromError', () => {
  it('tells signed out from a refused token', () => {
    expect(problemFromError(unauthenticated, status('signedOut'), true).kind).toBe('signedOut');
    expect(problemFromError(unauthenticated, status('ok'), true).kind).toBe('unauthorized');
  });

  it('tells offline from unreachable', () => {
    expect(problemFromError(new NetworkError(), status('ok'), false).kind).toBe('offline');
    expect(problemFromError(new NetworkError(), status('offline'), true).kind).toBe('offline');
    expect(problemFromError(new TimeoutError(), status('ok'), true).kind).toBe('unreachable');
  });

  it('carries how long the service asked to wait', () => {
    const error = new RateLimitedError({ status: 429, code: 'rate_limited', retryAfter: 12 });
    expect(problemFromError(error, status('ok'), true)).toEqual({ kind: 'rateLimited', retryAfter: 12, code: null });
  });

  it('lets a settings problem the background found explain a failure', () => {
    expect(problemFromError(new NetworkError(), status('noPermission'), true).kind).toBe('noPermission');
  });

  it('names any other failure by its code, never by the service words', () => {
    expect(problemFromError(new InvalidResponseError(200, 'bad shape'), status('ok'), true)).toEqual({
      kind: 'failed',
      retryAfter: null,
      code: 'invalid_response',
    });
  });
});

describe('currentProblem', () => {
  it('shows a settings problem until a page proves otherwise', () => {
    expect(currentProblem({ status: status('unauthorized'), verified: false, error: null, online: true })?.kind).toBe(
      'unauthorized',
    );
    expect(currentProblem({ status: status('unauthorized'), verified: true, error: null, online: true })).toBeNull();
    expect(currentProblem({ status: status('unreachable'), verified: false, error: null, online: true })).toBeNull();
  });
});

describe('words', () => {
  it('explains each failure so a person can act on it', () => {
    expect(failureReason(unauthenticated, true)).toBe('Your sign-in is no longer valid.');
    expect(failureReason(new NetworkError(), false)).toBe("You're offline.");
    expect(failureReason(new ServerError({ status: 503, code: 'service_unavailable' }), true)).toBe(
      'The service had a problem.',
    );
    expect(failureReason(new RateLimitedError({ status: 429, code: 'rate_limited', retryAfter: 1 }), true)).toBe(
      'Too many requests; try again in 1 second.',
    );
    expect(describeInboxProblem({ kind: 'offline', retryAfter: null, code: null }).title).toBe("You're offline");
  });
});
