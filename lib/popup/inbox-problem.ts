/**
 * What stands between the person and their inbox, decided from the background's connection
 * status and the last failed page load, and the words that explain a failed action. Failures
 * are classified once, in `lib/failure.ts`; this module only chooses the popup's words.
 */
import type { ApiError } from '../api/errors';
import { type FailureKind, failureCode, failureKind, retryAfter } from '../failure';
import { type MessageKey, t, tn } from '../i18n';
import type { ConnectionStatus, StatusKind } from '../messaging';

/** A problem the status reports, or a page load that failed for a reason the status does not know. */
export type InboxProblemKind = Exclude<StatusKind, 'ok'> | 'failed';

export interface InboxProblem {
  kind: InboxProblemKind;
  /** Seconds the service asked to wait, when it said. */
  retryAfter: number | null;
  /** The failure's code, for a failure no other kind describes. */
  code: string | null;
}

type SettingsKind = 'signedOut' | 'unauthorized' | 'notThisService' | 'noPermission';

const SETTINGS_KINDS: ReadonlySet<InboxProblemKind> = new Set<SettingsKind>([
  'signedOut',
  'unauthorized',
  'notThisService',
  'noPermission',
]);

/** Problems only the settings page can solve: until then there is no inbox to show. */
export function needsSettings(kind: InboxProblemKind | StatusKind): kind is SettingsKind {
  return SETTINGS_KINDS.has(kind as InboxProblemKind);
}

/** The popup's problem for each kind of failed page load. */
const PROBLEM_FOR: Record<FailureKind, InboxProblemKind> = {
  offline: 'offline',
  unreachable: 'unreachable',
  timeout: 'unreachable',
  unauthorized: 'unauthorized',
  rateLimited: 'rateLimited',
  serverError: 'failed',
  notThisService: 'failed',
  notFound: 'failed',
  followSelf: 'failed',
  reportSelf: 'failed',
  invalidRequest: 'failed',
  invalidTime: 'failed',
  refused: 'failed',
  invalidInput: 'failed',
  aborted: 'failed',
  unexpected: 'failed',
  internal: 'failed',
};

const problem = (kind: InboxProblemKind, retry: number | null = null, code: string | null = null): InboxProblem => ({
  kind,
  retryAfter: retry,
  code,
});

export function problemFromError(error: unknown, status: ConnectionStatus, online: boolean): InboxProblem {
  const kind = PROBLEM_FOR[failureKind(error, { online: online && status.kind !== 'offline' })];
  if (kind === 'unauthorized') return problem(status.kind === 'signedOut' ? 'signedOut' : 'unauthorized');
  if (needsSettings(status.kind)) return problem(status.kind);
  if (kind === 'rateLimited') return problem(kind, retryAfter(error));
  return problem(kind, null, kind === 'failed' ? failureCode(error) : null);
}

export interface ProblemInputs {
  status: ConnectionStatus;
  /** A page was fetched since the status last reported a settings problem. */
  verified: boolean;
  error: ApiError | null;
  online: boolean;
}

/** The problem to show now, or null when the inbox can be shown as it is. */
export function currentProblem({ status, verified, error, online }: ProblemInputs): InboxProblem | null {
  if (!verified && needsSettings(status.kind)) return problem(status.kind);
  return error ? problemFromError(error, status, online) : null;
}

const unknownReason = (error: unknown) => t('popup_reason_unknown', failureCode(error));

/** Why an action failed, for each kind: a sentence a person can act on. */
const REASONS: Record<FailureKind, (error: unknown) => string> = {
  offline: () => t('popup_reason_offline'),
  unreachable: () => t('popup_reason_unreachable'),
  timeout: () => t('popup_reason_unreachable'),
  unauthorized: () => t('popup_reason_unauthorized'),
  rateLimited: (error) => {
    const seconds = retryAfter(error);
    return seconds ? tn('popup_reason_rate_limited_wait', seconds) : t('popup_reason_rate_limited');
  },
  serverError: () => t('popup_reason_server'),
  notThisService: unknownReason,
  notFound: unknownReason,
  followSelf: unknownReason,
  reportSelf: unknownReason,
  invalidRequest: unknownReason,
  invalidTime: () => t('popup_reason_invalid_until'),
  refused: unknownReason,
  invalidInput: unknownReason,
  aborted: unknownReason,
  unexpected: unknownReason,
  internal: unknownReason,
};

/** Why an action failed, in a sentence a person can act on. */
export function failureReason(error: unknown, online: boolean): string {
  return REASONS[failureKind(error, { online })](error);
}

const WORDS: Record<InboxProblemKind, [MessageKey, MessageKey]> = {
  signedOut: ['popup_signed_out_title', 'popup_signed_out_body'],
  unauthorized: ['popup_unauthorized_title', 'popup_unauthorized_body'],
  notThisService: ['popup_not_this_service_title', 'popup_not_this_service_body'],
  noPermission: ['popup_no_permission_title', 'popup_no_permission_body'],
  offline: ['popup_offline_title', 'popup_offline_body'],
  unreachable: ['popup_unreachable_title', 'popup_unreachable_body'],
  rateLimited: ['popup_rate_limited_title', 'popup_rate_limited_body'],
  failed: ['popup_failed_title', 'popup_failed_body'],
};

/** A heading and a sentence that say what happened and what to do. */
export function describeInboxProblem(problem: InboxProblem): { title: string; body: string } {
  const [title, body] = WORDS[problem.kind];
  if (problem.kind === 'rateLimited' && problem.retryAfter) {
    return { title: t(title), body: tn('popup_rate_limited_wait', problem.retryAfter) };
  }
  return { title: t(title), body: t(body, problem.code ?? '') };
}
