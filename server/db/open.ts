/**
 * Where the service keeps its data, and opening it: the backend's module is loaded only when
 * asked for, so a service on PostgreSQL never loads PGlite.
 */
import type { Database } from './database';

/** Where the service keeps its data. */
export type DatabaseOption =
  /**
   * PGlite in memory: gone when the service stops. `from` starts it as a copy of a data folder
   * another PGlite wrote out (`dumpDataDir`), rather than an empty cluster made afresh.
   */
  | { memory: true; from?: Blob }
  /** PGlite with its files in a folder, created when missing. One process at a time. */
  | { dataDir: string }
  /**
   * A PostgreSQL server. With `schema`, every table lives in that schema (created when missing),
   * so several services can share one database; `dropSchemaOnClose` removes it when the service stops.
   * `listenUrl` reaches the same database directly when `url` goes through a transaction pooler
   * (PgBouncer): live channels LISTEN there, since a pooled connection cannot keep a LISTEN.
   */
  | { url: string; listenUrl?: string; schema?: string; dropSchemaOnClose?: boolean };

export async function openDatabase(option: DatabaseOption): Promise<Database> {
  if ('url' in option) {
    const { openPostgres } = await import('./postgres');
    return openPostgres(option);
  }
  const { openPglite } = await import('./pglite');
  return 'dataDir' in option ? openPglite(option.dataDir) : openPglite(null, option.from);
}

/** The wording of a database option for logs, without a password. */
export function describeDatabase(option: DatabaseOption): string {
  if ('memory' in option) return 'PGlite in memory';
  if ('dataDir' in option) return `PGlite in ${option.dataDir}`;
  const url = new URL(option.url);
  url.password = '';
  const where = `${url.host}${url.pathname}`;
  const pooled = option.listenUrl !== undefined && option.listenUrl !== option.url ? ', through a pooler' : '';
  return `PostgreSQL at ${where}${option.schema ? ` (schema ${option.schema})` : ''}${pooled}`;
}
