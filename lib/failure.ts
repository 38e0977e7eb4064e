/**
 * One vocabulary for failures. Any error a context meets (every typed error of the client, a bare
 * `Error`, the `TypeError` fetch rejects with, an abort) has exactly one kind; the badge, the
 * popup, the in-page buttons and the options page each read their words for a kind from one
 * table, `FAILURES`.
 *
 * The service's own `detail` is never shown: it is English, and its text is the service's, not
 * ours. A failure no kind describes is named by its machine-readable code instead.
 */
import { type CrossedErrorFields, type ErrorName, errorFields, errorName } from './api/errors';
import type { MessageKey } from './i18n';
import type { ConnectionProblem, StatusKind } from './messaging';

export type FailureKind =
  /** No answer, and the browser says it is offline. */
  | 'offline'
  /** No answer: nothing accepted the connection. */
  | 'unreachable'
  /** No answer in time. */
  | 'timeout'
  /** The token is missing, unknown or revoked. */
  | 'unauthorized'
  | 'rateLimited'
  /** The service answered that it has a problem (5xx). */
  | 'serverError'
  /** Something answered, but not as the contract says the service does. */
  | 'notThisService'
  | 'notFound'
  | 'followSelf'
  | 'reportSelf'
  /** The service found the request malformed (`invalid_*`). */
  | 'invalidRequest'
  /** A snooze's wake time is too near, too far or no time at all (`invalid_until`). */
  | 'invalidTime'
  /** The service refused the request in the current state (already following, not following). */
  | 'refused'
  /** Input refused before any request was sent. */
  | 'invalidInput'
  /** The request was called off before an answer. */
  | 'aborted'
  /** An answer the client has no name for. */
  | 'unexpected'
  /** A failure inside the extension, with no answer involved. */
  | 'internal';

/** The part of a message key after `prefix`: a column names its words by that part alone. */
type Tag<Prefix extends string> = {
  [K in MessageKey]: K extends `${Prefix}${infer Rest}` ? Rest : never;
}[MessageKey];

/** What the popup shows in place of the inbox: a problem the status reports, or a failed page load. */
export type InboxProblemKind = Exclude<StatusKind, 'ok'> | 'failed';

/**
 * How each context speaks of a kind of failure. Plain data, so a context that reads one column
 * loads strings, not the other contexts' code.
 */
export interface FailureWords {
  /** The state a failed check leaves the badge in. */
  badge: StatusKind;
  /** What the popup shows when a page of the inbox failed to load. */
  inbox: InboxProblemKind;
  /** Why an action in the popup failed: `popup_reason_<reason>`. */
  reason: Tag<'popup_reason_'>;
  /** What the options page's connection test found. */
  test: ConnectionProblem;
  /** Why a follow, unfollow or profile request failed on a profile page: `profile_problem_<profile>`. */
  profile: Tag<'profile_problem_'>;
  /** Why a report failed, where it differs from the profile's words: `profile_report_<report>`. */
  report?: Tag<'profile_report_'>;
}

/** A failure a context has no words of its own for is named by its code. */
const BY_CODE = {
  badge: 'notThisService',
  inbox: 'failed',
  reason: 'unknown',
  test: 'notThisService',
  profile: 'other',
} as const;

