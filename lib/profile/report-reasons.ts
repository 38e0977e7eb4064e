/**
 * The contract's report reasons in words. Only the report dialog names them, so they load with
 * it, not with the buttons.
 */
import { REPORT_REASONS, type ReportReason } from '../api/contract';
import type { MessageKey } from '../i18n';

export const REASON_LABELS: Readonly<Record<ReportReason, MessageKey>> = {
  spam: 'profile_reason_spam',
  harassment: 'profile_reason_harassment',
  impersonation: 'profile_reason_impersonation',
  inappropriate: 'profile_reason_inappropriate',
  other: 'profile_reason_other',
};

export { REPORT_REASONS };
