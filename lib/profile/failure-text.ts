/**
 * What went wrong on a profile page, in words a person can act on. Failures are classified once,
 * in `lib/failure.ts`; this module only chooses the in-page words for each kind.
 */
import { type FailureKind, failureCode, failureKind, retryAfter } from '../failure';
import { t, tn, uiLanguage } from '../i18n';

type Words = (error: unknown, now: number) => string;

/** When a rate-limited person can try again, as minutes from now and a clock time. */
function whenAgain(retryAfter: number, now: number): [minutes: number, time: string] {
  const minutes = Math.max(1, Math.ceil(retryAfter / 60));
  const time = new Intl.DateTimeFormat(uiLanguage(), { hour: 'numeric', minute: '2-digit' }).format(
    now + retryAfter * 1000,
  );
  return [minutes, time];
}

const network = () => t('profile_problem_network');
const service = () => t('profile_problem_service');
const other: Words = (error) => t('profile_problem_other', failureCode(error));

const PROFILE_WORDS: Record<FailureKind, Words> = {
  offline: network,
  unreachable: network,
  timeout: () => t('profile_problem_timeout'),
  unauthorized: () => t('profile_problem_unauthenticated'),
  rateLimited: (error, now) => {
    const seconds = retryAfter(error);
    return seconds === null
      ? t('profile_problem_rate_limited')
      : tn('profile_problem_rate_limited_for', ...whenAgain(seconds, now));
  },
  serverError: service,
  notThisService: service,
  notFound: () => t('profile_problem_user_not_found'),
  followSelf: () => t('profile_problem_follow_self'),
  reportSelf: () => t('profile_problem_report_self'),
  invalidRequest: other,
  invalidTime: other,
  refused: other,
  invalidInput: other,
  aborted: other,
  unexpected: other,
  internal: other,
};

const REPORT_WORDS: Record<FailureKind, Words> = {
  ...PROFILE_WORDS,
  rateLimited: (error, now) => {
    const seconds = retryAfter(error);
    return seconds === null
      ? t('profile_report_rate_limited')
      : tn('profile_report_rate_limited_for', ...whenAgain(seconds, now));
  },
  invalidRequest: () => t('profile_report_invalid'),
  invalidTime: () => t('profile_report_invalid'),
};

/** Why a follow, unfollow or profile request failed. */
export function profileFailureText(error: unknown, now = Date.now()): string {
  return PROFILE_WORDS[failureKind(error)](error, now);
}

/** Why a report failed; a rate limit says when the person can report again. */
export function reportFailureText(error: unknown, now = Date.now()): string {
  return REPORT_WORDS[failureKind(error)](error, now);
}
