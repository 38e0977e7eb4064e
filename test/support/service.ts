/**
 * A real reference service for tests. Each start is isolated from every other: PGlite in memory,
 * or a PostgreSQL schema of its own (dropped on close) when the backend is `postgres`.
 *
 * ```ts
 * const service = await startTestService({ backend: 'pglite' });
 * const alice = await service.newUser('alice');
 * await alice.client.user(bob.username).follow();
 * await service.close();
 * ```
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Client, createClient } from '../../lib/api';
import type { Notification, OperatorNotificationBody } from '../../lib/api/contract';
import { MIGRATIONS, migrate } from '../../server/db/migrations';
import { openPglite } from '../../server/db/pglite';
import {
  type DatabaseOption,
  type NotificationInput,
  type RunningServer,
  type ServerOptions,
  startServer,
} from '../../server/index';
import { dropPooledDatabase, POOLER_URL, pooledDatabase } from './pooled-database';

export type Backend = 'pglite' | 'postgres';

/**
 * The backends the service's suite runs on: PGlite always, PostgreSQL when DATABASE_URL is set;
 * in the run through PgBouncer, PostgreSQL alone.
 */
export const BACKENDS: readonly Backend[] = POOLER_URL
  ? ['postgres']
  : process.env.DATABASE_URL
    ? ['pglite', 'postgres']
    : ['pglite'];

export interface TestServiceOptions extends Omit<ServerOptions, 'database' | 'host'> {
  /** Default `pglite`. */
  backend?: Backend;
  /** PGlite: keep data in this folder instead of memory. PostgreSQL: reuse this schema, kept on close. */
  dataDir?: string;
  schema?: string;
}

export interface TestUser {
  username: string;
  token: string;
  /** A client signed in as this user. */
  client: Client;
}

