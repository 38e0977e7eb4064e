import { afterAll } from 'vitest';
import type { Database } from '../../../server/db/database';
import { openDatabase } from '../../../server/db/open';
import { type Backend, databaseFor } from '../../support/service';

/**
 * Opens an empty database of `backend` at each call, for a describe block: every one is closed
 * and dropped after the block.
 */
export function emptyDatabases(backend: Backend): () => Promise<Database> {
  const opened: Database[] = [];
  const cleanUps: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    await Promise.all(cleanUps.map((cleanUp) => cleanUp()));
  });
  return async () => {
    const { option, cleanUp } = await databaseFor(backend, {});
    const db = await openDatabase(option);
    opened.push(db);
    cleanUps.push(cleanUp);
    return db;
  };
}

/**
 * What the start of a release with `migrations` did to an empty database: the table that records
 * them, then each migration's statements and its record, in one transaction.
 */
export async function migrateAsReleased(
  db: Database,
  migrations: readonly { version: number; name: string; statements: readonly string[] }[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`CREATE TABLE schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    for (const { version, name, statements } of migrations) {
      for (const statement of statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [version, name]);
    }
  });
}
