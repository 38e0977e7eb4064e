import { describe, expect, it } from 'vitest';
import * as errors from '../../lib/api/errors';
import {
  AlreadyFollowingError,
  ApiError,
  BadRequestError,
  CannotFollowSelfError,
  CannotReportSelfError,
  IdempotencyKeyReusedError,
  InvalidArgumentError,
  InvalidMuteError,
  InvalidResponseError,
  InvalidUndoError,
  InvalidUntilError,
  MuteNotFoundError,
  NetworkError,
  NotFollowingError,
  NotFoundError,
  RateLimitedError,
  RequestInProgressError,
  reviveError,
  ServerError,
  TimeoutError,
  TooManyChannelsError,
  TooManyMutesError,
  UnauthenticatedError,
  UndoExpiredError,
  UnsupportedMediaTypeError,
  UserNotFoundError,
} from '../../lib/api/errors';
import { connectionProblem } from '../../lib/background/connection-test';
import { statusKindFor } from '../../lib/background/poller';
import { badgeFor } from '../../lib/badge';
import { FAILURES, type FailureKind, failureKind } from '../../lib/failure';
import type { ConnectionProblem, ConnectionStatus, StatusKind } from '../../lib/messaging';
import { connectionTestText } from '../../lib/options/connection-test-notice';

import {
  describeInboxProblem,
  failureReason,
  type InboxProblemKind,
  problemFromError,
} from '../../lib/popup/inbox-problem';
import { profileFailureText, reportFailureText } from '../../lib/profile/failure-text';
import english from '../../public/_locales/en/messages.json';

/** Words a service could send; no context may show them. */
const SAID = 'Words only the service chose';
const fields = (status: number, code: string) => ({ status, code, detail: SAID });

interface Row {
  error: unknown;
  kind: FailureKind;
  badge: StatusKind;
  popup: InboxProblemKind;
  options: ConnectionProblem;
}

