import { createHash } from 'node:crypto';
import pg from 'pg';
import { CHANNEL_PATTERN, type Database, type Queryable } from './database';

const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/** Far more than the statements the service runs; beyond it, statements are no longer kept prepared. */
const MAX_PREPARED = 200;
const preparedNames = new Map<string, string>();

/**
 * The name a statement with parameters is prepared under on each connection, so PostgreSQL
 * parses and plans it once per connection instead of on every request. Statements without
 * parameters (schema changes, several statements in one text) run as they are.
 */
function preparedName(sql: string, params: readonly unknown[]): string | undefined {
  if (params.length === 0) return undefined;
  let name = preparedNames.get(sql);
  if (name === undefined && preparedNames.size < MAX_PREPARED) {
    name = `s${createHash('sha256').update(sql).digest('base64url').slice(0, 16)}`;
    preparedNames.set(sql, name);
  }
  return name;
}

function wrap(client: pg.Pool | pg.PoolClient, prepare: boolean): Queryable {
  return {
    async query(sql, params = [], options = {}) {
      const name = prepare && !options.planEachTime ? preparedName(sql, params) : undefined;
      const result = await client.query({ text: sql, values: params as unknown[], name });
      return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
    },
  };
}

export async function openPostgres(option: {
  url: string;
  listenUrl?: string;
  schema?: string;
  dropSchemaOnClose?: boolean;
}): Promise<Database> {
  const { schema } = option;
  // A listening address apart from the data's means the data's goes through a transaction pooler,
  // which hands each transaction whatever server connection is free: a statement prepared under a
  // name on one is unknown on the next, so statements go unnamed there.
  const pooled = option.listenUrl !== undefined && option.listenUrl !== option.url;
  if (schema !== undefined && pooled) {
    throw new Error(
      'A schema is chosen per connection, which a transaction pooler does not keep: give the database its own search_path instead.',
    );
  }
  if (schema !== undefined && !SCHEMA_PATTERN.test(schema)) {
    throw new Error(`"${schema}" is not a schema name this service uses: lowercase letters, digits and _.`);
  }
  if (schema) {
    const setup = new pg.Client({ connectionString: option.url });
    await setup.connect();
    try {
      await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await setup.end();
    }
  }
  const connection = {
    connectionString: option.url,
    connectionTimeoutMillis: 10_000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  };
  const listening = { ...connection, connectionString: option.listenUrl ?? option.url };
  const pool = new pg.Pool({ ...connection, max: 10, idleTimeoutMillis: 10_000 });
  // An idle client that loses its connection must not take the process down.
  pool.on('error', () => {});
  const guarded = new WeakSet<pg.PoolClient>();
  const root = wrap(pool, !pooled);
  let closing: Promise<void> | undefined;
  return {
    kind: 'postgres',
    query: root.query,
    async transaction(work) {
      const client = await pool.connect();
      // The pool's handler covers idle clients only. A server that ends the connection while a
      // client is checked out or being dropped (a restart) makes it emit 'error', which with no
      // listener would take the process down; the failed statement says what went wrong.
      if (!guarded.has(client)) {
        guarded.add(client);
        client.on('error', () => {});
      }
      try {
        await client.query('BEGIN');
        const result = await work(wrap(client, !pooled));
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (error) {
        // A connection that cannot even roll back is broken: drop it rather than reuse it.
        const broken = await client.query('ROLLBACK').then(
          () => false,
          () => true,
        );
        client.release(broken);
        throw error;
      }
    },
    async listen(channel, onPayload, onLost) {
      if (!CHANNEL_PATTERN.test(channel)) throw new Error(`Not a channel name: ${channel}`);
      const client = new pg.Client({ ...listening, keepAlive: true });
      let stopped = false;
      const lost = (error?: unknown) => {
        if (stopped) return;
        stopped = true;
        client.end().catch(() => {});
        onLost(error ?? new Error('The listening connection ended.'));
      };
      client.on('error', lost);
      client.on('end', () => lost());
      client.on('notification', (message) => {
        if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${channel}`);
      } catch (error) {
        stopped = true;
        await client.end().catch(() => {});
        throw error;
      }
      return async () => {
        stopped = true;
        await client.end().catch(() => {});
      };
    },
    close() {
      closing ??= (async () => {
        if (schema && option.dropSchemaOnClose) {
          await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
        }
        await pool.end();
      })();
      return closing;
    },
  };
}
