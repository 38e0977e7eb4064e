/**
 * Every failure of the client library is an ApiError carrying what a caller needs to act on it:
 * the HTTP status (0 when no answer came), the contract's machine-readable code, and a detail
 * for people. The fields are plain data so an error survives structured cloning between
 * extension contexts and can be revived into its class on the other side.
 */

export interface ApiErrorFields {
  status: number;
  code: string;
  detail?: string;
  /** Seconds the service asked the caller to wait before trying again (409, 429 and 503). */
  retryAfter?: number;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly detail: string;

  constructor(fields: ApiErrorFields, options?: ErrorOptions) {
    super(fields.detail || fields.code, options);
    this.status = fields.status;
    this.code = fields.code;
    this.detail = fields.detail ?? '';
  }

  toJSON(): ApiErrorFields & { name: string } {
    return { name: this.name, status: this.status, code: this.code, detail: this.detail };
  }
}

/** A 400 answer: the request was malformed (`invalid_*`) or not allowed in the current state. */
export class BadRequestError extends ApiError {
  override name = 'BadRequestError';
}

export class AlreadyFollowingError extends BadRequestError {
  override name = 'AlreadyFollowingError';
}

export class NotFollowingError extends BadRequestError {
  override name = 'NotFollowingError';
}

export class CannotFollowSelfError extends BadRequestError {
  override name = 'CannotFollowSelfError';
}

export class CannotReportSelfError extends BadRequestError {
  override name = 'CannotReportSelfError';
}

/** 400: the undo token is malformed, forged, unknown or another user's; nothing was changed. */
export class InvalidUndoError extends BadRequestError {
  override name = 'InvalidUndoError';
}

/** 400: a snooze's `until` is not a date and time with an offset, or not 60 s to 365 days ahead. */
export class InvalidUntilError extends BadRequestError {
  override name = 'InvalidUntilError';
}

/** 400: a mute that is not exactly one person or one link, with an end 60 s to 365 days ahead, or of yourself. */
export class InvalidMuteError extends BadRequestError {
  override name = 'InvalidMuteError';
}

/** 400: the user already has as many mutes as the service keeps (1,000); remove one first. */
export class TooManyMutesError extends BadRequestError {
  override name = 'TooManyMutesError';
}

/** 410: the undo token was already used, or its 60 seconds have passed; nothing was changed. */
export class UndoExpiredError extends ApiError {
  override name = 'UndoExpiredError';
}

/** 415: the body was not sent as the JSON the endpoint takes; a defect of the caller, not of the input. */
export class UnsupportedMediaTypeError extends ApiError {
  override name = 'UnsupportedMediaTypeError';
}

/** 401: the token is missing, unknown or revoked. */
export class UnauthenticatedError extends ApiError {
  override name = 'UnauthenticatedError';
}

export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}

export class UserNotFoundError extends NotFoundError {
  override name = 'UserNotFoundError';
}

/** 404: the caller has no mute with this id in force: it ended, was removed, or never was theirs. */
export class MuteNotFoundError extends NotFoundError {
  override name = 'MuteNotFoundError';
}

abstract class RetryableError extends ApiError {
  readonly retryAfter: number | undefined;

  constructor(fields: ApiErrorFields, options?: ErrorOptions) {
    super(fields, options);
    this.retryAfter = fields.retryAfter;
  }

  override toJSON() {
    return { ...super.toJSON(), retryAfter: this.retryAfter };
  }
}

/** 429: too many requests; `retryAfter` says how many seconds to wait. */
export class RateLimitedError extends RetryableError {
  override name = 'RateLimitedError';
}

/** 429: the user has as many live channels open as the service allows; close one, or wait `retryAfter`. */
export class TooManyChannelsError extends RateLimitedError {
  override name = 'TooManyChannelsError';
}

/** 409: a request with the same `Idempotency-Key` is still running; try again after `retryAfter`. */
export class RequestInProgressError extends RetryableError {
  override name = 'RequestInProgressError';
}