export interface TestService {
  server: RunningServer;
  origin: string;
  apiBaseUrl: string;
  backend: Backend;
  /** A token for an existing user: the seeded one when there is one, else a new one. */
  tokenFor(username: string): Promise<string>;
  /** A client with this token, or none when left out. */
  client(token?: string | null): Client;
  /** A new user with a unique username starting with `prefix`, signed in. */
  newUser(prefix?: string, details?: { displayName?: string; bio?: string }): Promise<TestUser>;
  /** An operator token of this service, made at the first call. */
  operatorToken(): Promise<string>;
  /**
   * Delivers one notification through the operator API, as a deployment's other parts do (and
   * as live channels hear of it); the notification as the user sees it.
   */
  deliver(notification: OperatorNotificationInput): Promise<Notification>;
  /** Puts notifications into a user's inbox directly, beside the API; their ids, in the order given. */
  notify(username: string, notifications: readonly NotificationInput[]): Promise<string[]>;
  /** Puts `count` generated notifications into a user's inbox in one statement. */
  fillInbox(username: string, count: number, options?: { read?: boolean; newest?: string }): Promise<number>;
  /** Answers a raw request to the API, for what the client library would refuse to send; a body goes as JSON unless `headers` say otherwise. */
  request(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
  close(): Promise<void>;
}

/** The operator API's body; `actor` and `url` may be left out. */
export type OperatorNotificationInput = Omit<OperatorNotificationBody, 'actor' | 'url'> &
  Partial<Pick<OperatorNotificationBody, 'actor' | 'url'>>;

let counter = 0;

/** A username no other test has used: `prefix`, then a counter and random letters. */
export function uniqueUsername(prefix = 'user'): string {
  counter += 1;
  return `${prefix.slice(0, 16)}_${counter}${randomBytes(4).toString('hex')}`.slice(0, 30);
}

/**
 * Where a test service keeps its data, and what to remove when it closes: a PostgreSQL schema of
 * its own unless `schema` shares one, which through the pooler is a database of its own.
 */
export async function databaseFor(
  backend: Backend,
  options: TestServiceOptions,
): Promise<{ option: DatabaseOption; cleanUp: () => Promise<void> }> {
  const none = async () => {};
  if (backend === 'pglite') {
    return { option: options.dataDir ? { dataDir: options.dataDir } : { memory: true }, cleanUp: none };
  }
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('The postgres backend needs DATABASE_URL.');
  const name = options.schema ?? `test_${randomBytes(6).toString('hex')}`;
  if (POOLER_URL) {
    return { option: await pooledDatabase(name), cleanUp: options.schema ? none : () => dropPooledDatabase(name) };
  }
  if (options.schema) return { option: { url, schema: options.schema }, cleanUp: none };
  return { option: { url, schema: name, dropSchemaOnClose: true }, cleanUp: none };
}

let migrated: Promise<Blob> | undefined;

/**
 * A PGlite cluster with every migration applied, as an archive each test service in memory starts
 * a copy of: making a cluster afresh and migrating it took 2-5 s of every start. The service still
 * migrates as it starts, and finds nothing left to do. Made once for the whole run, in the system's
 * temporary folder, under a name drawn from the migrations and PGlite's version (a change to either
 * makes a new one); each worker reads it once.
 */
function migratedCluster(): Promise<Blob> {
  migrated ??= (async () => {
    const pglite = readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url));
    const name = createHash('sha256').update(JSON.stringify(MIGRATIONS)).update(pglite).digest('hex').slice(0, 16);
    const file = join(tmpdir(), `inbox-companion-migrated-${name}.tar`);
    try {
      return new Blob([readFileSync(file)]);
    } catch {
      const db = await openPglite(null);
      try {
        await migrate(db);
        const archive = await db.dumpDataDir();
        // Another worker may be making the same one: each writes its own file and renames it.
        const own = `${file}.${process.pid}`;
        writeFileSync(own, Buffer.from(await archive.arrayBuffer()));
        renameSync(own, file);
        return archive;
      } finally {
        await db.close();
      }
    }
  })();
  return migrated;
}

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const backend = options.backend ?? 'pglite';
  const database = await databaseFor(backend, options);
  if ('memory' in database.option) database.option.from = await migratedCluster();
  const server = await startServer({
    seed: false,
    ...options,
    port: options.port ?? 0,
    host: '127.0.0.1',
    database: database.option,
  });

  const client = (token?: string | null) => createClient({ baseUrl: server.apiBaseUrl, token, retries: 0 });
  const tokenFor = async (username: string) =>
    server.demoTokens?.[username] ?? (await server.admin.issueToken(username));
  let operator: Promise<string> | undefined;
  const operatorToken = () => {
    operator ??= server.admin.issueOperatorToken();
    return operator;
  };

  return {
    server,
    origin: server.origin,
    apiBaseUrl: server.apiBaseUrl,
    backend,
    tokenFor,
    client,
    async newUser(prefix = 'user', details = {}) {
      const { username } = await server.admin.createUser({ username: uniqueUsername(prefix), ...details });
      const token = await server.admin.issueToken(username);
      return { username, token, client: client(token) };
    },
    operatorToken,
    async deliver(notification) {
      const response = await fetch(`${server.apiBaseUrl}/operator/notifications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await operatorToken()}`, 'content-type': 'application/json' },
        body: JSON.stringify(notification),
      });
      if (response.status !== 201) {
        throw new Error(`The operator API answered ${response.status}: ${await response.text()}`);
      }
      return (await response.json()) as Notification;
    },
    notify: (username, notifications) => server.admin.addNotifications(username, notifications),
    fillInbox: (username, count, fill) => server.admin.fillInbox(username, count, fill),
    request(path, init = {}) {
      const { token, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (token) headers.set('authorization', `Bearer ${token}`);
      // A body is JSON unless the test says otherwise (fetch would label a string text/plain).
      if (rest.body != null && !headers.has('content-type')) headers.set('content-type', 'application/json');
      return fetch(`${server.apiBaseUrl}${path}`, { ...rest, headers });
    },
    async close() {
      await server.close();
      await database.cleanUp();
    },
  };
}

/**
 * Options that make two starts share one store: a PGlite folder, or a PostgreSQL schema, both named
 * after `name`; `cleanUp` removes it.
 */
export function sharedStore(
  backend: Backend,
  name: string,
): { options: TestServiceOptions; cleanUp: () => Promise<void> } {
  if (backend === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), `inbox-${name}-`));
    return { options: { dataDir }, cleanUp: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const schema = `test_${name}_${process.pid}_${Date.now()}`;
  return {
    options: { schema },
    async cleanUp() {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}
