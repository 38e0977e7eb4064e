/**
 * Bulk triage: mark-all-read, its undo, then delete-all and its undo, on a 100,000-notification
 * inbox, through the API as the extension sends them. Each round leaves the inbox as it found
 * it, so it is filled once.
 */
import { BACKEND_NAMES, benchBackends } from './support/backends';
import { startBenchService } from './support/big-inbox';
import type { Figure, Section } from './support/report';
import { median, timed } from './support/stats';

export interface BulkOptions {
  inbox: number;
  runs: number;
}

export const BULK_DEFAULTS: BulkOptions = { inbox: 100_000, runs: 3 };

export async function measureBulk(options: BulkOptions = BULK_DEFAULTS): Promise<Section> {
  const figures: Figure[] = [];
  const details: Record<string, unknown> = { ...options };
  const how = `median of ${options.runs} runs`;
  const size = options.inbox.toLocaleString('en-US');
  for (const backend of benchBackends()) {
    const service = await startBenchService(backend);
    const runs = {
      markAll: [] as number[],
      undoMarkAll: [] as number[],
      deleteAll: [] as number[],
      undoDeleteAll: [] as number[],
    };
    try {
      await service.fill(options.inbox);
      for (let run = 0; run < options.runs; run++) {
        // What autovacuum does between rounds on a real server; PGlite has none.
        await service.server.database.query('VACUUM ANALYZE notifications');
        const { inbox } = service.client;
        let marked = { count: 0, undo: null as string | null };
        let deleted = { count: 0, undo: null as string | null };
        const counts: number[] = [];
        runs.markAll.push(await timed(async () => (marked = await inbox.markRead('all'))));
        runs.undoMarkAll.push(await timed(async () => counts.push((await inbox.undo(marked.undo ?? '')).count)));
        runs.deleteAll.push(await timed(async () => (deleted = await inbox.delete('all'))));
        runs.undoDeleteAll.push(await timed(async () => counts.push((await inbox.undo(deleted.undo ?? '')).count)));
        const expected = [options.inbox, options.inbox, options.inbox, options.inbox];
        if (JSON.stringify([marked.count, deleted.count, ...counts]) !== JSON.stringify(expected)) {
          throw new Error(`Bulk on ${backend}: marked, deleted, put back ${[marked.count, deleted.count, ...counts]}.`);
        }
      }
    } finally {
      await service.close();
    }
    const label = BACKEND_NAMES[backend];
    // The goal: a second for each of the four, on either backend.
    const goal = { unit: 'ms', how, target: 1000 } as const;
    figures.push(
      { name: `${label} mark all read (${size})`, value: median(runs.markAll), ...goal },
      { name: `${label} undo mark all read (${size})`, value: median(runs.undoMarkAll), ...goal },
      { name: `${label} delete all (${size})`, value: median(runs.deleteAll), ...goal },
      { name: `${label} undo delete all (${size})`, value: median(runs.undoDeleteAll), ...goal },
    );
    details[backend] = runs;
  }
  return { id: 'bulk', title: 'Bulk triage', figures, details };
}