const rows: Record<string, Row> = {
  BadRequestError: {
    error: new BadRequestError(fields(400, 'invalid_body')),
    kind: 'invalidRequest',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  'a wake time the client refuses before sending': {
    error: new InvalidArgumentError('invalid_until', SAID),
    kind: 'invalidTime',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  AlreadyFollowingError: {
    error: new AlreadyFollowingError(fields(400, 'already_following')),
    kind: 'refused',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  NotFollowingError: {
    error: new NotFollowingError(fields(400, 'not_following')),
    kind: 'refused',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  CannotFollowSelfError: {
    error: new CannotFollowSelfError(fields(400, 'cannot_follow_self')),
    kind: 'followSelf',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  CannotReportSelfError: {
    error: new CannotReportSelfError(fields(400, 'cannot_report_self')),
    kind: 'reportSelf',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  UnauthenticatedError: {
    error: new UnauthenticatedError(fields(401, 'unauthenticated')),
    kind: 'unauthorized',
    badge: 'unauthorized',
    popup: 'unauthorized',
    options: 'unauthorized',
  },
  NotFoundError: {
    error: new NotFoundError(fields(404, 'not_found')),
    kind: 'notFound',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  UserNotFoundError: {
    error: new UserNotFoundError(fields(404, 'user_not_found')),
    kind: 'notFound',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  InvalidUndoError: {
    error: new InvalidUndoError(fields(400, 'invalid_undo')),
    kind: 'invalidRequest',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  InvalidUntilError: {
    error: new InvalidUntilError(fields(400, 'invalid_until')),
    kind: 'invalidTime',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  InvalidMuteError: {
    error: new InvalidMuteError(fields(400, 'invalid_mute')),
    kind: 'invalidRequest',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  TooManyMutesError: {
    error: new TooManyMutesError(fields(400, 'too_many_mutes')),
    kind: 'refused',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  MuteNotFoundError: {
    error: new MuteNotFoundError(fields(404, 'mute_not_found')),
    kind: 'refused',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  UndoExpiredError: {
    error: new UndoExpiredError(fields(410, 'undo_expired')),
    kind: 'refused',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  UnsupportedMediaTypeError: {
    error: new UnsupportedMediaTypeError(fields(415, 'unsupported_media_type')),
    kind: 'invalidRequest',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  RateLimitedError: {
    error: new RateLimitedError({ ...fields(429, 'rate_limited'), retryAfter: 30 }),
    kind: 'rateLimited',
    badge: 'rateLimited',
    popup: 'rateLimited',
    options: 'rateLimited',
  },
  TooManyChannelsError: {
    error: new TooManyChannelsError({ ...fields(429, 'too_many_channels'), retryAfter: 60 }),
    kind: 'rateLimited',
    badge: 'rateLimited',
    popup: 'rateLimited',
    options: 'rateLimited',
  },
  RequestInProgressError: {
    error: new RequestInProgressError({ ...fields(409, 'request_in_progress'), retryAfter: 1 }),
    kind: 'rateLimited',
    badge: 'rateLimited',
    popup: 'rateLimited',
    options: 'rateLimited',
  },
  IdempotencyKeyReusedError: {
    error: new IdempotencyKeyReusedError(fields(422, 'idempotency_key_reused')),
    kind: 'invalidRequest',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  ServerError: {
    error: new ServerError(fields(503, 'service_unavailable')),
    kind: 'serverError',
    badge: 'unreachable',
    popup: 'failed',
    options: 'serverError',
  },
  InvalidArgumentError: {
    error: new InvalidArgumentError('invalid_base_url', SAID),
    kind: 'invalidInput',
    badge: 'unreachable',
    popup: 'failed',
    options: 'invalidAddress',
  },
  NetworkError: {
    error: new NetworkError(SAID),
    kind: 'unreachable',
    badge: 'unreachable',
    popup: 'unreachable',
    options: 'unreachable',
  },
  TimeoutError: {
    error: new TimeoutError(SAID),
    kind: 'timeout',
    badge: 'unreachable',
    popup: 'unreachable',
    options: 'timeout',
  },
  InvalidResponseError: {
    error: new InvalidResponseError(200, SAID),
    kind: 'notThisService',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  ApiError: {
    error: new ApiError(fields(409, 'conflict')),
    kind: 'unexpected',
    badge: 'notThisService',
    popup: 'failed',
    options: 'notThisService',
  },
  'a plain Error': {
    error: new Error(SAID),
    kind: 'internal',
    badge: 'unreachable',
    popup: 'failed',
    options: 'notThisService',
  },
  'the TypeError fetch rejects with': {
    error: new TypeError('Failed to fetch'),
    kind: 'unreachable',
    badge: 'unreachable',
    popup: 'unreachable',
    options: 'unreachable',
  },
  'a timeout of the platform': {
    error: new DOMException(SAID, 'TimeoutError'),
    kind: 'timeout',
    badge: 'unreachable',
    popup: 'unreachable',
    options: 'timeout',
  },
  'an abort': {
    error: AbortSignal.abort().reason,
    kind: 'aborted',
    badge: 'unreachable',
    popup: 'failed',
    options: 'notThisService',
  },
};

const ok: ConnectionStatus = { kind: 'ok', count: 1, checkedAt: 1, nextCheckAt: null, detail: null };

/** Every context's words for a failure. */
function allWords(error: unknown): string[] {
  const problem = problemFromError(error, ok, true);
  const status = { ...ok, kind: statusKindFor(error, true) };
  return [
    failureReason(error, true),
    failureReason(error, false),
    describeInboxProblem(problem).title,
    describeInboxProblem(problem).body,
    profileFailureText(error),
    reportFailureText(error),
    connectionTestText(connectionProblem(error, true), 'http://127.0.0.1:8787/api'),
    badgeFor(status).title,
  ];
}

describe('failure kinds', () => {
  it('has a row for every typed error of the client', () => {
    const classes = Object.entries(errors).filter(
      ([, value]) => typeof value === 'function' && (value === ApiError || value.prototype instanceof ApiError),
    );
    expect(classes.length).toBeGreaterThan(10);
    for (const [name] of classes) expect(Object.keys(rows)).toContain(name);
  });

  it.each(Object.entries(rows))('classifies %s once, and each context picks its words', (_, row) => {
    expect(failureKind(row.error)).toBe(row.kind);
    expect(statusKindFor(row.error, true)).toBe(row.badge);
    expect(problemFromError(row.error, ok, true).kind).toBe(row.popup);
    const test = connectionProblem(row.error, true);
    expect(test.ok ? null : test.problem).toBe(row.options);
    for (const words of allWords(row.error)) {
      expect(words).not.toBe('');
      expect(Object.keys(english)).not.toContain(words);
      expect(words).not.toContain('$');
      expect(words).not.toContain(SAID);
    }
  });

  const typed = Object.entries(rows).filter(([, row]) => row.error instanceof ApiError);
  it.each(typed)('classifies %s the same from its fields alone, as it crosses to another context', (_, row) => {
    const error = row.error as ApiError;
    const fields = structuredClone(error.toJSON());
    // What the messaging library gives the receiving side, and what reviving it gives.
    const crossed = Object.assign(new Error(error.message), fields);
    for (const each of [fields, crossed, reviveError(fields)]) {
      expect(failureKind(each)).toBe(row.kind);
      expect(profileFailureText(each, 0)).toBe(profileFailureText(error, 0));
      expect(reportFailureText(each, 0)).toBe(reportFailureText(error, 0));
    }
  });

  it('calls a failure to connect offline when the browser is offline', () => {
    for (const error of [new NetworkError(), new TimeoutError(), new TypeError('Failed to fetch')]) {
      expect(failureKind(error, { online: false })).toBe('offline');
      expect(statusKindFor(error, false)).toBe('offline');
    }
    expect(failureKind(new ServerError(fields(500, 'internal')), { online: false })).toBe('serverError');
  });

  it('has words in every context for every kind', () => {
    const covered = new Set(Object.values(rows).map((row) => row.kind));
    expect([...covered].sort()).toEqual(
      (Object.keys(FAILURES) as FailureKind[]).filter((kind) => kind !== 'offline').sort(),
    );
  });
});
