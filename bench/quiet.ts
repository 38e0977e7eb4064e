/**
 * Search and mutes. A page of search results in a 100,000-notification inbox against a plain page
 * of the same inbox, through the API in the same rounds: a word found in a few notifications (a
 * trigram index lookup), one in some dozens, and one in every notification (the page index,
 * filtered). Then the count and a page for a user with 1,000 mutes (some of which hold back a
 * tenth of the inbox) against a user with the same inbox and none, in the same rounds.
 */

import { type Client, createClient } from '../lib/api';
import { INBOX_PAGE_SIZE } from '../lib/messaging';
import { addNotifications, type NewNotification } from '../server/store/notifications';
import { BACKEND_NAMES, benchBackends } from './support/backends';
import { startBenchService } from './support/big-inbox';
import type { Figure, Section } from './support/report';
import { median, pairedRatio, sampleVariants } from './support/stats';

export interface QuietOptions {
  inbox: number;
  runs: number;
  /** Notifications in each inbox of the mutes measurement. */
  mutedInbox: number;
  mutes: number;
}

export const QUIET_DEFAULTS: QuietOptions = { inbox: 100_000, runs: 40, mutedInbox: 1_000, mutes: 1_000 };
/** The issue's goals: a search page against a plain page, and count or fetch with mutes against without. */
export const SEARCH_RATIO_TARGET = 3;
export const MUTES_RATIO_TARGET = 1.1;

/** Searches of words found in a few, some dozens, and all of the 100,000 notifications. */
const SEARCHES = [
  { label: 'a rare word', q: 'quarterly' },
  { label: 'a word in some dozens', q: '#4242' },
  { label: 'a word in every one', q: 'generated' },
] as const;

async function measureSearch(options: QuietOptions, figures: Figure[], details: Record<string, unknown>) {
  const how = `median of ${options.runs} rounds`;
  const size = options.inbox.toLocaleString('en-US');
  for (const backend of benchBackends()) {
    const service = await startBenchService(backend);
    try {
      const { server, userId, client } = service;
      await service.fill(options.inbox);
      const zoe = await server.admin.createUser({ username: 'zoe', displayName: 'Zoë Fischer' });
      const rare: NewNotification[] = Array.from({ length: 20 }, (_, i) => ({
        userId,
        type: 'mention',
        actorId: zoe.id,
        text: `The quarterly numbers, part ${i + 1}`,
        createdAt: new Date(Date.now() - (i * options.inbox) / 20 - 1_000).toISOString(),
      }));
      await addNotifications(server.database, rare);
      await server.database.query('VACUUM ANALYZE notifications');
      const page = (q?: string) => () => client.inbox.fetch({ limit: INBOX_PAGE_SIZE, ...(q ? { q } : {}) });
      const variants: Record<string, () => Promise<unknown>> = { plain: page() };
      for (const { q } of SEARCHES) variants[q] = page(q);
      const samples = await sampleVariants(variants, options.runs);
      const label = BACKEND_NAMES[backend];
      figures.push({
        name: `${label} API page of ${size}`,
        value: median(samples.plain ?? []),
        unit: 'ms',
        how,
      });
      for (const search of SEARCHES) {
        figures.push(
          {
            name: `${label} API search page, ${search.label} (“${search.q}”)`,
            value: median(samples[search.q] ?? []),
            unit: 'ms',
            how,
          },
          {
            name: `${label} search page ÷ plain page, ${search.label}`,
            value: pairedRatio(samples[search.q] ?? [], samples.plain ?? []),
            unit: 'ratio',
            how: 'median of paired rounds',
            target: SEARCH_RATIO_TARGET,
          },
        );
      }
      details[`search ${backend}`] = samples;
    } finally {
      await service.close();
    }
  }
}

async function measureMutes(options: QuietOptions, figures: Figure[], details: Record<string, unknown>) {
  const how = `median of ${options.runs} rounds`;
  for (const backend of benchBackends()) {
    const service = await startBenchService(backend);
    try {
      const { server } = service;
      const actors: { id: number; displayName: string }[] = [];
      for (let i = 0; i < 20; i++) {
        actors.push(await server.admin.createUser({ username: `actor${i}`, displayName: `Actor ${i}` }));
      }
      const clients: Client[] = [];
      for (const username of ['muting', 'plain']) {
        const user = await server.admin.createUser({ username, displayName: username });
        const inbox: NewNotification[] = Array.from({ length: options.mutedInbox }, (_, i) => {
          const actor = actors[i % actors.length] as { id: number; displayName: string };
          return {
            userId: user.id,
            type: 'reply',
            actorId: actor.id,
            text: `${actor.displayName} replied to your post`,
            path: `/@${username}/posts/${1 + (i % 16)}`,
            createdAt: new Date(Date.now() - i * 60_000).toISOString(),
          };
        });
        await addNotifications(server.database, inbox);
        const token = await server.admin.issueToken(username);
        clients.push(createClient({ baseUrl: server.apiBaseUrl, token, retries: 0, timeout: 120_000 }));
      }
      const [muting, plain] = clients as [Client, Client];
      // Two of the twenty actors: a tenth of the inbox held back; the rest are links elsewhere.
      await muting.inbox.mutes.add({ actor: 'actor0' });
      await muting.inbox.mutes.add({ actor: 'actor1' });
      await server.database.query(
        `INSERT INTO mutes (user_id, path)
         SELECT u.id, 'https://elsewhere.example/thread/' || g FROM users u, generate_series(1, $1::int) g
         WHERE u.username = 'muting'`,
        [options.mutes - 2],
      );
      await server.database.query('VACUUM ANALYZE');
      const samples = await sampleVariants(
        {
          countMuting: () => muting.inbox.countByType(),
          countPlain: () => plain.inbox.countByType(),
          fetchMuting: () => muting.inbox.fetch({ limit: INBOX_PAGE_SIZE }),
          fetchPlain: () => plain.inbox.fetch({ limit: INBOX_PAGE_SIZE }),
        },
        options.runs,
      );
      const label = BACKEND_NAMES[backend];
      const mutes = options.mutes.toLocaleString('en-US');
      for (const [what, withMutes, without] of [
        ['count', samples.countMuting, samples.countPlain],
        ['page', samples.fetchMuting, samples.fetchPlain],
      ] as const) {
        figures.push(
          { name: `${label} API ${what} with ${mutes} mutes`, value: median(withMutes), unit: 'ms', how },
          { name: `${label} API ${what} with no mutes`, value: median(without), unit: 'ms', how },
          {
            name: `${label} API ${what}: ${mutes} mutes ÷ none`,
            value: pairedRatio(withMutes, without),
            unit: 'ratio',
            how: 'median of paired rounds',
            target: MUTES_RATIO_TARGET,
          },
        );
      }
      details[`mutes ${backend}`] = samples;
    } finally {
      await service.close();
    }
  }
}

export async function measureQuiet(options: QuietOptions = QUIET_DEFAULTS): Promise<Section> {
  const figures: Figure[] = [];
  const details: Record<string, unknown> = { ...options, pageSize: INBOX_PAGE_SIZE };
  await measureSearch(options, figures, details);
  await measureMutes(options, figures, details);
  return { id: 'quiet', title: 'Search and mutes', figures, details };
}
