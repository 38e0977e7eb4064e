/**
 * Idempotency keys: per caller and key, the digest of the request that first used the key and
 * the answer it got, for 24 hours. The row is written in the transaction of the action itself,
 * so it exists exactly when the action committed.
 */
import type { Queryable } from '../db/database';

export const IDEMPOTENCY_KEY_HOURS = 24;

export interface KeptAnswer {
  digest: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const cutoff = (now: Date) => new Date(now.getTime() - IDEMPOTENCY_KEY_HOURS * 3_600_000).toISOString();

/**
 * Claims `key` for this request: null when it was free (or only expired), else what the first
 * request with it kept. Two transactions claiming one key at once take turns on its row.
 */
export async function claimKey(
  tx: Queryable,
  caller: string,
  key: string,
  digest: string,
  now: Date,
): Promise<KeptAnswer | null> {
  const claimed = await tx.query(
    `INSERT INTO idempotency_keys (caller, key, digest, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (caller, key) DO UPDATE SET digest = $3, created_at = $4, status = NULL, headers = NULL, body = NULL
       WHERE idempotency_keys.created_at <= $5
     RETURNING 1`,
    [caller, key, digest, now.toISOString(), cutoff(now)],
  );
  if (claimed.rowCount === 1) return null;
  const kept = await tx.query<KeptAnswer>(
    'SELECT digest, status, headers, body FROM idempotency_keys WHERE caller = $1 AND key = $2',
    [caller, key],
  );
  return kept.rows[0] ?? null;
}

export async function keepAnswer(
  tx: Queryable,
  caller: string,
  key: string,
  answer: Omit<KeptAnswer, 'digest'>,
): Promise<void> {
  await tx.query('UPDATE idempotency_keys SET status = $3, headers = $4, body = $5 WHERE caller = $1 AND key = $2', [
    caller,
    key,
    answer.status,
    JSON.stringify(answer.headers),
    answer.body,
  ]);
}

const PURGE_BATCH = 1000;

/**
 * Forgets the keys older than 24 hours, a batch at a time and passing over any row a request
 * holds, so no request waits on it; the number forgotten.
 */
export async function purgeExpiredKeys(db: Queryable, now: Date): Promise<number> {
  let removed = 0;
  for (;;) {
    const result = await db.query(
      `DELETE FROM idempotency_keys WHERE (caller, key) IN (
         SELECT caller, key FROM idempotency_keys WHERE created_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED
       )`,
      [cutoff(now), PURGE_BATCH],
    );
    removed += result.rowCount;
    if (result.rowCount < PURGE_BATCH) return removed;
  }
}
