/**
 * The report form: the comment's bound, and the form's state from opening to the service's
 * answer (the reasons' words are in `report-reasons.ts`). The draft survives a failed send, so
 * nothing the person wrote is lost.
 */
import { LIMITS, type ReportReason } from '../api/contract';

export const COMMENT_MAX = LIMITS.reportCommentMax;

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
