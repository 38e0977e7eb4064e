/**
 * `GET /health`: whether this instance can serve now, for a load balancer's checks. It asks the
 * database one trivial question and gives it a short time to answer, so an instance whose
 * database is gone, or whose connections are all taken, is left out until it recovers. No
 * caller, no body to read, nothing kept.
 */
import type { Handler } from 'hono';
import type { Queryable } from '../db/database';
import { ProblemError } from './problem';

/** Far above what `SELECT 1` takes on a working database, and well inside a balancer's check timeout. */
export const HEALTH_TIMEOUT_MS = 2_000;

export interface HealthDeps {
  db: Queryable;
  /** True once the instance is shutting down: the balancer should send it nothing new. */
  closing?: () => boolean;
  /** Milliseconds the database has to answer; default `HEALTH_TIMEOUT_MS`. */
  timeoutMs?: number;
}

/** Why the database cannot serve now, or null when it answered in time. */
async function databaseTrouble(db: Queryable, timeoutMs: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`The database did not answer within ${timeoutMs} ms.`), timeoutMs);
  });
  const answered = db.query('SELECT 1').then(
    () => null,
    () => 'The service cannot reach its database.',
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function healthHandler(deps: HealthDeps): Handler {
  const timeoutMs = deps.timeoutMs ?? HEALTH_TIMEOUT_MS;
  return async (c) => {
    const trouble = deps.closing?.() ? 'The service is shutting down.' : await databaseTrouble(deps.db, timeoutMs);
    if (trouble) {
      throw new ProblemError(503, 'service_unavailable', trouble, { 'retry-after': '5' });
    }
    c.header('cache-control', 'no-store');
    return c.json({ status: 'ok' });
  };
}
