import { LIMITS, type ReportReason } from '../../lib/api/contract';
import type { Database } from '../db/database';
import { toIso } from '../db/values';

export interface StoredReport {
  id: string;
  reason: ReportReason;
  createdAt: string;
}

export type ReportOutcome = { created: StoredReport } | { retryAfter: number };

const WINDOW = "interval '1 hour'";

/**
 * Records a report unless the reporter already made the hour's allowance. The count lives in
 * the database, so the limit holds across restarts and between services sharing one database;
 * locking the reporter's row makes concurrent reports take turns.
 */
export async function createReport(
  db: Database,
  report: { reporterId: number; reportedId: number; reason: ReportReason; comment: string },
): Promise<ReportOutcome> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [report.reporterId]);
    const recent = await tx.query<{ count: number; retry_after: number | null }>(
      `SELECT count(*)::int AS count,
         ceil(extract(epoch FROM min(created_at) + ${WINDOW} - now()))::int AS retry_after
       FROM reports WHERE reporter_id = $1 AND created_at > now() - ${WINDOW}`,
      [report.reporterId],
    );
    const { count = 0, retry_after = null } = recent.rows[0] ?? {};
    if (count >= LIMITS.reportsPerHour) return { retryAfter: Math.max(1, retry_after ?? 3600) };
    const inserted = await tx.query<{ id: string; reason: ReportReason; created_at: Date }>(
      `INSERT INTO reports (reporter_id, reported_id, reason, comment) VALUES ($1, $2, $3, $4)
       RETURNING id, reason, created_at`,
      [report.reporterId, report.reportedId, report.reason, report.comment],
    );
    const row = inserted.rows[0] as { id: string; reason: ReportReason; created_at: Date };
    return { created: { id: row.id, reason: row.reason, createdAt: toIso(row.created_at) } };
  });
}
