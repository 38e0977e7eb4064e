/**
 * Paging depth: a page of a 100,000-notification inbox at depth 0 and at depth 5,000, through the
 * API (keyset cursors), and the same pages as the service's keyset query and as an OFFSET query
 * run in the same rounds. Keyset paging should cost the same at any depth; OFFSET should not.
 * Then the same inbox with a tenth of it snoozed and another tenth snoozed and woken (back at the
 * top, ordered by when they woke): the API pages again at both depths.
 */
import { INBOX_PAGE_SIZE } from '../lib/messaging';
import type { Database, Queryable } from '../server/db/database';
import { toIso } from '../server/db/values';
import {
  listNotifications,
  type NotificationRecord,
  type PagePosition,
  type StoredNotification,
  toNotification,
  wakeDueNotifications,
} from '../server/store/notifications';
import { BACKEND_NAMES, benchBackends } from './support/backends';
import { type BenchService, startBenchService } from './support/big-inbox';
import type { Figure, Section } from './support/report';
import { median, pairedRatio, sampleVariants } from './support/stats';

export interface DepthOptions {
  inbox: number;
  depth: number;
  runs: number;
}

export const DEPTH_DEFAULTS: DepthOptions = { inbox: 100_000, depth: 5_000, runs: 40 };
/** The goal for a page at depth 5,000 against one at depth 0. */
export const DEPTH_RATIO_TARGET = 1.5;

const WALK_PAGE = 100;
/** The share of the inbox snoozed, and the share snoozed and woken, in the second measurement. */
const SNOOZED_SHARE = 0.1;

/**
 * The listing query as an OFFSET query would write it, the baseline keyset paging replaces; its
 * rows become notifications as the service's own rows do, so both pay the same per row. Since
 * the inbox is listed from tables of its own (migration 12), no index of `notifications` has the
 * listing's order, so this baseline sorts the whole inbox at any depth: it shows what a page
 * costs without the listing tables, not how OFFSET grows with depth.
 */
async function offsetPage(db: Queryable, userId: number, offset: number): Promise<StoredNotification[]> {
  const { rows } = await db.query<NotificationRecord>(
    `SELECT n.id, n.read, n.type, n.created_at, n.text, n.path,
       a.username AS actor_username, a.display_name AS actor_display_name, n.snoozed_until, n.sorted_at
     FROM notifications n LEFT JOIN users a ON a.id = n.actor_id
     WHERE n.user_id = $1 AND n.deleted_at IS NULL AND n.snoozed_until IS NULL AND NOT n.muted
     ORDER BY n.sorted_at DESC, n.id DESC
     LIMIT $2 OFFSET $3`,
    [userId, INBOX_PAGE_SIZE + 1, offset],
  );
  return rows.map(toNotification);
}

/** The position just before the notification at `depth`, read directly, for the store-level query. */
async function positionAt(db: Queryable, userId: number, depth: number): Promise<PagePosition> {
  const { rows } = await db.query<{ sorted_at: Date; id: string }>(
    `SELECT sorted_at, id FROM notifications
     WHERE user_id = $1 AND deleted_at IS NULL AND snoozed_until IS NULL AND NOT muted
     ORDER BY sorted_at DESC, id DESC OFFSET $2 LIMIT 1`,
    [userId, depth - 1],
  );
  const row = rows[0];
  if (!row) throw new Error(`The inbox has fewer than ${depth} notifications.`);
  return { at: toIso(row.sorted_at), id: row.id };
}

/**
 * Snoozes a random tenth of the inbox for a day, and snoozes and wakes another tenth through the
 * service's own wake, as if their time had come.
 */
async function snoozeAndWake(db: Database, userId: number, inbox: number): Promise<void> {
  const share = Math.round(inbox * SNOOZED_SHARE);
  const snooze = (until: string) =>
    db.query(
      `UPDATE notifications SET snoozed_until = now() + $3::interval WHERE id IN (
         SELECT id FROM notifications WHERE user_id = $1 AND snoozed_until IS NULL AND woken_at IS NULL
         ORDER BY random() LIMIT $2)`,
      [userId, share, until],
    );
  await snooze('1 day');
  await snooze('-1 second');
  await db.transaction((tx) => wakeDueNotifications(tx));
  await db.query('VACUUM ANALYZE notifications');
}

