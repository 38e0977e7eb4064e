/**
 * What stands between the person and their inbox, decided from the background's connection
 * status and the last failed page load, and the words that explain a failed action. Failures
 * are classified once, and the popup's words for each kind chosen, in `lib/failure.ts`; the
 * problems and their words without the classifier are in `inbox-problem-words`.
 */
import { FAILURES, failureCode, failureKind, retryAfter } from '../failure';
import { t, tn } from '../i18n';
import type { ConnectionStatus } from '../messaging';
import {
  type InboxProblem,
  needsSettings,
  type ProblemInputs,
  inboxProblem as problem,
  shownProblem,
} from './inbox-problem-words';

export {
  describeInboxProblem,
  type InboxProblem,
  type InboxProblemKind,
  needsSettings,
  type ProblemInputs,
} from './inbox-problem-words';

export function problemFromError(error: unknown, status: ConnectionStatus, online: boolean): InboxProblem {
  const kind = FAILURES[failureKind(error, { online: online && status.kind !== 'offline' })].inbox;
  if (kind === 'unauthorized') return problem(status.kind === 'signedOut' ? 'signedOut' : 'unauthorized');
  if (needsSettings(status.kind)) return problem(status.kind);
  if (kind === 'rateLimited') return problem(kind, retryAfter(error));
  return problem(kind, null, kind === 'failed' ? failureCode(error) : null);
}

/** The problem to show now, or null when the inbox can be shown as it is. */
export function currentProblem(inputs: ProblemInputs): InboxProblem | null {
  return shownProblem(inputs, (error) => problemFromError(error, inputs.status, inputs.online));
}

/** Why an action failed, in a sentence a person can act on. */
export function failureReason(error: unknown, online: boolean): string {
  const reason = FAILURES[failureKind(error, { online })].reason;
  const seconds = retryAfter(error);
  if (reason === 'rate_limited' && seconds) return tn('popup_reason_rate_limited_wait', seconds);
  return t(`popup_reason_${reason}`, failureCode(error));
}
