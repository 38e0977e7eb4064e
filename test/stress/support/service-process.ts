/**
 * The reference service as its own process, started with the command line exactly as an
 * operator would, so a test can load it from outside or kill it with SIGKILL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createAdmin, type ServiceAdmin } from '../../../server/admin';
import type { Queryable } from '../../../server/db/database';
import { migrate } from '../../../server/db/migrations';
import { type DatabaseOption, openDatabase } from '../../../server/db/open';

const MAIN = resolve('server/main.ts');

export interface ServiceProcess {
  pid: number;
  apiBaseUrl: string;
  origin: string;
  process: ChildProcess;
  /** Resolves with the exit code or signal once the process has ended. */
  exited: Promise<number | string | null>;
  /** Everything it wrote, for failure messages. */
  output(): string;
  /** SIGTERM, then waits for the graceful stop. */
  stop(): Promise<void>;
}

/**
 * Where the process keeps its data: a PGlite folder, or a schema of its own in a PostgreSQL
 * database, so it shares the server with other tests without touching their tables.
 */
export type ProcessData = { dataDir: string } | { databaseUrl: string; schema: string };

/** A PostgreSQL URL whose connections use `schema`, named after it in pg_stat_activity. */
export function urlWithSchema(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  url.searchParams.set('application_name', schema);
  return url.href;
}

const optionFor = (data: ProcessData): DatabaseOption =>
  'dataDir' in data ? { dataDir: data.dataDir } : { url: data.databaseUrl, schema: data.schema };

/** Opens the data as the service would, migrated, for `work` to fill or read while no process runs. */
export async function withData<T>(
  data: ProcessData,
  work: (admin: ServiceAdmin, db: Queryable) => Promise<T>,
): Promise<T> {
  const db = await openDatabase(optionFor(data));
  try {
    await migrate(db);
    return await work(createAdmin(db), db);
  } finally {
    await db.close();
  }
}

/** Removes a PostgreSQL schema and everything in it. */
export async function dropSchema(data: ProcessData): Promise<void> {
  if ('dataDir' in data) return;
  const db = await openDatabase({ url: data.databaseUrl, schema: data.schema, dropSchemaOnClose: true });
  await db.close();
}

export async function startServiceProcess(data: ProcessData, port = 0): Promise<ServiceProcess> {
  // Every simulated person connects from this machine's one address: 200 of them, more than one
  // client may hold by default.
  const args = [
    '--import',
    'tsx',
    MAIN,
    '--port',
    String(port),
    '--no-seed',
    '--quiet',
    '--max-connections-per-client',
    '1000',
  ];
  if ('dataDir' in data) args.push('--data', data.dataDir);
  const env = { ...process.env };
  if ('databaseUrl' in data) env.DATABASE_URL = urlWithSchema(data.databaseUrl, data.schema);
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit').then(([code, signal]) => (signal as string | null) ?? (code as number | null));
  const apiBaseUrl = await new Promise<string>((resolveUrl, reject) => {
    const look = () => {
      const match = /^API:\s+(\S+)$/m.exec(output);
      if (match?.[1]) resolveUrl(match[1]);
    };
    child.stdout?.on('data', look);
    void exited.then(() => reject(new Error(`The service exited before it listened:\n${output}`)));
  });
  return {
    pid: child.pid as number,
    apiBaseUrl,
    origin: new URL(apiBaseUrl).origin,
    process: child,
    exited,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Users whose kept unread count differs from their unread notifications: none, when nothing was lost. */
export async function unreadCountDrift(db: Queryable): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT u.id FROM users u LEFT JOIN unread_counts c ON c.user_id = u.id
     WHERE coalesce(c.unread, 0) <> (
       SELECT count(*) FROM notifications n WHERE n.user_id = u.id AND NOT n.read AND n.deleted_at IS NULL
     )`,
  );
  return rows.map((row) => row.id);
}
