/**
 * The service as a deployment that grows past one machine runs it: instances behind HAProxy
 * (`scripts/cluster.ts`), optionally with PgBouncer in transaction pooling between them and
 * PostgreSQL (`scripts/pgbouncer.ts`), on a database of their own with the bench user's inbox.
 * A pooled connection keeps no startup options, so the data lives in a fresh database's own
 * schema rather than a schema chosen per connection.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { findHaproxy, startCluster } from '../../scripts/cluster';
import { findPgBouncer, type RunningPgBouncer, startPgBouncer } from '../../scripts/pgbouncer';
import { startServer } from '../../server/index';

export interface ClusterSetup {
  instances: number;
  pooled: boolean;
}

export interface RunningSetup {
  apiBaseUrl: string;
  /** The instances' processes. */
  pids(): number[];
  stop(): Promise<void>;
}

export interface BenchDeployment {
  token: string;
  start(setup: ClusterSetup): Promise<RunningSetup>;
  close(): Promise<void>;
}

/** Why the pooled figures cannot be taken on this machine, or null. */
export function deploymentUnavailable(): string | null {
  if (!process.env.DATABASE_URL) return 'DATABASE_URL is not set';
  if (!findHaproxy()) return 'HAProxy is not installed';
  if (!findPgBouncer()) return 'PgBouncer is not installed';
  return null;
}

function withDatabase(url: string, database: string): string {
  const out = new URL(url);
  out.pathname = `/${database}`;
  return out.toString();
}

async function onServer(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** PostgreSQL's code for a statement the role has no right to run. */
const INSUFFICIENT_PRIVILEGE = '42501';

/** A database of its own with a user `bench` and `notifications` in their inbox, and a pooler in front. */
export async function openDeployment(notifications: number): Promise<BenchDeployment> {
  const server = process.env.DATABASE_URL;
  if (!server) throw new Error('The pooled figures need DATABASE_URL.');
  const name = `bench_pooled_${randomBytes(5).toString('hex')}`;
  const direct = withDatabase(server, name);
  await onServer(server, `CREATE DATABASE ${name} TEMPLATE template0`).catch((error: unknown) => {
    if ((error as { code?: string }).code !== INSUFFICIENT_PRIVILEGE) throw error;
    const role = decodeURIComponent(new URL(server).username);
    throw new Error(
      `The pooled figures need a database of their own, and the role ${role} may not create one: ALTER ROLE ${role} CREATEDB.`,
      { cause: error },
    );
  });
  let pooler: RunningPgBouncer | null = null;
  const close = async () => {
    await pooler?.stop();
    await onServer(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  try {
    const service = await startServer({ port: 0, database: { url: direct }, seed: false });
    let token: string;
    try {
      await service.admin.createUser({ username: 'bench', displayName: 'Bench' });
      await service.admin.fillInbox('bench', notifications);
      token = await service.admin.issueToken('bench');
    } finally {
      await service.close();
    }
    pooler = await startPgBouncer(server);
    const poolerUrl = pooler.url(direct);
    return {
      token,
      async start({ instances, pooled }) {
        const cluster = await startCluster({
          databaseUrl: direct,
          poolerUrl: pooled ? poolerUrl : undefined,
          instances,
          // The load generator is one address with as many connections as it is told to open.
          maxConnectionsPerClient: 10_000,
          serviceArgs: ['--max-connections-per-client', '10000'],
        });
        return {
          apiBaseUrl: cluster.apiBaseUrl,
          pids: () => cluster.instances.flatMap((instance) => (instance.pid === null ? [] : [instance.pid])),
          stop: () => cluster.stop(),
        };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
