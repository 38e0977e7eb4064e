/**
 * The one small query interface every store function uses. Two backends implement it with the
 * same SQL: PGlite (embedded PostgreSQL, in memory or in a data folder) and a PostgreSQL server.
 */

export interface QueryResult<Row> {
  rows: Row[];
  /** Rows an INSERT, UPDATE or DELETE changed; the number of rows for a SELECT. */
  rowCount: number;
}

/** How a statement is run. */
export interface QueryOptions {
  /**
   * Plan the statement with its parameters' values each time it runs. By default a statement
   * with parameters is kept prepared on each connection of a PostgreSQL server, and after five
   * runs the server may plan it once for any values: for a statement whose best plan depends on
   * them (a search of the snoozed or muted listing: a trigram index lookup for a rare word), that
   * plan can read a whole listing.
   */
  planEachTime?: boolean;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<Row>>;
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
