/**
 * What stands between the person and their inbox, decided from the background's connection
 * status and the last failed page load, and the words that explain a failed action.
 */
import {
  type ApiError,
  NetworkError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthenticatedError,
} from '../api/errors';
import { type MessageKey, t, tn } from '../i18n';
import type { ConnectionStatus, StatusKind } from '../messaging';

export type ProblemKind =
  | 'signedOut'
  | 'unauthorized'
  | 'notThisService'
  | 'noPermission'
  | 'offline'
  | 'unreachable'
  | 'rateLimited'
  | 'failed';

export interface Problem {
  kind: ProblemKind;
  /** Seconds the service asked to wait, when it said. */
  retryAfter: number | null;
  /** The error's own words, for a failure no other kind describes. */
  detail: string | null;
}

const SETTINGS_KINDS: ReadonlySet<StatusKind> = new Set([
  'signedOut',
  'unauthorized',
  'notThisService',
  'noPermission',
]);

/** Problems only the settings page can solve: until then there is no inbox to show. */
export function needsSettings(
  kind: StatusKind | ProblemKind,
): kind is 'signedOut' | 'unauthorized' | 'notThisService' | 'noPermission' {
  return SETTINGS_KINDS.has(kind as StatusKind);
}

const problem = (kind: ProblemKind, retryAfter: number | null = null, detail: string | null = null): Problem => ({
  kind,
  retryAfter,
  detail,
});

function isConnectionFailure(error: ApiError): boolean {
  return error instanceof NetworkError || error instanceof TimeoutError;
}

export function problemFromError(error: ApiError, status: ConnectionStatus, online: boolean): Problem {
  if (error instanceof UnauthenticatedError) return problem(status.kind === 'signedOut' ? 'signedOut' : 'unauthorized');
  if (needsSettings(status.kind)) return problem(status.kind);
  if (error instanceof RateLimitedError) return problem('rateLimited', error.retryAfter ?? null);
  if (isConnectionFailure(error)) return problem(!online || status.kind === 'offline' ? 'offline' : 'unreachable');
  return problem('failed', null, error.detail || error.code);
}

export interface ProblemInputs {
  status: ConnectionStatus;
  /** A page was fetched since the status last reported a settings problem. */
  verified: boolean;
  error: ApiError | null;
  online: boolean;
}

/** The problem to show now, or null when the inbox can be shown as it is. */
export function currentProblem({ status, verified, error, online }: ProblemInputs): Problem | null {
  if (!verified && needsSettings(status.kind)) return problem(status.kind);
  return error ? problemFromError(error, status, online) : null;
}

/** Why an action failed, in a sentence a person can act on. */
export function failureReason(error: ApiError, online: boolean): string {
  if (error instanceof UnauthenticatedError) return t('popup_reason_unauthorized');
  if (error instanceof RateLimitedError) {
    return error.retryAfter ? tn('popup_reason_rate_limited_wait', error.retryAfter) : t('popup_reason_rate_limited');
  }
  if (isConnectionFailure(error)) return online ? t('popup_reason_unreachable') : t('popup_reason_offline');
  if (error instanceof ServerError) return t('popup_reason_server');
  return t('popup_reason_unknown', error.detail || error.code);
}

const words: Record<ProblemKind, [MessageKey, MessageKey]> = {
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
export function describeProblem(problem: Problem): { title: string; body: string } {
  const [title, body] = words[problem.kind];
  if (problem.kind === 'rateLimited' && problem.retryAfter) {
    return { title: t(title), body: tn('popup_rate_limited_wait', problem.retryAfter) };
  }
  return { title: t(title), body: t(body, problem.detail ?? '') };
}
