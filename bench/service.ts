/**
 * Service throughput: `/inbox/count` and `/inbox/fetch` under 50 concurrent connections
 * (autocannon), with the service in a process of its own, on each backend.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { INBOX_PAGE_SIZE } from '../lib/messaging';
import { BACKEND_NAMES, type Backend, benchBackends } from './support/backends';
import type { Figure, Section } from './support/report';
import { median } from './support/stats';

export interface ServiceOptions {
  connections: number;
  /** Seconds of each recorded autocannon run. */
  seconds: number;
  runs: number;
}

export const SERVICE_DEFAULTS: ServiceOptions = { connections: 50, seconds: 4, runs: 3 };

const ENDPOINTS = [
  { name: '/inbox/count', path: 'inbox/count' },
  { name: '/inbox/fetch', path: `inbox/fetch?limit=${INBOX_PAGE_SIZE}` },
] as const;

interface RunningService {
  apiBaseUrl: string;
  token: string;
  stop(): Promise<void>;
}

async function startServiceProcess(backend: Backend): Promise<RunningService> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/support/service-process.ts', backend],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: process.env,
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const ready = await new Promise<{ apiBaseUrl: string; token: string }>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line)));
    child.once('exit', (code) => reject(new Error(`The service process stopped (${code}) before it served.`)));
  });
  lines.close();
  return {
    ...ready,
    async stop() {
      child.stdin?.end();
      await exited;
    },
  };
}

interface LoadRun {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  failures: number;
}

async function load(url: string, token: string, connections: number, seconds: number): Promise<LoadRun> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  // autocannon stops without waiting for the answers still queued for the database; one more
  // request, queued behind them, comes back once they are done.
  await fetch(url, { headers: { authorization: `Bearer ${token}` } }).then((response) => response.arrayBuffer());
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.errors + result.non2xx,
  };
}

export async function measureService(options: ServiceOptions = SERVICE_DEFAULTS): Promise<Section> {
  const figures: Figure[] = [];
  const details: Record<string, unknown> = { ...options };
  for (const backend of benchBackends()) {
    const service = await startServiceProcess(backend);
    try {
      for (const endpoint of ENDPOINTS) {
        const url = `${service.apiBaseUrl}/${endpoint.path}`;
        await load(url, service.token, options.connections, 1);
        const runs: LoadRun[] = [];
        for (let i = 0; i < options.runs; i++) {
          runs.push(await load(url, service.token, options.connections, options.seconds));
        }
        const failures = runs.reduce((sum, run) => sum + run.failures, 0);
        if (failures > 0) throw new Error(`${endpoint.name} on ${backend}: ${failures} requests failed under load.`);
        const how = `median of ${options.runs} × ${options.seconds} s, ${options.connections} connections`;
        const label = `${BACKEND_NAMES[backend]} ${endpoint.name}`;
        figures.push(
          { name: `${label} throughput`, value: median(runs.map((r) => r.requestsPerSecond)), unit: 'req/s', how },
          { name: `${label} p50`, value: median(runs.map((r) => r.p50)), unit: 'ms', how },
          { name: `${label} p99`, value: median(runs.map((r) => r.p99)), unit: 'ms', how },
        );
        details[`${backend} ${endpoint.name}`] = runs;
      }
    } finally {
      await service.stop();
    }
  }
  return { id: 'service', title: 'Service under load', figures, details };
}
