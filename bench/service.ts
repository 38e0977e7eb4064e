/**
 * Service throughput: `/inbox/count` (answered, and answered 304 to `If-None-Match`) and
 * `/inbox/fetch` under 50 concurrent connections (autocannon), with the service in a process of
 * its own, on each backend; each beside a bare Hono route answering `{"count":42}` measured in
 * the same run, so the figures are shares of what the framework itself allows on this machine.
 * On PostgreSQL, where the issue sets its goals, also a search page beside a plain page, and the
 * three again once the user has 1,000 mutes.
 *
 * With PostgreSQL, HAProxy and PgBouncer at hand, the same endpoints again as a deployment runs
 * them: one instance behind HAProxy straight on PostgreSQL, then one and three instances behind
 * HAProxy through PgBouncer in transaction pooling. On a machine of two cores, shared by the load
 * tool, HAProxy, PgBouncer and PostgreSQL, these show what the pooler costs and that the service
 * is right through it, not how it scales out: three instances have no more cores than one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { INBOX_PAGE_SIZE } from '../lib/messaging';
import { BACKEND_NAMES, type Backend, benchBackends } from './support/backends';
import { type ClusterSetup, deploymentUnavailable, openDeployment } from './support/pooled-service';
import { cpuSeconds } from './support/process-cpu';
import type { Figure, Section } from './support/report';
import { median, pairedRatio } from './support/stats';

export interface ServiceOptions {
  connections: number;
  /** Seconds of each recorded autocannon run. */
  seconds: number;
  runs: number;
  /** The backends to measure; every one `benchBackends` offers when not given. */
  backends?: readonly Backend[];
}

/** Seconds of load on each endpoint before its recorded runs. */
const WARMUP_SECONDS = 3;

export const SERVICE_DEFAULTS: ServiceOptions = { connections: 50, seconds: 5, runs: 3 };

/**
 * The goals on PostgreSQL: shares of the bare route's throughput, and the 304's tail; the same
 * with 1,000 mutes in place; a search page at most 3 times a plain page.
 */
export const SERVICE_GOALS = { countShare: 0.5, notModifiedP99Ms: 15, fetchShare: 0.2, searchRatio: 3 } as const;

/** The deployments measured after the direct figures, when the machine has what they need. */
const DEPLOYMENTS: readonly (ClusterSetup & { label: string })[] = [
  { label: 'PostgreSQL behind HAProxy, 1 instance', instances: 1, pooled: false },
  { label: 'PgBouncer behind HAProxy, 1 instance', instances: 1, pooled: true },
  { label: 'PgBouncer behind HAProxy, 3 instances', instances: 3, pooled: true },
];

/** Notifications in the bench user's inbox. */
const INBOX = 1000;
/** Mutes the bench user has in force for the endpoints measured again with them: as many as one may have. */
const MUTES = 1000;
/** A word in every notification of the bench inbox (`Generated notification #N`): the search that reads the most. */
const SEARCH_WORD = 'generated';

interface Endpoint {
  name: string;
  path: string;
  /** Ask with the ETag of the first answer, so every answer is a 304. */
  conditional?: boolean;
  /** The goal for its share of the bare route, where the issue sets one. */
  share?: number;
  p99Ms?: number;
}

const PAGE_PATH = `inbox/fetch?limit=${INBOX_PAGE_SIZE}`;

/** The endpoints the extension polls and pages with, named after `label` (such as "with 1,000 mutes"). */
const pollingEndpoints = (label = ''): Endpoint[] => [
  { name: `/inbox/count${label}`, path: 'inbox/count', share: SERVICE_GOALS.countShare },
  {
    name: `/inbox/count 304${label}`,
    path: 'inbox/count',
    conditional: true,
    share: SERVICE_GOALS.countShare,
    p99Ms: SERVICE_GOALS.notModifiedP99Ms,
  },
  { name: `/inbox/fetch${label}`, path: PAGE_PATH, share: SERVICE_GOALS.fetchShare },
];

const ENDPOINTS: readonly Endpoint[] = pollingEndpoints();
const SEARCH_ENDPOINT: Endpoint = {
  name: `/inbox/fetch, search for “${SEARCH_WORD}”`,
  path: `${PAGE_PATH}&q=${SEARCH_WORD}`,
};
const MUTED_ENDPOINTS: readonly Endpoint[] = pollingEndpoints(` with ${MUTES.toLocaleString('en-US')} mutes`);

