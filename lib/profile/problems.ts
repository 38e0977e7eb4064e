/**
 * What went wrong, in words a person can act on. The background hands failures over as the
 * client library's typed errors; the service's own `detail` is English, so it is never shown.
 */
import {
  ApiError,
  CannotFollowSelfError,
  CannotReportSelfError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthenticatedError,
} from '../api/errors';
import { t, tn, uiLanguage } from '../i18n';

/** When a rate-limited person can try again, as minutes from now and a clock time. */
function whenAgain(retryAfter: number, now: number): [minutes: number, time: string] {
  const minutes = Math.max(1, Math.ceil(retryAfter / 60));
  const time = new Intl.DateTimeFormat(uiLanguage(), { hour: 'numeric', minute: '2-digit' }).format(
    now + retryAfter * 1000,
  );
  return [minutes, time];
}

/** Why a follow, unfollow or profile request failed. */
export function describeProblem(error: unknown, now = Date.now()): string {
  if (error instanceof NetworkError) return t('profile_problem_network');
  if (error instanceof TimeoutError) return t('profile_problem_timeout');
  if (error instanceof UnauthenticatedError) return t('profile_problem_unauthenticated');
  if (error instanceof NotFoundError) return t('profile_problem_user_not_found');
  if (error instanceof CannotFollowSelfError) return t('profile_problem_follow_self');
  if (error instanceof CannotReportSelfError) return t('profile_problem_report_self');
  if (error instanceof RateLimitedError) {
    return error.retryAfter === undefined
      ? t('profile_problem_rate_limited')
      : tn('profile_problem_rate_limited_for', ...whenAgain(error.retryAfter, now));
  }
  if (error instanceof ServerError || error instanceof InvalidResponseError) return t('profile_problem_service');
  return t('profile_problem_other', error instanceof ApiError ? error.code : 'internal_error');
}

/** Why a report failed; a rate limit says when the person can report again. */
export function describeReportProblem(error: unknown, now = Date.now()): string {
  if (error instanceof RateLimitedError) {
    return error.retryAfter === undefined
      ? t('profile_report_rate_limited')
      : tn('profile_report_rate_limited_for', ...whenAgain(error.retryAfter, now));
  }
  if (error instanceof ApiError && error.code === 'invalid_report') return t('profile_report_invalid');
  return describeProblem(error, now);
}
