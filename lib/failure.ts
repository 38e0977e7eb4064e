/**
 * One vocabulary for failures. Any error a context meets (every typed error of the client, a bare
 * `Error`, the `TypeError` fetch rejects with, an abort) has exactly one kind; the badge, the
 * popup, the in-page buttons and the options page each only choose their words for a kind.
 *
 * The service's own `detail` is never shown: it is English, and its text is the service's, not
 * ours. A failure no kind describes is named by its machine-readable code instead.
 */
import {
  ApiError,
  BadRequestError,
  CannotFollowSelfError,
  CannotReportSelfError,
  InvalidArgumentError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  reviveError,
  ServerError,
  TimeoutError,
  UnauthenticatedError,
  UndoExpiredError,
  UnsupportedMediaTypeError,
} from './api/errors';

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

export const FAILURE_KINDS: readonly FailureKind[] = [
  'offline',
  'unreachable',
  'timeout',
  'unauthorized',
  'rateLimited',
  'serverError',
  'notThisService',
  'notFound',
  'followSelf',
  'reportSelf',
  'invalidRequest',
  'invalidTime',
  'refused',
  'invalidInput',
  'aborted',
  'unexpected',
  'internal',
];

export interface FailureOptions {
  /** Whether the browser is online; a failure to connect while offline is `offline`. */
  online?: boolean;
}

function connectionKind(kind: 'unreachable' | 'timeout', { online = true }: FailureOptions): FailureKind {
  return online ? kind : 'offline';
}

export function failureKind(error: unknown, options: FailureOptions = {}): FailureKind {
  if (!(error instanceof ApiError)) {
    const name = error instanceof Error || error instanceof DOMException ? error.name : '';
    if (name === 'AbortError') return 'aborted';
    if (name === 'TimeoutError') return connectionKind('timeout', options);
    // fetch rejects with a TypeError exactly when no answer came.
    if (error instanceof TypeError) return connectionKind('unreachable', options);
    if (typeof error !== 'object' || error === null || !('code' in error)) return 'internal';
    return failureKind(reviveError(error), options);
  }
  if (error instanceof NetworkError) return connectionKind('unreachable', options);
  if (error instanceof TimeoutError) return connectionKind('timeout', options);
  if (error instanceof UnauthenticatedError) return 'unauthorized';
  if (error instanceof RateLimitedError) return 'rateLimited';
  if (error instanceof ServerError) return 'serverError';
  if (error instanceof InvalidResponseError) return 'notThisService';
  if (error instanceof NotFoundError) return 'notFound';
  if (error instanceof CannotFollowSelfError) return 'followSelf';
  if (error instanceof CannotReportSelfError) return 'reportSelf';
  if (error instanceof UndoExpiredError) return 'refused';
  if (error instanceof UnsupportedMediaTypeError) return 'invalidRequest';
  // Whether the service or the client refused it, the time is what needs changing.
  if (error.code === 'invalid_until') return 'invalidTime';
  if (error instanceof BadRequestError) return error.code.startsWith('invalid_') ? 'invalidRequest' : 'refused';
  if (error instanceof InvalidArgumentError) return 'invalidInput';
  return error.status >= 400 ? 'unexpected' : 'internal';
}

/** Seconds the service asked to wait before trying again, when it said. */
export function retryAfter(error: unknown): number | null {
  const seconds = error instanceof ApiError && 'retryAfter' in error ? error.retryAfter : undefined;
  return typeof seconds === 'number' ? seconds : null;
}

/** The code that names a failure no kind describes. */
export function failureCode(error: unknown): string {
  return error instanceof ApiError ? error.code : reviveError(error).code;
}