/** 422: the `Idempotency-Key` was used for a different request; nothing was done. */
export class IdempotencyKeyReusedError extends ApiError {
  override name = 'IdempotencyKeyReusedError';
}

/** A 5xx answer. */
export class ServerError extends RetryableError {
  override name = 'ServerError';
}

/** Input that could never be valid, refused before any request was sent. */
export class InvalidArgumentError extends ApiError {
  override name = 'InvalidArgumentError';

  constructor(code: string, detail: string) {
    super({ status: 0, code, detail });
  }
}

/** No answer: the service could not be reached. */
export class NetworkError extends ApiError {
  override name = 'NetworkError';

  constructor(detail = 'The service could not be reached.', options?: ErrorOptions) {
    super({ status: 0, code: 'network_error', detail }, options);
  }
}

/** No answer within the client's timeout. */
export class TimeoutError extends ApiError {
  override name = 'TimeoutError';

  constructor(detail = 'The service did not answer in time.', options?: ErrorOptions) {
    super({ status: 0, code: 'timeout', detail }, options);
  }
}

/** An answer that does not match the contract; its data never reaches the caller. */
export class InvalidResponseError extends ApiError {
  override name = 'InvalidResponseError';

  constructor(status: number, detail: string, options?: ErrorOptions) {
    super({ status, code: 'invalid_response', detail }, options);
  }
}

/**
 * Which class a problem answer becomes: by its code, else by its status. Kept as class names, so
 * that `lib/failure.ts` classifies an error's plain fields by the very same decision without
 * loading the classes.
 */
const NAME_BY_CODE = {
  already_following: 'AlreadyFollowingError',
  not_following: 'NotFollowingError',
  cannot_follow_self: 'CannotFollowSelfError',
  cannot_report_self: 'CannotReportSelfError',
  invalid_undo: 'InvalidUndoError',
  invalid_until: 'InvalidUntilError',
  undo_expired: 'UndoExpiredError',
  unauthenticated: 'UnauthenticatedError',
  user_not_found: 'UserNotFoundError',
  not_found: 'NotFoundError',
  rate_limited: 'RateLimitedError',
  too_many_channels: 'TooManyChannelsError',
  unsupported_media_type: 'UnsupportedMediaTypeError',
  request_in_progress: 'RequestInProgressError',
  idempotency_key_reused: 'IdempotencyKeyReusedError',
  invalid_mute: 'InvalidMuteError',
  too_many_mutes: 'TooManyMutesError',
  mute_not_found: 'MuteNotFoundError',
} as const;

function nameByStatus(status: number) {
  if (status === 400) return 'BadRequestError';
  if (status === 401) return 'UnauthenticatedError';
  if (status === 404) return 'NotFoundError';
  if (status === 415) return 'UnsupportedMediaTypeError';
  if (status === 429) return 'RateLimitedError';
  if (status >= 500) return 'ServerError';
  return 'ApiError';
}

/** The class of an answer from the service. */
export type ProblemErrorName = (typeof NAME_BY_CODE)[keyof typeof NAME_BY_CODE] | ReturnType<typeof nameByStatus>;

/** The errors the client makes itself, with no answer or one outside the contract: revived by name. */
const CLIENT_ERRORS = ['InvalidArgumentError', 'NetworkError', 'TimeoutError', 'InvalidResponseError'] as const;
type ClientErrorName = (typeof CLIENT_ERRORS)[number];

const reviveClientError: Record<ClientErrorName, (fields: ApiErrorFields) => ApiError> = {
  InvalidArgumentError: (f) => new InvalidArgumentError(f.code, f.detail ?? ''),
  NetworkError: (f) => new NetworkError(f.detail),
  TimeoutError: (f) => new TimeoutError(f.detail),
  InvalidResponseError: (f) => new InvalidResponseError(f.status, f.detail ?? ''),
};

