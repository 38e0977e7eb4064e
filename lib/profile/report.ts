/**
 * The report form: the contract's reasons in words, the comment's bound, and the form's state
 * from opening to the service's answer. The draft survives a failed send, so nothing the person
 * wrote is lost.
 */
import { LIMITS, REPORT_REASONS, type ReportReason } from '../api/contract';
import type { MessageKey } from '../i18n';

export const COMMENT_MAX = LIMITS.reportCommentMax;

export const REASON_LABELS: Readonly<Record<ReportReason, MessageKey>> = {
  spam: 'profile_reason_spam',
  harassment: 'profile_reason_harassment',
  impersonation: 'profile_reason_impersonation',
  inappropriate: 'profile_reason_inappropriate',
  other: 'profile_reason_other',
};

export { REPORT_REASONS };

export interface ReportForm {
  reason: ReportReason | null;
  comment: string;
  sending: boolean;
  /** Why the form cannot be sent or why sending failed, in words for the person. */
  problem: string | null;
  /** The service received the report. */
  received: boolean;
}

export const emptyReport = (): ReportForm => ({
  reason: null,
  comment: '',
  sending: false,
  problem: null,
  received: false,
});

/** A comment cut to the contract's bound, as the field's own limit would. */
export const boundComment = (comment: string): string => comment.slice(0, COMMENT_MAX);
