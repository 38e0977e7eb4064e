/**
 * Through PgBouncer in transaction pooling a connection cannot choose its schema, so a test
 * service that would get a schema of its own gets a database of its own instead, named the same,
 * whose search_path is that schema: the service's SQL and the tests' schema names work unchanged.
 */
import pg from 'pg';

/**
 * The pooler's address for DATABASE_URL's server, in the pooled server project only: its global
 * setup starts the pooler (and, like every global setup, shares the environment with all the
 * projects), and the project's own environment says to use it.
 */
export const POOLER_URL = process.env.INBOX_TEST_POOLED === '1' ? process.env.INBOX_TEST_POOLER_URL : undefined;

function withDatabase(url: string, database: string): string {
  const out = new URL(url);
  out.pathname = `/${database}`;
  return out.toString();
}

async function onServer<T>(database: string | null, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const direct = process.env.DATABASE_URL;
  if (!direct) throw new Error('The pooled backend needs DATABASE_URL.');
  const client = new pg.Client({ connectionString: database ? withDatabase(direct, database) : direct });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The database `name` (created when missing), reached through the pooler for data and directly for LISTEN. */
export async function pooledDatabase(name: string): Promise<{ url: string; listenUrl: string }> {
  if (!POOLER_URL) throw new Error('No pooler runs for this project.');
  await onServer(null, (client) =>
    client.query(`CREATE DATABASE ${name} TEMPLATE template0`).catch((error: { code?: string }) => {
      if (error.code !== '42P04') throw error;
    }),
  );
  await onServer(name, async (client) => {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${name}`);
    await client.query(`ALTER DATABASE ${name} SET search_path = ${name}`);
  });
  return { url: withDatabase(POOLER_URL, name), listenUrl: withDatabase(process.env.DATABASE_URL as string, name) };
}

export function dropPooledDatabase(name: string): Promise<void> {
  return onServer(null, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

/** The databases on the server now: the pooled project drops the ones its tests leave. */
export function databaseNames(): Promise<string[]> {
  return onServer(null, async (client) => {
    const result = await client.query<{ datname: string }>('SELECT datname FROM pg_database');
    return result.rows.map((row) => row.datname);
  });
}
