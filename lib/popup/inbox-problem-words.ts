/**
 * What stands between the person and their inbox as the popup shows it: the problems only the
 * settings page can solve, and the heading and sentence for each. Free of the failure classifier
 * (`inbox-problem`), which loads with the code that meets failures, so the popup's first screen
 * does not carry it.
 */

import type { ApiError } from '../api/errors';
import type { InboxProblemKind } from '../failure';
import { type MessageKey, t, tn } from '../i18n';
import type { ConnectionStatus, StatusKind } from '../messaging';

export type { InboxProblemKind };

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

export const inboxProblem = (
  kind: InboxProblemKind,
  retry: number | null = null,
  code: string | null = null,
): InboxProblem => ({
  kind,
  retryAfter: retry,
  code,
});

export interface ProblemInputs {
  status: ConnectionStatus;
  /** A page was fetched since the status last reported a settings problem. */
  verified: boolean;
  error: ApiError | null;
  online: boolean;
}

/**
 * The problem to show now, or null when the inbox can be shown as it is; `fromError` says what a
 * failed page load means (`problemFromError` of `inbox-problem`).
 */
export function shownProblem(
  { status, verified, error }: ProblemInputs,
  fromError: (error: ApiError) => InboxProblem,
): InboxProblem | null {
  if (!verified && needsSettings(status.kind)) return inboxProblem(status.kind);
  return error ? fromError(error) : null;
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
