import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { describeFigures, runLoad, seedPeople } from './support/load';
import { progress } from './support/progress';
import {
  dropSchema,
  type ProcessData,
  type ServiceProcess,
  startServiceProcess,
  unreadCountDrift,
  withData,
} from './support/service-process';

const run = promisify(execFile);
const PEOPLE = 100;

interface Cluster {
  version: string;
  name: string;
  port: number;
  dataDirectory: string;
}

/**
 * The Debian cluster DATABASE_URL points at, or why this test may not restart it. It restarts
 * only a cluster on this machine whose port and data directory match what the URL's own server
 * reports, and only as root, so it can never restart someone else's server.
 */
async function clusterToRestart(): Promise<Cluster | string> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) return 'DATABASE_URL is not set';
  if (process.getuid?.() !== 0) return 'restarting a cluster with pg_ctlcluster needs root';
  const url = new URL(databaseUrl);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return `${url.hostname} is not this machine`;
  const port = Number(url.port || 5432);
  let listing: string;
  try {
    listing = (await run('pg_lsclusters', ['--no-header'])).stdout;
  } catch {
    return 'pg_lsclusters is not here (not a Debian PostgreSQL)';
  }
  const clusters = listing
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, , clusterPort, status]) => Number(clusterPort) === port && status === 'online')
    .map(([version = '', name = '', , , , dataDirectory = '']) => ({ version, name, port, dataDirectory }));
  if (clusters.length !== 1) return `no single online cluster on port ${port}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    const cluster = clusters[0] as Cluster;
    if (rows[0]?.data_directory !== cluster.dataDirectory) {
      return `the server at DATABASE_URL keeps its data in ${rows[0]?.data_directory}, not ${cluster.dataDirectory}`;
    }
    return cluster;
  } catch (error) {
    return `cannot ask the server where its data is: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const cluster = await clusterToRestart();
if (typeof cluster === 'string') console.warn(`Skipping the PostgreSQL restart test: ${cluster}.`);

/**
 * PostgreSQL restarts while 100 people use the service: while it is down the service answers
 * 503 (never a 500, never a hang), it reconnects by itself when PostgreSQL is back, and no
 * kept count drifts from the data.
 */
describe('a PostgreSQL restart under load', () => {
  let data: ProcessData | undefined;
  let service: ServiceProcess | undefined;

  afterAll(async () => {
    await service?.stop();
    if (data) await dropSchema(data);
  });

  it.skipIf(typeof cluster === 'string')('is survived by reconnecting, with 503 while it is down', async () => {
    const { version, name } = cluster as Cluster;
    data = { databaseUrl: process.env.DATABASE_URL as string, schema: `restart_${randomBytes(5).toString('hex')}` };
    progress(`PostgreSQL restart: seeding ${PEOPLE} people`);
    const people = await withData(data, (admin) => seedPeople(admin, 'pg', PEOPLE, 200));
    service = await startServiceProcess(data);

    const answers: { at: number; status: number }[] = [];
    const window = { restarting: 0, restarted: 0 };
    const load = runLoad({
      origin: service.origin,
      people,
      seconds: 20,
      onStatus: (status) => answers.push({ at: Date.now(), status }),
    });
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    progress(`PostgreSQL restart: restarting cluster ${version}/${name} under load`);
    window.restarting = Date.now();
    await run('pg_ctlcluster', [version, name, 'restart']);
    window.restarted = Date.now();
    progress('PostgreSQL restart: waiting for the load to end');
    const { figures } = await load;

    const after = answers.filter((a) => a.at > window.restarted + 3_000);
    const unavailable = answers.filter((a) => a.status === 503).length;
    const refusedFollows = answers.filter((a) => a.status === 400).length;
    console.log(
      `${describeFigures('Load on PostgreSQL through a restart', figures)}; restart took ` +
        `${window.restarted - window.restarting} ms, 503 answers ${unavailable}, ` +
        `2xx answers from 3 s after it ${after.filter((a) => a.status < 300).length} of ${after.length}`,
    );
    expect(figures.errors).toBe(0);
    expect(figures.timeouts).toBe(0);
    expect(Object.keys(figures.statusCodes).filter((code) => !['200', '204', '400', '503'].includes(code))).toEqual([]);
    // A follow or unfollow refused with 503 makes the next step of that person's cycle a 400.
    expect(refusedFollows).toBeLessThanOrEqual(unavailable);
    expect(after.length).toBeGreaterThan(PEOPLE);
    expect(after.every((a) => a.status < 300)).toBe(true);

    await service.stop();
    expect(await withData(data, (_, db) => unreadCountDrift(db))).toEqual([]);
  });
});
