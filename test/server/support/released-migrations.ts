import type { Database } from '../../../server/db/database';

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