export const FAILURES: Readonly<Record<FailureKind, FailureWords>> = {
  // A report is sent now or not at all, never kept to send late: the person is told it needs a connection.
  offline: {
    badge: 'offline',
    inbox: 'offline',
    reason: 'offline',
    test: 'unreachable',
    profile: 'network',
    report: 'needs_connection',
  },
  unreachable: {
    badge: 'unreachable',
    inbox: 'unreachable',
    reason: 'unreachable',
    test: 'unreachable',
    profile: 'network',
    report: 'needs_connection',
  },
  timeout: {
    badge: 'unreachable',
    inbox: 'unreachable',
    reason: 'unreachable',
    test: 'timeout',
    profile: 'timeout',
    report: 'needs_connection',
  },
  unauthorized: {
    badge: 'unauthorized',
    inbox: 'unauthorized',
    reason: 'unauthorized',
    test: 'unauthorized',
    profile: 'unauthenticated',
  },
  rateLimited: {
    badge: 'rateLimited',
    inbox: 'rateLimited',
    reason: 'rate_limited',
    test: 'rateLimited',
    profile: 'rate_limited',
    report: 'rate_limited',
  },
  serverError: { ...BY_CODE, badge: 'unreachable', reason: 'server', test: 'serverError', profile: 'service' },
  notThisService: { ...BY_CODE, profile: 'service' },
  notFound: { ...BY_CODE, profile: 'user_not_found' },
  followSelf: { ...BY_CODE, profile: 'follow_self' },
  reportSelf: { ...BY_CODE, profile: 'report_self' },
  invalidRequest: { ...BY_CODE, report: 'invalid' },
  invalidTime: { ...BY_CODE, reason: 'invalid_until', report: 'invalid' },
  refused: BY_CODE,
  invalidInput: { ...BY_CODE, badge: 'unreachable', test: 'invalidAddress' },
  aborted: { ...BY_CODE, badge: 'unreachable' },
  unexpected: BY_CODE,
  internal: { ...BY_CODE, badge: 'unreachable' },
};

export interface FailureOptions {
  /** Whether the browser is online; a failure to connect while offline is `offline`. */
  online?: boolean;
}

function connectionKind(kind: 'unreachable' | 'timeout', { online = true }: FailureOptions): FailureKind {
  return online ? kind : 'offline';
}

/**
 * The kind of each typed error, by the name of its class: `errorName` gives the class that
 * `reviveError` would make of an error's fields, so an error is classified the same whether it
 * is a class or crossed from another context as plain fields.
 */
const KIND_BY_ERROR: Readonly<Record<ErrorName, FailureKind | ((fields: CrossedErrorFields) => FailureKind)>> = {
  NetworkError: 'unreachable',
  TimeoutError: 'timeout',
  InvalidResponseError: 'notThisService',
  InvalidArgumentError: 'invalidInput',
  UnauthenticatedError: 'unauthorized',
  RateLimitedError: 'rateLimited',
  TooManyChannelsError: 'rateLimited',
  RequestInProgressError: 'rateLimited',
  IdempotencyKeyReusedError: 'invalidRequest',
  NotFoundError: 'notFound',
  UserNotFoundError: 'notFound',
  CannotFollowSelfError: 'followSelf',
  CannotReportSelfError: 'reportSelf',
  AlreadyFollowingError: 'refused',
  NotFollowingError: 'refused',
  UndoExpiredError: 'refused',
  UnsupportedMediaTypeError: 'invalidRequest',
  InvalidUndoError: 'invalidRequest',
  InvalidUntilError: 'invalidTime',
  InvalidMuteError: 'invalidRequest',
  TooManyMutesError: 'refused',
  MuteNotFoundError: 'refused',
  ServerError: 'serverError',
  BadRequestError: ({ code }) => (code.startsWith('invalid_') ? 'invalidRequest' : 'refused'),
  ApiError: ({ status }) => (status >= 400 ? 'unexpected' : 'internal'),
};

export function failureKind(error: unknown, options: FailureOptions = {}): FailureKind {
  const fields = errorFields(error);
  if (!fields) {
    const name = error instanceof Error || error instanceof DOMException ? error.name : '';
    if (name === 'AbortError') return 'aborted';
    if (name === 'TimeoutError') return connectionKind('timeout', options);
    // fetch rejects with a TypeError exactly when no answer came.
    if (error instanceof TypeError) return connectionKind('unreachable', options);
    return 'internal';
  }
  // Whether the service or the client refused it, the time is what needs changing.
  if (fields.code === 'invalid_until') return 'invalidTime';
  const byError = KIND_BY_ERROR[errorName(fields)];
  const kind = typeof byError === 'function' ? byError(fields) : byError;
  return kind === 'unreachable' || kind === 'timeout' ? connectionKind(kind, options) : kind;
}

/** Seconds the service asked to wait before trying again, when it said. */
export function retryAfter(error: unknown): number | null {
  return errorFields(error)?.retryAfter ?? null;
}

/** The code that names a failure no kind describes. */
export function failureCode(error: unknown): string {
  return errorFields(error)?.code ?? 'internal_error';
}
