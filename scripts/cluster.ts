/**
 * Several instances of the reference service on one PostgreSQL database behind HAProxy, as a
 * deployment runs them: each instance its own process (`server/main.ts`) with `--trust-proxy`,
 * HAProxy in front checking `GET /health`, passing WebSocket upgrades through and naming the
 * client in X-Forwarded-For. Ctrl-C stops everything.
 *
 *   DATABASE_URL=postgres://… npx tsx scripts/cluster.ts [--instances 3 --port 8780 --no-seed --pgbouncer]
 *
 * `--pgbouncer` puts PgBouncer in transaction pooling between the instances and PostgreSQL: their
 * `DATABASE_URL` names the pooler and `DATABASE_LISTEN_URL` the database directly.
 *
 * As a module, for tests and benchmarks: `startCluster` hands back the front address and
 * `kill(i)` (SIGKILL), `restart(i)` and `stop()`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startPgBouncer } from './pgbouncer';

const MAIN = resolve(fileURLToPath(new URL('../server/main.ts', import.meta.url)));
const HOST = '127.0.0.1';
/** How long an instance may take to start, and HAProxy to see a change of state. */
const START_TIMEOUT_MS = 60_000;

export interface ClusterOptions {
  /** The PostgreSQL database every instance serves; its URL may carry `options=-c search_path=…`. */
  databaseUrl: string;
  /**
   * The same database through a transaction pooler (PgBouncer): the instances' `DATABASE_URL`,
   * with `databaseUrl` their `DATABASE_LISTEN_URL`. A pooled connection keeps no startup options,
   * so `databaseUrl` then names a database whose own search_path is right.
   */
  poolerUrl?: string;
  /** Default 3. */
  instances?: number;
  /** HAProxy's front port; 0 (the default) picks a free one. */
  port?: number;
  /** Open connections HAProxy lets one client address (an IPv6 client's /64) hold. Default 64. */
  maxConnectionsPerClient?: number;
  /** Seed demo data into an empty database: the first instance does, before the others start. */
  seed?: boolean;
  /** More command-line options for every instance. */
  serviceArgs?: readonly string[];
  /** The HAProxy binary; found on PATH or in /usr/sbin when left out. */
  haproxy?: string;
}

export type ProxyState = 'UP' | 'DOWN';

export interface Instance {
  readonly port: number;
  /** The running process's id, or null while it is killed. */
  readonly pid: number | null;
  /** Everything its processes wrote, for failure messages. */
  output(): string;
}

export interface Cluster {
  /** HAProxy's front: the site origin people use. */
  origin: string;
  apiBaseUrl: string;
  instances: readonly Instance[];
  /** Kills instance `i` with SIGKILL, as a crash or the OOM killer would, and waits for it to be gone. */
  kill(i: number): Promise<void>;
  /** Starts instance `i` again on its port and waits until HAProxy sends it traffic. */
  restart(i: number): Promise<void>;
  /** Waits until HAProxy's checks hold instance `i` up or down. */
  waitFor(i: number, state: ProxyState, timeoutMs?: number): Promise<void>;
  /** Stops HAProxy and every instance. */
  stop(): Promise<void>;
}

/** The HAProxy binary, or null when this machine has none. */
export function findHaproxy(): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = join(dir, 'haproxy');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return null;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, HOST);
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * HAProxy's configuration for `ports`, the one README.md shows: health checks on `/health` every
 * second (two failures take an instance out, two successes bring it back), a connection refused
 * by a dead instance tried again on another, WebSocket tunnels kept for an hour.
 */
export function haproxyConfig(options: {
  front: number;
  stats: number;
  ports: readonly number[];
  maxConnectionsPerClient: number;
}): string {
  return `global
    maxconn 4000

defaults
    mode http
    option forwardfor
    option redispatch
    retries 3
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    timeout http-request 10s
    timeout check 2s
    timeout tunnel 1h

frontend inbox
    bind ${HOST}:${options.front}
    stick-table type ipv6 size 1m expire 1m store conn_cur
    tcp-request connection track-sc0 src,ipmask(32,64)
    tcp-request connection reject if { sc_conn_cur(0) gt ${options.maxConnectionsPerClient} }
    default_backend instances

backend instances
    balance roundrobin
    option httpchk
    http-check send meth GET uri /health ver HTTP/1.1 hdr host localhost
    http-check expect status 200
    default-server check inter 1s fall 2 rise 2 maxconn 800 on-marked-down shutdown-sessions
${options.ports.map((port, i) => `    server i${i} ${HOST}:${port}`).join('\n')}

frontend stats
    bind ${HOST}:${options.stats}
    stats enable
    stats uri /stats
`;
}

interface Running {
  process: ChildProcess;
  exited: Promise<unknown>;
}

