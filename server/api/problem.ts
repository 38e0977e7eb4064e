/**
 * Every non-2xx answer of the API is RFC 9457 problem details with the contract's `code`.
 * Handlers throw a ProblemError; the app turns it, and anything unexpected, into the answer.
 */
import type { ErrorCode } from '../../lib/api/contract';

const TITLES: Record<ErrorCode, string> = {
  unauthenticated: 'Authentication required',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  invalid_cursor: 'Invalid cursor',
  invalid_limit: 'Invalid limit',
  invalid_parameter: 'Invalid parameter',
  invalid_ids: 'Invalid ids',
  invalid_until: 'Invalid snooze time',
  invalid_report: 'Invalid report',
  invalid_undo: 'Invalid undo token',
  undo_expired: 'Undo expired',
  invalid_notification: 'Invalid notification',
  invalid_body: 'Invalid body',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  upgrade_required: 'Upgrade required',
  user_not_found: 'User not found',
  already_following: 'Already following',
  not_following: 'Not following',
  cannot_follow_self: 'Cannot follow yourself',
  cannot_report_self: 'Cannot report yourself',
  rate_limited: 'Too many requests',
  too_many_channels: 'Too many live channels',
  request_in_progress: 'Request in progress',
  idempotency_key_reused: 'Idempotency key reused',
  invalid_mute: 'Invalid mute',
  too_many_mutes: 'Too many mutes',
  mute_not_found: 'Mute not found',
  internal_error: 'Internal error',
  service_unavailable: 'Service unavailable',
};

export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** The problem's RFC 9457 body. */
export function problemJson(problem: ProblemError): string {
  return JSON.stringify({
    type: 'about:blank',
    title: TITLES[problem.code],
    status: problem.status,
    detail: problem.detail,
    code: problem.code,
  });
}

export function problemResponse(problem: ProblemError): Response {
  return new Response(problemJson(problem), {
    status: problem.status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...problem.headers },
  });
}

export const userNotFound = (username: string) =>
  new ProblemError(404, 'user_not_found', `There is no user called ${JSON.stringify(username)}.`);
