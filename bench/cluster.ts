/**
 * Several instances behind HAProxy, one killed: three service processes on one PostgreSQL
 * database behind HAProxy (`scripts/cluster.ts`), mixed traffic through the client library with
 * idempotency keys and its retries, one instance killed with SIGKILL a quarter of the way in and
 * started again. The figures say whether any action was lost or done twice, how often a request
 * was tried again or answered from a kept answer, and how soon the live channels were back and
 * right. Needs DATABASE_URL and HAProxy; without them the area is left out.
 */
import { randomBytes } from 'node:crypto';
import { findHaproxy, startCluster } from '../scripts/cluster';
import {
  compareWithDatabase,
  describeClusterRun,
  runClusterTraffic,
  seedClusterPeople,
  unreadCounts,
} from '../test/stress/support/cluster-traffic';
import { dropSchema, type ProcessData, urlWithSchema, withData } from '../test/stress/support/service-process';
import type { Section } from './support/report';

export interface ClusterOptions {
  instances: number;
  people: number;
  actions: number;
  inbox: number;
}

export const CLUSTER_DEFAULTS: ClusterOptions = { instances: 3, people: 40, actions: 10_000, inbox: 700 };

/** Why the area cannot be measured on this machine, or null. */
export function clusterUnavailable(): string | null {
  if (!process.env.DATABASE_URL) return 'DATABASE_URL is not set';
  if (!findHaproxy()) return 'HAProxy is not installed';
  return null;
}

export async function measureCluster(options: ClusterOptions = CLUSTER_DEFAULTS): Promise<Section> {
  const section = { id: 'cluster', title: 'Instances behind HAProxy, one killed' };
  const why = clusterUnavailable();
  if (why) return { ...section, figures: [], details: { skipped: why } };
  const databaseUrl = process.env.DATABASE_URL as string;
  const data: ProcessData = { databaseUrl, schema: `bench_cluster_${randomBytes(5).toString('hex')}` };
  try {
    const people = await seedClusterPeople(data, options.people, options.inbox);
    const cluster = await startCluster({
      databaseUrl: urlWithSchema(databaseUrl, data.schema),
      instances: options.instances,
      maxConnectionsPerClient: 10_000,
    });
    try {
      const run = await runClusterTraffic({
        apiBaseUrl: cluster.apiBaseUrl,
        people,
        actions: options.actions,
        disrupt: {
          atShare: 0.25,
          async run() {
            await cluster.kill(1);
            await cluster.restart(1);
          },
        },
        unreadCounts: () => withData(data, (_, db) => unreadCounts(db)),
      });
      const comparison = await withData(data, (_, db) => compareWithDatabase(db, people, run.ledger));
      const how = `${options.people} people, ${options.instances} instances, one killed and restarted`;
      const { figures, live } = run;
      return {
        ...section,
        figures: [
          { name: 'actions done', value: figures.actions, unit: 'count', how, atLeast: 10_000 },
          { name: 'actions a second', value: figures.actions / figures.seconds, unit: 'req/s', how },
          { name: 'actions lost', value: comparison.lost, unit: 'count', target: 0 },
          { name: 'actions done twice', value: comparison.doubled, unit: 'count', target: 0 },
          { name: 'requests tried again', value: figures.retries, unit: 'count' },
          { name: 'answers replayed', value: figures.replays, unit: 'count' },
          { name: 'live channels dropped by the kill', value: live.dropped, unit: 'count' },
          { name: 'all live channels back', value: live.reconnectMs, unit: 'ms', how: 'after the kill' },
          { name: 'live counts right', value: live.settledMs, unit: 'ms', how: 'after the last action', target: 1000 },
        ],
        details: {
          ...options,
          figures,
          live,
          comparison,
          line: describeClusterRun(figures, comparison, live, options.instances),
        },
      };
    } finally {
      await cluster.stop();
    }
  } finally {
    await dropSchema(data);
  }
}
