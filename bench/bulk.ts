/**
 * Bulk triage: mark-all-read, its undo, then delete-all and its undo, on a 100,000-notification
 * inbox, through the API as the extension sends them. Each round leaves the inbox as it found
 * it, so it is filled once. A last round, not counted in the figures, runs the service's
 * statements on notifications under EXPLAIN (ANALYZE, BUFFERS, WAL) to say where the time went.
 */
import type { Database, Queryable } from '../server/db/database';
import { BACKEND_NAMES, benchBackends } from './support/backends';
import { type BenchService, startBenchService } from './support/big-inbox';
import type { Figure, Section } from './support/report';
import { median, timed } from './support/stats';

export interface BulkOptions {
  inbox: number;
  runs: number;
}

export const BULK_DEFAULTS: BulkOptions = { inbox: 100_000, runs: 3 };

const STEPS = ['mark all read', 'undo mark all read', 'delete all', 'undo delete all'] as const;

/** Listings read while the whole inbox is read or deleted, each timed at its best of `PAGE_TRIES`. */
const PAGES = ['unread page with the inbox read', 'page with the inbox deleted'] as const;
const PAGE_TRIES = 5;

/** The fastest of `PAGE_TRIES` fetches of a page of 25. */
async function pageTime(service: BenchService, unreadOnly: boolean): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < PAGE_TRIES; i++) {
    times.push(await timed(() => service.client.inbox.fetch({ limit: 25, unreadOnly })));
  }
  return Math.min(...times);
}

/**
 * The four calls in order, each timed, and the pages of `PAGES` between them; throws unless each
 * call changed the whole inbox.
 */
async function round(service: BenchService, inbox: number): Promise<{ times: number[]; pages: number[] }> {
  const { inbox: api } = service.client;
  let marked = { count: 0, undo: null as string | null };
  let deleted = { count: 0, undo: null as string | null };
  const counts: number[] = [];
  const times = [await timed(async () => (marked = await api.markRead('all')))];
  const pages = [await pageTime(service, true)];
  times.push(await timed(async () => counts.push((await api.undo(marked.undo ?? '')).count)));
  times.push(await timed(async () => (deleted = await api.delete('all'))));
  pages.push(await pageTime(service, false));
  times.push(await timed(async () => counts.push((await api.undo(deleted.undo ?? '')).count)));
  const changed = [marked.count, counts[0], deleted.count, counts[1]];
  if (changed.some((count) => count !== inbox)) throw new Error(`Bulk: the four calls changed ${changed} rows.`);
  return { times, pages };
}

/** What EXPLAIN (ANALYZE, BUFFERS, WAL) said of one statement that changed notifications. */
interface StatementProfile {
  ms: number;
  rows: number;
  sharedHits: number;
  tempWritten: number;
  walRecords: number;
  walBytes: number;
  triggers: Record<string, number>;
}

interface PlanNode {
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Shared Hit Blocks'?: number;
  'Temp Written Blocks'?: number;
  'WAL Records'?: number;
  'WAL Bytes'?: number;
  Plans?: PlanNode[];
}

interface ExplainOutput {
  Plan: PlanNode;
  Triggers?: { 'Trigger Name': string; Time: number }[];
  'Execution Time': number;
}

const CHANGES_NOTIFICATIONS = /^\s*UPDATE\s+notifications\b/i;

/**
 * Runs `work` with every UPDATE of notifications in a transaction carried out under EXPLAIN
 * (ANALYZE, BUFFERS, WAL, FORMAT JSON), which changes the rows as the statement would; the
 * caller is told the rows its plan updated. The profiles, in the order the statements ran.
 */
