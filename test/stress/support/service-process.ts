/**
 * The reference service as its own process, started with the command line exactly as an
 * operator would, so a test can load it from outside or kill it with SIGKILL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createAdmin, type ServiceAdmin } from '../../../server/admin';
import { type DatabaseOption, openDatabase } from '../../../server/db/database';
import { migrate } from '../../../server/db/migrations';

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

/** Where the process keeps its data: a PGlite folder, or a PostgreSQL URL. */
export type ProcessData = { dataDir: string } | { databaseUrl: string };

/** A PostgreSQL URL whose connections use `schema`, so several services share one database. */
export function urlWithSchema(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.href;
}

/** Opens the data as the service would, migrated, for `work` to fill before the process starts. */
export async function prepare<T>(data: ProcessData, work: (admin: ServiceAdmin) => Promise<T>): Promise<T> {
  const option: DatabaseOption = 'dataDir' in data ? { dataDir: data.dataDir } : { url: data.databaseUrl };
  const db = await openDatabase(option);
  try {
    await migrate(db);
    return await work(createAdmin(db));
  } finally {
    await db.close();
  }
}

export async function startServiceProcess(data: ProcessData, port = 0): Promise<ServiceProcess> {
  const args = ['--import', 'tsx', MAIN, '--port', String(port), '--no-seed', '--quiet'];
  if ('dataDir' in data) args.push('--data', data.dataDir);
  const env = { ...process.env };
  if ('databaseUrl' in data) env.DATABASE_URL = data.databaseUrl;
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
