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