/** The cursor a client holds after reading `depth` notifications, got the way a client gets it. */
async function cursorAt(service: BenchService, depth: number): Promise<string> {
  let cursor: string | null = null;
  for (let read = 0; read < depth; read += WALK_PAGE) {
    ({ cursor } = await service.client.inbox.fetch({ limit: Math.min(WALK_PAGE, depth - read), cursor }));
    if (cursor === null) throw new Error(`The inbox ended before depth ${depth}.`);
  }
  return cursor as string;
}

export async function measureDepth(options: DepthOptions = DEPTH_DEFAULTS): Promise<Section> {
  const figures: Figure[] = [];
  const details: Record<string, unknown> = { ...options, pageSize: INBOX_PAGE_SIZE };
  const how = `median of ${options.runs} rounds`;
  const deep = options.depth.toLocaleString('en-US');
  for (const backend of benchBackends()) {
    const service = await startBenchService(backend);
    try {
      await service.fill(options.inbox);
      const { database: db } = service.server;
      const { userId } = service;
      const cursor = await cursorAt(service, options.depth);
      const position = await positionAt(db, userId, options.depth);
      const page = (after: PagePosition | null) =>
        listNotifications(db, userId, {
          limit: INBOX_PAGE_SIZE + 1,
          unreadOnly: false,
          snoozed: false,
          types: null,
          after,
        });

      const variants = {
        apiTop: () => service.client.inbox.fetch({ limit: INBOX_PAGE_SIZE }),
        apiDeep: () => service.client.inbox.fetch({ limit: INBOX_PAGE_SIZE, cursor }),
        keysetTop: () => page(null),
        keysetDeep: () => page(position),
        offsetTop: () => offsetPage(db, userId, 0),
        offsetDeep: () => offsetPage(db, userId, options.depth),
      };
      const samples = await sampleVariants(variants, options.runs);

      const label = BACKEND_NAMES[backend];
      figures.push(
        { name: `${label} API page at depth 0`, value: median(samples.apiTop), unit: 'ms', how },
        { name: `${label} API page at depth ${deep}`, value: median(samples.apiDeep), unit: 'ms', how },
        {
          name: `${label} API depth ${deep} ÷ depth 0`,
          value: pairedRatio(samples.apiDeep, samples.apiTop),
          unit: 'ratio',
          how: 'median of paired rounds',
          target: DEPTH_RATIO_TARGET,
        },
        { name: `${label} keyset query at depth 0`, value: median(samples.keysetTop), unit: 'ms', how },
        { name: `${label} keyset query at depth ${deep}`, value: median(samples.keysetDeep), unit: 'ms', how },
        { name: `${label} OFFSET query at depth 0`, value: median(samples.offsetTop), unit: 'ms', how },
        { name: `${label} OFFSET query at depth ${deep}`, value: median(samples.offsetDeep), unit: 'ms', how },
        {
          name: `${label} keyset depth ${deep} ÷ depth 0`,
          value: pairedRatio(samples.keysetDeep, samples.keysetTop),
          unit: 'ratio',
          how: 'median of paired rounds',
        },
        {
          name: `${label} OFFSET depth ${deep} ÷ depth 0`,
          value: pairedRatio(samples.offsetDeep, samples.offsetTop),
          unit: 'ratio',
          how: 'median of paired rounds',
        },
      );

      await snoozeAndWake(db, userId, options.inbox);
      const snoozedCursor = await cursorAt(service, options.depth);
      const snoozed = await sampleVariants(
        {
          apiTop: () => service.client.inbox.fetch({ limit: INBOX_PAGE_SIZE }),
          apiDeep: () => service.client.inbox.fetch({ limit: INBOX_PAGE_SIZE, cursor: snoozedCursor }),
        },
        options.runs,
      );
      const withSnoozes = `with ${SNOOZED_SHARE * 100} % snoozed and ${SNOOZED_SHARE * 100} % woken`;
      figures.push(
        { name: `${label} API page at depth 0, ${withSnoozes}`, value: median(snoozed.apiTop), unit: 'ms', how },
        {
          name: `${label} API page at depth ${deep}, ${withSnoozes}`,
          value: median(snoozed.apiDeep),
          unit: 'ms',
          how,
        },
        {
          name: `${label} API depth ${deep} ÷ depth 0, ${withSnoozes}`,
          value: pairedRatio(snoozed.apiDeep, snoozed.apiTop),
          unit: 'ratio',
          how: 'median of paired rounds',
          target: DEPTH_RATIO_TARGET,
        },
      );
      details[backend] = { ...samples, snoozed };
    } finally {
      await service.close();
    }
  }
  return { id: 'depth', title: 'Paging depth', figures, details };
}
