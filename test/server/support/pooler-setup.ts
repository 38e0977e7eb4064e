/**
 * Global setup of the server suite's pooled run: PgBouncer in transaction pooling in front of
 * DATABASE_URL's server, as a deployment that grows past one machine runs the service. Each test
 * service gets a database of its own there (see test/support/pooled-database.ts); the ones the
 * tests leave are dropped at the end.
 */
import { startPgBouncer } from '../../../scripts/pgbouncer';
import { databaseNames, dropPooledDatabase } from '../../support/pooled-database';

export default async function setup() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('The pooled run needs DATABASE_URL.');
  const before = new Set(await databaseNames());
  const pooler = await startPgBouncer(url);
  process.env.INBOX_TEST_POOLER_URL = pooler.url(url);
  return async () => {
    await pooler.stop();
    for (const name of await databaseNames()) if (!before.has(name)) await dropPooledDatabase(name);
  };
}
