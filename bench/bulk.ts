/**
 * Bulk triage: mark-all-read and then delete-all on a 100,000-notification inbox, through the
 * API as the extension sends them, refilled before each round.
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
    const markAll: number[] = [];
    const deleteAll: number[] = [];
    try {
      for (let run = 0; run < options.runs; run++) {
        await service.fill(options.inbox);
        let marked = 0;
        let deleted = 0;
        markAll.push(await timed(async () => ({ count: marked } = await service.client.inbox.markRead('all'))));
        deleteAll.push(await timed(async () => ({ count: deleted } = await service.client.inbox.delete('all'))));
        if (marked !== options.inbox || deleted !== options.inbox) {
          throw new Error(`Bulk on ${backend}: marked ${marked} and deleted ${deleted} of ${options.inbox}.`);
        }
      }
    } finally {
      await service.close();
    }
    const label = BACKEND_NAMES[backend];
    figures.push(
      { name: `${label} mark all read (${size})`, value: median(markAll), unit: 'ms', how },
      { name: `${label} delete all (${size})`, value: median(deleteAll), unit: 'ms', how },
    );
    details[backend] = { markAll, deleteAll };
  }
  return { id: 'bulk', title: 'Bulk triage', figures, details };
}