/** The name of every typed error's class. */
export type ErrorName = ProblemErrorName | ClientErrorName;

const own = <T extends object>(table: T, key: string | undefined): T[keyof T] | undefined =>
  key !== undefined && Object.hasOwn(table, key) ? table[key as keyof T] : undefined;

const problemName = ({ code, status }: ApiErrorFields): ProblemErrorName =>
  own(NAME_BY_CODE, code) ?? nameByStatus(status);

/** The class `reviveError` gives these fields: the client's own by name, else by code or status. */
export function errorName(fields: CrossedErrorFields): ErrorName {
  const { name } = fields;
  return (CLIENT_ERRORS as readonly (string | undefined)[]).includes(name)
    ? (name as ClientErrorName)
    : problemName(fields);
}

const PROBLEM_CLASSES: Record<ProblemErrorName, new (fields: ApiErrorFields) => ApiError> = {
  ApiError,
  BadRequestError,
  AlreadyFollowingError,
  NotFollowingError,
  CannotFollowSelfError,
  CannotReportSelfError,
  InvalidUndoError,
  InvalidUntilError,
  UndoExpiredError,
  UnsupportedMediaTypeError,
  UnauthenticatedError,
  NotFoundError,
  UserNotFoundError,
  RateLimitedError,
  TooManyChannelsError,
  RequestInProgressError,
  IdempotencyKeyReusedError,
  InvalidMuteError,
  TooManyMutesError,
  MuteNotFoundError,
  ServerError,
};

/** The typed error for a problem answer, chosen by its code, else by its status. */
export function errorFromProblem(fields: ApiErrorFields): ApiError {
  return new PROBLEM_CLASSES[problemName(fields)](fields);
}

/** A typed error's fields with the name of its class, as they cross a structured-clone boundary. */
export interface CrossedErrorFields extends ApiErrorFields {
  name?: string;
}

/**
 * The fields of a typed error, or of a value that crossed a structured-clone boundary from one
 * (a plain object or a bare Error with the same fields); null when it carries none. Reading
 * them needs none of the classes.
 */
export function errorFields(value: unknown): CrossedErrorFields | null {
  if (typeof value !== 'object' || value === null) return null;
  const { name, status, code, detail, retryAfter } = value as Record<string, unknown>;
  if (typeof status !== 'number' || typeof code !== 'string') return null;
  return {
    name: typeof name === 'string' ? name : undefined,
    status,
    code,
    detail: typeof detail === 'string' ? detail : undefined,
    retryAfter: typeof retryAfter === 'number' ? retryAfter : undefined,
  };
}

/**
 * An Error that carries a typed error's fields but not its class, as one arrives from another
 * context: what `errorFields`, and so `lib/failure.ts`, read without the classes.
 */
export function crossedError(fields: unknown): Error {
  if (typeof fields !== 'object' || fields === null) return new Error(String(fields));
  const { message, detail, code } = fields as Record<string, unknown>;
  const words = typeof message === 'string' ? message : typeof detail === 'string' && detail ? detail : String(code);
  return Object.assign(new Error(words), fields);
}

/**
 * Turns an error that crossed a structured-clone boundary (a plain object or a bare Error with
 * the same fields) back into its typed class. Anything unrecognisable becomes an ApiError with
 * code `internal_error`, so a caller always gets an ApiError.
 */
export function reviveError(value: unknown): ApiError {
  if (value instanceof ApiError) return value;
  const fields = errorFields(value);
  if (fields) {
    const { name, ...rest } = fields;
    const client = own(reviveClientError, name);
    return client ? client(rest) : errorFromProblem(rest);
  }
  return new ApiError({ status: 0, code: 'internal_error', detail: describe(value) });
}

/** Words for any thrown value; String() itself throws for objects without a prototype. */
function describe(value: unknown): string {
  if (value instanceof Error) return value.message;
  try {
    return String(value);
  } catch {
    return 'An unknown failure.';
  }
}