async function explained(database: Database, work: () => Promise<unknown>): Promise<StatementProfile[]> {
  const profiles: StatementProfile[] = [];
  const explaining = (tx: Queryable): Queryable => ({
    async query<Row>(sql: string, params?: readonly unknown[]) {
      if (!CHANGES_NOTIFICATIONS.test(sql)) return tx.query<Row>(sql, params);
      const result = await tx.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON) ${sql}`,
        params,
      );
      const cell = result.rows[0]?.['QUERY PLAN'];
      const [output] = (typeof cell === 'string' ? JSON.parse(cell) : cell) as ExplainOutput[];
      if (!output) throw new Error('EXPLAIN gave no plan.');
      const { Plan: plan } = output;
      const [scan] = plan.Plans ?? [];
      const rows = (scan?.['Actual Rows'] ?? 0) * (scan?.['Actual Loops'] ?? 1);
      profiles.push({
        ms: output['Execution Time'],
        rows,
        sharedHits: plan['Shared Hit Blocks'] ?? 0,
        tempWritten: plan['Temp Written Blocks'] ?? 0,
        walRecords: plan['WAL Records'] ?? 0,
        walBytes: plan['WAL Bytes'] ?? 0,
        triggers: Object.fromEntries((output.Triggers ?? []).map((t) => [t['Trigger Name'], t.Time])),
      });
      return { rows: [] as Row[], rowCount: Math.round(rows) };
    },
  });
  const transaction = database.transaction;
  database.transaction = <T>(inner: (tx: Queryable) => Promise<T>) =>
    transaction.call(database, (tx) => inner(explaining(tx))) as Promise<T>;
  try {
    await work();
  } finally {
    database.transaction = transaction;
  }
  return profiles;
}

const perRow = (value: number, rows: number) => (rows === 0 ? 0 : value / rows).toFixed(1);

function describe(label: string, step: string, apiMs: number, profile: StatementProfile | undefined): string {
  if (!profile) return `${label} ${step}: no UPDATE of notifications ran.`;
  const triggers = Object.values(profile.triggers).reduce((sum, ms) => sum + ms, 0);
  return (
    `${label} ${step}: ${Math.round(apiMs)} ms through the API, ${Math.round(profile.ms)} ms in the UPDATE of ` +
    `${profile.rows.toLocaleString('en-US')} rows (${Math.round(triggers)} ms of it in statement triggers); per row ` +
    `${perRow(profile.sharedHits, profile.rows)} buffer hits, ${perRow(profile.walRecords, profile.rows)} WAL records, ` +
    `${perRow(profile.walBytes, profile.rows)} WAL bytes; ${profile.tempWritten.toLocaleString('en-US')} temp blocks written.`
  );
}

export async function measureBulk(options: BulkOptions = BULK_DEFAULTS): Promise<Section> {
  const figures: Figure[] = [];
  const notes: string[] = [];
  const details: Record<string, unknown> = { ...options };
  const how = `median of ${options.runs} runs`;
  const size = options.inbox.toLocaleString('en-US');
  for (const backend of benchBackends()) {
    const service = await startBenchService(backend);
    const { database } = service.server;
    const runs: number[][] = STEPS.map(() => []);
    const pageRuns: number[][] = PAGES.map(() => []);
    let profiles: StatementProfile[] = [];
    let profiledTimes: number[] = [];
    try {
      await service.fill(options.inbox);
      for (let run = 0; run < options.runs; run++) {
        // What autovacuum does between rounds on a real server; PGlite has none.
        await database.query('VACUUM ANALYZE notifications');
        const { times, pages } = await round(service, options.inbox);
        times.forEach((ms, step) => {
          runs[step]?.push(ms);
        });
        pages.forEach((ms, page) => {
          pageRuns[page]?.push(ms);
        });
      }
      await database.query('VACUUM ANALYZE notifications');
      profiles = await explained(database, async () => {
        profiledTimes = (await round(service, options.inbox)).times;
      });
    } finally {
      await service.close();
    }
    const label = BACKEND_NAMES[backend];
    // The goal: a second for each of the four, on either backend.
    STEPS.forEach((step, index) => {
      figures.push({
        name: `${label} ${step} (${size})`,
        value: median(runs[index] ?? []),
        unit: 'ms',
        how,
        target: 1000,
      });
      notes.push(describe(label, step, profiledTimes[index] ?? 0, profiles[index]));
    });
    // A page must stay an index walk whatever the inbox holds that it does not list.
    PAGES.forEach((page, index) => {
      figures.push({
        name: `${label} ${page} (${size})`,
        value: median(pageRuns[index] ?? []),
        unit: 'ms',
        how: `median over ${options.runs} runs of the best of ${PAGE_TRIES}, through the API`,
      });
    });
    details[backend] = { runs: Object.fromEntries(STEPS.map((step, index) => [step, runs[index]])), profiles };
  }
  notes.unshift(
    'Where the time went: one more round with each UPDATE of notifications under EXPLAIN (ANALYZE, BUFFERS, WAL), ' +
      'which adds its own timing to the figures below.',
  );
  return { id: 'bulk', title: 'Bulk triage', figures, details, notes: [notes.join('\n')] };
}