/** A benchmark process that prints one JSON line once it serves and stops when its stdin closes. */
async function startProcess<Ready>(args: readonly string[]): Promise<Ready & { pid: number; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: process.env,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const ready = await new Promise<Ready>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line)));
    child.once('exit', (code) => reject(new Error(`${args[0]} stopped (${code}) before it served.`)));
  });
  lines.close();
  return {
    ...ready,
    pid: child.pid as number,
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
  /** CPU the serving processes used per answered request, in microseconds. */
  cpuMicros: number;
}

async function load(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
  pids: readonly number[] = [],
) {
  const cpuBefore = cpuSeconds(pids);
  const result = await autocannon({ url, connections, duration: seconds, headers });
  // autocannon stops without waiting for the answers still queued for the database; one more
  // request, queued behind them, comes back once they are done.
  await fetch(url, { headers }).then((response) => response.arrayBuffer());
  const expected = headers['if-none-match'] ? result['3xx'] : result['2xx'];
  const run: LoadRun = {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.errors + result.timeouts + Math.max(0, result.requests.total - expected),
    cpuMicros: ((cpuSeconds(pids) - cpuBefore) * 1e6) / (result.requests.total + 1),
  };
  return run;
}

async function headersFor(url: string, token: string, endpoint: Endpoint): Promise<Record<string, string>> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  if (!endpoint.conditional) return headers;
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  const tag = response.headers.get('etag');
  if (!tag) throw new Error(`${endpoint.name} gave no ETag to ask with.`);
  return { ...headers, 'if-none-match': tag };
}

/** Every endpoint on one running service, each run paired with a run of the bare route just before it. */
async function measureEndpoints(
  target: { label: string; apiBaseUrl: string; token: string; goals: boolean; pids: () => number[] },
  loadBare: () => Promise<LoadRun>,
  options: ServiceOptions,
  out: { figures: Figure[]; details: Record<string, unknown>; bareRuns: LoadRun[] },
  endpoints: readonly Endpoint[] = ENDPOINTS,
): Promise<Map<Endpoint, number[]>> {
  const how = `median of ${options.runs} × ${options.seconds} s, ${options.connections} connections`;
  const shares = new Map<Endpoint, number[]>();
  for (const endpoint of endpoints) {
    const url = `${target.apiBaseUrl}/${endpoint.path}`;
    const headers = await headersFor(url, target.token, endpoint);
    // A fresh process runs its first seconds unoptimised: not part of the figures.
    await load(url, headers, options.connections, WARMUP_SECONDS);
    const runs: LoadRun[] = [];
    const baseline: LoadRun[] = [];
    for (let i = 0; i < options.runs; i++) {
      baseline.push(await loadBare());
      runs.push(await load(url, headers, options.connections, options.seconds, target.pids()));
    }
    out.bareRuns.push(...baseline);
    shares.set(
      endpoint,
      runs.map((run, i) => run.requestsPerSecond / (baseline[i] as LoadRun).requestsPerSecond),
    );
    const failures = runs.reduce((sum, run) => sum + run.failures, 0);
    const label = `${target.label} ${endpoint.name}`;
    if (failures > 0) throw new Error(`${label}: ${failures} requests failed under load.`);
    out.figures.push(
      {
        name: `${label} ÷ bare route`,
        value: pairedRatio(
          runs.map((r) => r.requestsPerSecond),
          baseline.map((r) => r.requestsPerSecond),
        ),
        unit: 'share',
        how: 'median of paired runs, req/s',
        ...(target.goals && endpoint.share !== undefined ? { atLeast: endpoint.share } : {}),
      },
      { name: `${label} throughput`, value: median(runs.map((r) => r.requestsPerSecond)), unit: 'req/s', how },
      { name: `${label} p50`, value: median(runs.map((r) => r.p50)), unit: 'ms', how },
      {
        name: `${label} service CPU per request`,
        value: median(runs.map((r) => r.cpuMicros)),
        unit: 'µs',
        how: `${how}; ${pairedRatio(
          runs.map((r) => r.cpuMicros),
          baseline.map((r) => r.cpuMicros),
        ).toFixed(1)}× the bare route's`,
      },
      {
        name: `${label} p99`,
        value: median(runs.map((r) => r.p99)),
        unit: 'ms',
        how,
        ...(target.goals && endpoint.p99Ms ? { target: endpoint.p99Ms } : {}),
      },
    );
    out.details[label] = { runs, baseline };
  }
  return shares;
}