/** Starts a process and resolves once `ready` matches what it wrote; rejects if it ends first. */
async function startProcess(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp | null,
  record: (text: string) => void,
): Promise<Running> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = once(child, 'exit');
  const seen = new Promise<void>((resolveSeen, reject) => {
    const look = (chunk: Buffer) => {
      output += chunk;
      record(String(chunk));
      if (ready === null || ready.test(output)) resolveSeen();
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    exited.then(() => reject(new Error(`${command} ended before it was ready:\n${output}`)));
    if (ready === null) resolveSeen();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS);
  try {
    await seen;
  } finally {
    clearTimeout(timer);
  }
  return { process: child, exited };
}

async function stopProcess(running: Running | null, signal: NodeJS.Signals): Promise<void> {
  if (!running) return;
  const { process: child } = running;
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  await running.exited;
}

/** Each server's state as HAProxy's checks see it, from its statistics page. */
async function proxyStates(statsUrl: string): Promise<Map<string, string>> {
  const text = await (await fetch(statsUrl)).text();
  const [header = '', ...rows] = text.trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const at = (name: string) => columns.indexOf(name);
  const states = new Map<string, string>();
  for (const row of rows) {
    const cells = row.split(',');
    if (cells[at('pxname')] === 'instances') states.set(cells[at('svname')] ?? '', cells[at('status')] ?? '');
  }
  return states;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const count = options.instances ?? 3;
  const haproxy = options.haproxy ?? findHaproxy();
  if (!haproxy) throw new Error('HAProxy is not installed (Debian: apt-get install haproxy).');
  const front = options.port || (await freePort());
  const stats = await freePort();
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  const origin = `http://${HOST}:${front}`;
  const statsUrl = `http://${HOST}:${stats}/stats;csv`;
  const outputs = ports.map(() => '');
  let proxyOutput = '';
  const running: (Running | null)[] = ports.map(() => null);
  const folder = mkdtempSync(join(tmpdir(), 'inbox-cluster-'));
  let proxy: Running | null = null;

  const startInstance = async (i: number, seed: boolean) => {
    const args = [
      '--import',
      'tsx',
      MAIN,
      '--port',
      String(ports[i]),
      '--host',
      HOST,
      '--trust-proxy',
      HOST,
      '--public-origin',
      origin,
      '--quiet',
      ...(seed ? [] : ['--no-seed']),
      ...(options.serviceArgs ?? []),
    ];
    const env = options.poolerUrl
      ? { ...process.env, DATABASE_URL: options.poolerUrl, DATABASE_LISTEN_URL: options.databaseUrl }
      : { ...process.env, DATABASE_URL: options.databaseUrl };
    running[i] = await startProcess(process.execPath, args, env, /^API:\s+\S+$/m, (text) => {
      outputs[i] += text;
    });
  };

  const waitFor = async (i: number, state: ProxyState, timeoutMs = START_TIMEOUT_MS) => {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      if (proxy?.process.exitCode !== null && proxy?.process.exitCode !== undefined) {
        throw new Error(`HAProxy ended:\n${proxyOutput}`);
      }
      last = (await proxyStates(statsUrl).catch(() => new Map<string, string>())).get(`i${i}`) ?? '';
      // "UP 1/2" is an instance going down, "DOWN 1/2" one coming back: neither is there yet.
      if (last === state) return;
      await new Promise((wait) => setTimeout(wait, 100));
    }
    throw new Error(`HAProxy did not see instance ${i} ${state} within ${timeoutMs} ms (last: "${last}").`);
  };

  const stop = async () => {
    await stopProcess(proxy, 'SIGTERM');
    await Promise.all(running.map((each) => stopProcess(each, 'SIGTERM')));
    rmSync(folder, { recursive: true, force: true });
  };

  try {
    // One instance migrates (and seeds) first, so the others find the schema ready.
    await startInstance(0, options.seed ?? false);
    await Promise.all(ports.slice(1).map((_, i) => startInstance(i + 1, false)));
    const config = join(folder, 'haproxy.cfg');
    writeFileSync(
      config,
      haproxyConfig({ front, stats, ports, maxConnectionsPerClient: options.maxConnectionsPerClient ?? 64 }),
    );
    proxy = await startProcess(haproxy, ['-f', config], process.env, null, (text) => {
      proxyOutput += text;
    });
    for (let i = 0; i < count; i++) await waitFor(i, 'UP');
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    origin,
    apiBaseUrl: `${origin}/api`,
    instances: ports.map((port, i) => ({
      port,
      get pid() {
        const child = running[i]?.process;
        return child && child.exitCode === null && child.signalCode === null ? (child.pid ?? null) : null;
      },
      output: () => outputs[i] ?? '',
    })),
    async kill(i) {
      await stopProcess(running[i] ?? null, 'SIGKILL');
      running[i] = null;
    },
    async restart(i) {
      await stopProcess(running[i] ?? null, 'SIGKILL');
      await startInstance(i, false);
      await waitFor(i, 'UP');
    },
    waitFor,
    stop,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      instances: { type: 'string', default: '3' },
      port: { type: 'string', default: '8780' },
      seed: { type: 'boolean', default: true },
      pgbouncer: { type: 'boolean', default: false },
    },
    allowNegative: true,
  });
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error('Set DATABASE_URL to the PostgreSQL database the instances share.');
    process.exit(2);
  }
  const instances = Number(values.instances);
  if (!Number.isInteger(instances) || instances < 1 || instances > 16) {
    console.error('--instances takes a whole number from 1 to 16.');
    process.exit(2);
  }
  const pooler = values.pgbouncer ? await startPgBouncer(databaseUrl) : null;
  const cluster = await startCluster({
    databaseUrl,
    poolerUrl: pooler?.url(databaseUrl),
    instances,
    port: Number(values.port),
    seed: values.seed,
  }).catch(async (error) => {
    await pooler?.stop();
    throw error;
  });
  const through = pooler ? `, through PgBouncer on port ${pooler.port},` : '';
  console.log(`${instances} instances behind HAProxy${through} at ${cluster.origin}/ (API ${cluster.apiBaseUrl})`);
  for (const [i, instance] of cluster.instances.entries()) {
    console.log(`  instance ${i}: ${HOST}:${instance.port}, process ${instance.pid}`);
  }
  console.log('A token: npm run server -- token demo (with the same DATABASE_URL). Ctrl-C stops everything.');
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    cluster
      .stop()
      .then(() => pooler?.stop())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error((error as Error).message);
    process.exit(1);
  });
}
