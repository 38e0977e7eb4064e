import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { type Cluster, findHaproxy, startCluster } from '../../scripts/cluster';
import type { Queryable } from '../../server/db/database';
import {
  compareWithDatabase,
  describeClusterRun,
  runClusterTraffic,
  seedClusterPeople,
  unreadCounts,
} from './support/cluster-traffic';
import { progress } from './support/progress';
import { dropSchema, type ProcessData, urlWithSchema, withData } from './support/service-process';

const INSTANCES = 3;
const PEOPLE = 40;
const ACTIONS = 10_000;
const INBOX = 700;
/** The instance killed; HAProxy holds the others. */
const VICTIM = 1;

const why = !process.env.DATABASE_URL
  ? 'DATABASE_URL is not set (the instances share one PostgreSQL database)'
  : !findHaproxy()
    ? 'HAProxy is not installed (Debian: apt-get install haproxy; .ci/run installs it)'
    : null;
if (why) console.warn(`Skipping the cluster kill test: ${why}.`);

/**
 * Three instances on one PostgreSQL behind HAProxy, one killed with SIGKILL under mixed traffic
 * and started again: every action the people were told was done is in the database exactly
 * once, and every live channel tells the right count a second after the last action.
 */
describe('several instances behind HAProxy, one killed under load', () => {
  let data: ProcessData | undefined;
  let cluster: Cluster | undefined;

  afterAll(async () => {
    await cluster?.stop();
    if (data) await dropSchema(data);
  });

  it.skipIf(why !== null)(`loses and doubles nothing over ${ACTIONS} actions`, async () => {
    const databaseUrl = process.env.DATABASE_URL as string;
    data = { databaseUrl, schema: `cluster_${randomBytes(5).toString('hex')}` };
    progress(`Cluster: seeding ${PEOPLE} people with ${INBOX} notifications each`);
    const people = await seedClusterPeople(data, PEOPLE, INBOX);
    progress(`Cluster: starting ${INSTANCES} instances and HAProxy`);
    cluster = await startCluster({
      databaseUrl: urlWithSchema(databaseUrl, data.schema),
      instances: INSTANCES,
      // Every person here comes from this one address.
      maxConnectionsPerClient: 10_000,
    });
    const running = cluster;
    const look = <T>(work: (db: Queryable) => Promise<T>) => withData(data as ProcessData, (_, db) => work(db));

    progress(`Cluster: traffic through ${running.origin}`);
    const run = await runClusterTraffic({
      apiBaseUrl: running.apiBaseUrl,
      people,
      actions: ACTIONS,
      disrupt: {
        atShare: 0.25,
        async run() {
          await running.kill(VICTIM);
          progress(`Cluster: instance ${VICTIM} killed; starting it again`);
          await running.restart(VICTIM);
          progress(`Cluster: instance ${VICTIM} back in HAProxy`);
        },
      },
      unreadCounts: () => look(unreadCounts),
      progress: (line) => progress(`Cluster: ${line}`),
    });
    const comparison = await look((db) => compareWithDatabase(db, people, run.ledger));
    console.log(describeClusterRun(run.figures, comparison, run.live, INSTANCES));

    expect(comparison.details).toEqual([]);
    expect(comparison.lost).toBe(0);
    expect(comparison.doubled).toBe(0);
    expect(run.figures.actions).toBeGreaterThanOrEqual(ACTIONS);
    // The kill cut requests off mid-way: they were tried again, and some answers were replays.
    expect(run.figures.retries).toBeGreaterThan(0);
    expect(run.live.dropped).toBeGreaterThan(0);
    expect(run.live.reconnectMs).toBeLessThan(30_000);
    expect(run.live.wrongCounts).toBe(0);
    expect(run.live.settledMs).toBeLessThanOrEqual(1_000);
  });
});