/** Mutes `count` links elsewhere through the API, as a person muting threads would. */
async function addMutes(apiBaseUrl: string, token: string, count: number): Promise<void> {
  for (let i = 1; i <= count; i++) {
    const response = await fetch(`${apiBaseUrl}/inbox/mutes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `https://elsewhere.example/thread/${i}` }),
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`Adding mute ${i} answered ${response.status}.`);
  }
}

/**
 * Where the issue sets goals (PostgreSQL, straight): a search page beside a plain page, then the
 * polling endpoints again once the user has as many mutes as one may have. The mutes are of
 * links none of the bench inbox's notifications has: what they cost each request, not what they
 * hold back (the `quiet` area measures that).
 */
async function measureGoalCases(
  target: Parameters<typeof measureEndpoints>[0],
  plainShares: Map<Endpoint, number[]>,
  loadBare: () => Promise<LoadRun>,
  options: ServiceOptions,
  out: Parameters<typeof measureEndpoints>[3],
): Promise<void> {
  const searched = await measureEndpoints(target, loadBare, options, out, [SEARCH_ENDPOINT]);
  const plain = plainShares.get(ENDPOINTS[2] as Endpoint) ?? [];
  const search = searched.get(SEARCH_ENDPOINT) ?? [];
  out.figures.push({
    name: `${target.label} search page ÷ plain page (time a request)`,
    value: median(search.map((share, i) => (plain[i] as number) / share)),
    unit: 'ratio',
    how: 'median of runs paired by their order, each share of its own bare run',
    target: SERVICE_GOALS.searchRatio,
  });
  await addMutes(target.apiBaseUrl, target.token, MUTES);
  await measureEndpoints(target, loadBare, options, out, MUTED_ENDPOINTS);
}

export async function measureService(options: ServiceOptions = SERVICE_DEFAULTS): Promise<Section> {
  const out = {
    figures: [] as Figure[],
    details: { ...options } as Record<string, unknown>,
    bareRuns: [] as LoadRun[],
  };
  const how = `median of ${options.runs} × ${options.seconds} s, ${options.connections} connections`;
  const backends = options.backends ?? benchBackends();
  let deployed = false;
  const bare = await startProcess<{ url: string }>(['bench/support/bare-process.ts']);
  try {
    const loadBare = () =>
      load(bare.url, { accept: 'application/json' }, options.connections, options.seconds, [bare.pid]);
    await load(bare.url, {}, options.connections, 1);
    for (const backend of backends) {
      const service = await startProcess<{ apiBaseUrl: string; token: string }>([
        'bench/support/service-process.ts',
        backend,
        String(INBOX),
      ]);
      try {
        const target = {
          label: BACKEND_NAMES[backend],
          goals: backend === 'postgres',
          pids: () => [service.pid],
          ...service,
        };
        const shares = await measureEndpoints(target, loadBare, options, out);
        if (target.goals) await measureGoalCases(target, shares, loadBare, options, out);
      } finally {
        await service.stop();
      }
    }
    const unavailable = deploymentUnavailable();
    if (backends.includes('postgres') && unavailable) out.details.deployments = `not measured: ${unavailable}`;
    if (backends.includes('postgres') && !unavailable) {
      const deployment = await openDeployment(INBOX);
      deployed = true;
      try {
        for (const { label, ...setup } of DEPLOYMENTS) {
          const running = await deployment.start(setup);
          try {
            const target = { label, ...running, token: deployment.token, goals: false };
            await measureEndpoints(target, loadBare, options, out);
          } finally {
            await running.stop();
          }
        }
      } finally {
        await deployment.close();
      }
    }
  } finally {
    await bare.stop();
  }
  out.figures.unshift(
    {
      name: 'bare Hono route throughput',
      value: median(out.bareRuns.map((r) => r.requestsPerSecond)),
      unit: 'req/s',
      how,
    },
    { name: 'bare Hono route p99', value: median(out.bareRuns.map((r) => r.p99)), unit: 'ms', how },
    { name: 'bare Hono route CPU per request', value: median(out.bareRuns.map((r) => r.cpuMicros)), unit: 'µs', how },
  );
  const notes = !deployed
    ? []
    : [
        `Service behind HAProxy and PgBouncer: on ${cpus().length} cores shared by the load tool, HAProxy, PgBouncer, ` +
          'PostgreSQL and every instance, these figures show what the pooler costs and that every answer through it ' +
          'is right (no request failed), not how the service scales out: three instances have no more cores than one.',
      ];
  return { id: 'service', title: 'Service under load', figures: out.figures, details: out.details, notes };
}
