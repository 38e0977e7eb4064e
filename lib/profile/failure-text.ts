/**
 * What went wrong on a profile page, in words a person can act on. Failures are classified once,
 * and the in-page words for each kind chosen, in `lib/failure.ts`; the buttons load this with
 * their first failure.
 */
import { FAILURES, failureCode, failureKind, retryAfter } from '../failure';
import { t, tn, uiLanguage } from '../i18n';

/** When a rate-limited person can try again, as minutes from now and a clock time. */
function whenAgain(retryAfter: number, now: number): [minutes: number, time: string] {
  const minutes = Math.max(1, Math.ceil(retryAfter / 60));
  const time = new Intl.DateTimeFormat(uiLanguage(), { hour: 'numeric', minute: '2-digit' }).format(
    now + retryAfter * 1000,
  );
  return [minutes, time];
}

/** The words for a failure on a profile page: a report's own where they differ, else the profile's. */
function words(error: unknown, now: number, report: boolean): string {
  const { profile, report: reportTag } = FAILURES[failureKind(error)];
  const seconds = retryAfter(error);
  if (report && reportTag) {
    return reportTag === 'rate_limited' && seconds !== null
      ? tn('profile_report_rate_limited_for', ...whenAgain(seconds, now))
      : t(`profile_report_${reportTag}`);
  }
  return profile === 'rate_limited' && seconds !== null
    ? tn('profile_problem_rate_limited_for', ...whenAgain(seconds, now))
    : t(`profile_problem_${profile}`, failureCode(error));
}

/** Why a follow, unfollow or profile request failed. */
export function profileFailureText(error: unknown, now = Date.now()): string {
  return words(error, now, false);
}

/** Why a report failed; a rate limit says when the person can report again. */
export function reportFailureText(error: unknown, now = Date.now()): string {
  return words(error, now, true);
}

/** Whether a failure means the service no longer takes the account's token: the person signs in again. */
export const signsOut = (error: unknown) => failureKind(error) === 'unauthorized';
