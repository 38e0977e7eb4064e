/**
 * Starts Debian's PgBouncer in transaction pooling in front of a PostgreSQL server, as a
 * deployment that grows past one machine puts it between the service and the database. Every
 * database of that server is served under its own name, as the same user. Tests and benchmarks
 * use it to run the service through a real pooler.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];

export const MISSING_PGBOUNCER =
  'PgBouncer was not found (looked at PGBOUNCER_PATH and /usr/sbin/pgbouncer). Install Debian\'s "pgbouncer" package.';

export function findPgBouncer(): string | null {
  const configured = process.env.PGBOUNCER_PATH;
  if (configured) return existsSync(configured) ? configured : null;
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}

export interface RunningPgBouncer {
  /** `databaseUrl` with the pooler's host and port: the same user, password and database. */
  url(databaseUrl: string): string;
  port: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('No free port was given.');
  return address.port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

/**
 * PgBouncer in front of the server `databaseUrl` names, with room for `poolSize` server
 * connections per database. It refuses to run as root, so as root it runs as `postgres`.
 */
export async function startPgBouncer(
  databaseUrl: string,
  options: { poolSize?: number } = {},
): Promise<RunningPgBouncer> {
  const binary = findPgBouncer();
  if (binary === null) throw new Error(MISSING_PGBOUNCER);
  const server = new URL(databaseUrl);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'inbox-pgbouncer-'));
  chmodSync(dir, 0o755);
  const config = join(dir, 'pgbouncer.ini');
  const target = [
    `host=${server.hostname}`,
    `port=${server.port || '5432'}`,
    `user=${decodeURIComponent(server.username)}`,
    `password=${decodeURIComponent(server.password)}`,
  ].join(' ');
  writeFileSync(
    config,
    [
      '[databases]',
      `* = ${target}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      'max_client_conn = 2000',
      `default_pool_size = ${options.poolSize ?? 20}`,
      'server_idle_timeout = 10',
      'server_reset_query =',
      'ignore_startup_parameters = extra_float_digits',
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  );
  chmodSync(config, 0o644);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = asRoot
    ? spawn('runuser', ['-u', 'postgres', '--', binary, config], { stdio: ['ignore', 'ignore', 'pipe'] })
    : spawn(binary, [config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk) => {
    output = (output + chunk).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let tries = 0; !(await accepts(port)); tries += 1) {
    if (child.exitCode !== null || tries > 100) {
      await stop();
      throw new Error(`PgBouncer did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    url(databaseUrl) {
      const pooled = new URL(databaseUrl);
      pooled.hostname = '127.0.0.1';
      pooled.port = String(port);
      return pooled.toString();
    },
    stop,
  };
}
