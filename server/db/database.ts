/**
 * The one small query interface every store function uses. Two backends implement it with the
 * same SQL: PGlite (embedded PostgreSQL, in memory or in a data folder) and a PostgreSQL server.
 */

export interface QueryResult<Row> {
  rows: Row[];
  /** Rows an INSERT, UPDATE or DELETE changed; the number of rows for a SELECT. */
  rowCount: number;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
}

export type Unlisten = () => Promise<void>;

/** Channel names are made by the schema's `live_channel()`; nothing else is ever listened to. */
export const CHANNEL_PATTERN = /^[a-z0-9_]{1,63}$/;

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: it commits when `work` resolves and rolls back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Hears NOTIFY on `channel` on a connection of its own: `onPayload` for each one, `onLost` once
   * when that connection fails (listen again to recover). Resolves, once listening, to a stop.
   */
  listen(channel: string, onPayload: (payload: string) => void, onLost: (error: unknown) => void): Promise<Unlisten>;
  close(): Promise<void>;
}

/** Where the service keeps its data. */
export type DatabaseOption =
  /** PGlite in memory: gone when the service stops. */
  | { memory: true }
  /** PGlite with its files in a folder, created when missing. One process at a time. */
  | { dataDir: string }
  /**
   * A PostgreSQL server. With `schema`, every table lives in that schema (created when missing),
   * so several services can share one database; `dropSchemaOnClose` removes it when the service stops.
   */
  | { url: string; schema?: string; dropSchemaOnClose?: boolean };

export async function openDatabase(option: DatabaseOption): Promise<Database> {
  if ('url' in option) {
    const { openPostgres } = await import('./postgres');
    return openPostgres(option);
  }
  const { openPglite } = await import('./pglite');
  return openPglite('dataDir' in option ? option.dataDir : null);
}

/** The wording of a database option for logs, without a password. */
export function describeDatabase(option: DatabaseOption): string {
  if ('memory' in option) return 'PGlite in memory';
  if ('dataDir' in option) return `PGlite in ${option.dataDir}`;
  const url = new URL(option.url);
  url.password = '';
  const where = `${url.host}${url.pathname}`;
  return `PostgreSQL at ${where}${option.schema ? ` (schema ${option.schema})` : ''}`;
}
