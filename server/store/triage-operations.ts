/**
 * Triage operations, kept while they can be undone. An operation is one triage call that
 * changed at least one notification; each row it changed carries its id in `last_op`, so an
 * undo touches exactly those rows (and none that a later operation has claimed since): among the
 * ids the operation named, or among its user's rows when it applied to the whole inbox.
 * Everything lives in the database: any service instance can undo what another did, and the
 * clean-up can run on all of them at once.
 */
import { randomUUID } from 'node:crypto';
import { LIMITS } from '../../lib/api/contract';
import type { Database, Queryable } from '../db/database';
import type { TriageStamp } from './notifications';

/**
 * Each kind of undoable operation, with the change that puts its rows back as they were before
 * it. A new kind of triage becomes undoable by adding its line here.
 */
const PUT_BACK = {
  read: 'read = false',
  unread: 'read = true',
  delete: 'deleted_at = NULL',
  snooze: 'snoozed_until = snoozed_before, snoozed_before = NULL',
} as const;

export type TriageKind = keyof typeof PUT_BACK;

/**
 * Memory for an operation's statement, set for its transaction alone. The unread counts' triggers
 * read the rows a statement changed as they were and as they became: 100,000 of them take about
 * 28 MB, which at the default 4 MB go to temporary files and back (an eighth of a mark all read's
 * time on PGlite). SET LOCAL ends with the transaction, so a pooled connection keeps nothing of it.
 */
const OPERATION_MEMORY = "SET LOCAL work_mem = '32MB'";

export interface RecordedOperation {
  id: string;
  expiresAt: Date;
}

/**
 * Runs one triage change as an operation, in one transaction: `change` applies it with the
 * stamp it is given and answers how many notifications it changed. The operation is recorded
 * only when that number is above 0; `operation` is then what an undo token names.
 */
export async function runOperation(
  db: Database,
  userId: number,
  kind: TriageKind,
  now: Date,
  change: (tx: Queryable, stamp: TriageStamp) => Promise<number>,
): Promise<{ count: number; operation: RecordedOperation | null }> {
  const stamp: TriageStamp = { operationId: randomUUID(), at: now };
  const expiresAt = new Date(now.getTime() + LIMITS.undoSeconds * 1000);
  return db.transaction(async (tx) => {
    await tx.query(OPERATION_MEMORY);
    const count = await change(tx, stamp);
    if (count === 0) return { count, operation: null };
    await tx.query(
      'INSERT INTO triage_operations (id, user_id, kind, expires_at, ids) VALUES ($1, $2, $3, $4, $5::uuid[])',
      [stamp.operationId, userId, kind, expiresAt.toISOString(), stamp.ids ?? null],
    );
    return { count, operation: { id: stamp.operationId, expiresAt } };
  });
}

/**
 * Undoes an operation of this user that has not expired at `now`, once, in one transaction:
 * the number of notifications put back, or null when there is no such operation any more
 * (already undone, expired, or removed by the clean-up).
 */
export async function undoOperation(
  db: Database,
  userId: number,
  operationId: string,
  now: Date,
): Promise<number | null> {
  return db.transaction(async (tx) => {
    // Taking the record out first makes a second undo, here or on another instance, wait for
    // this one and then find nothing; the clean-up skips a record this holds.
    const taken = await tx.query<{ kind: string; ids: string[] | null }>(
      'DELETE FROM triage_operations WHERE id = $1 AND user_id = $2 AND expires_at > $3 RETURNING kind, ids',
      [operationId, userId, now.toISOString()],
    );
    const operation = taken.rows[0];
    if (operation === undefined || !Object.hasOwn(PUT_BACK, operation.kind)) return null;
    await tx.query(OPERATION_MEMORY);
    const putBack = `UPDATE notifications SET ${PUT_BACK[operation.kind as TriageKind]}, last_op = NULL
       WHERE last_op = $1 AND user_id = $2`;
    const result =
      operation.ids === null
        ? await tx.query(putBack, [operationId, userId])
        : await tx.query(`${putBack} AND id = ANY($3::uuid[])`, [operationId, userId, operation.ids]);
    return result.rowCount;
  });
}

/** Operations the clean-up takes per transaction. */
const PURGE_BATCH = 200;

/**
 * Forgets operations whose undo window has passed at `now` and removes for good the
 * notifications they deleted. Each batch is locked with SKIP LOCKED, so instances running this
 * at once share the work without doing any of it twice, and skip an operation an undo holds.
 * The number of notifications removed.
 */
export async function purgeExpiredOperations(db: Database, now: Date): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const expired = await tx.query<{ id: string; kind: string; user_id: number; ids: string[] | null }>(
        `DELETE FROM triage_operations WHERE id IN (
           SELECT id FROM triage_operations WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED
         ) RETURNING id, kind, user_id, ids`,
        [now.toISOString(), PURGE_BATCH],
      );
      const deletes = expired.rows.filter((row) => row.kind === 'delete');
      // Those that named their ids are looked up by them; those on a whole inbox, by its user.
      const named = deletes.filter((row) => row.ids !== null);
      const whole = deletes.filter((row) => row.ids === null);
      let gone = 0;
      if (named.length > 0) {
        const result = await tx.query(
          `DELETE FROM notifications
           WHERE id = ANY($1::uuid[]) AND last_op = ANY($2::uuid[]) AND deleted_at IS NOT NULL`,
          [named.flatMap((row) => row.ids ?? []), named.map((row) => row.id)],
        );
        gone += result.rowCount;
      }
      if (whole.length > 0) {
        const result = await tx.query(
          `DELETE FROM notifications
           WHERE user_id = ANY($1::int[]) AND last_op = ANY($2::uuid[]) AND deleted_at IS NOT NULL`,
          [whole.map((row) => row.user_id), whole.map((row) => row.id)],
        );
        gone += result.rowCount;
      }
      return { operations: expired.rows.length, gone };
    });
    removed += batch.gone;
    if (batch.operations < PURGE_BATCH) return removed;
  }
}
