/**
 * Mark-read and delete on the popup's behalf. The badge and the cached first pages change at
 * once from the operation's result; the poller's next check confirms the count.
 */
import type { Client, IdsSelection, Page } from '../api';
import { LIMITS } from '../api';
import { updateCachedPages } from '../inbox-cache';
import type { TriageRequest, TriageResult } from '../messaging';
import { getStatus, showCount } from './status-writer';

function chunks(ids: readonly string[]): string[][] {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const out: string[][] = [];
  for (let i = 0; i < unique.length; i += LIMITS.idsPerCall) out.push(unique.slice(i, i + LIMITS.idsPerCall));
  return out;
}

/** Sends a selection of any size, at most 500 ids a call; counts add up across calls. */
async function inBatches(ids: IdsSelection, send: (ids: IdsSelection) => Promise<{ count: number }>) {
  if (ids === 'all') return send('all');
  let count = 0;
  for (const batch of chunks(ids)) count += (await send(batch)).count;
  return { count };
}

function selects(ids: IdsSelection) {
  const chosen = ids === 'all' ? null : new Set(ids.map((id) => id.toLowerCase()));
  return (id: string) => chosen === null || chosen.has(id.toLowerCase());
}

function markReadInPage(ids: IdsSelection) {
  const chosen = selects(ids);
  return (page: Page, unreadOnly: boolean): Page =>
    unreadOnly
      ? { data: page.data.filter((item) => !chosen(item.id)), cursor: ids === 'all' ? null : page.cursor }
      : { ...page, data: page.data.map((item) => (chosen(item.id) ? { ...item, read: true } : item)) };
}

function deleteFromPage(ids: IdsSelection) {
  const chosen = selects(ids);
  return (page: Page): Page => ({
    data: page.data.filter((item) => !chosen(item.id)),
    cursor: ids === 'all' ? null : page.cursor,
  });
}

export async function markRead(client: Client, { ids }: TriageRequest): Promise<TriageResult> {
  const { count } = await inBatches(ids, client.inbox.markRead);
  await updateCachedPages(markReadInPage(ids));
  const before = (await getStatus()).count;
  const status = await showCount(ids === 'all' ? 0 : (before ?? 0) - count);
  return { success: true, count, unreadCount: status.kind === 'ok' ? status.count : null };
}

export async function remove(client: Client, { ids, unread }: TriageRequest): Promise<TriageResult> {
  const { count } = await inBatches(ids, client.inbox.delete);
  await updateCachedPages(deleteFromPage(ids));
  const before = (await getStatus()).count;
  const gone = Math.min(count, Math.max(0, Math.floor(unread ?? 0)));
  const status = await showCount(ids === 'all' ? 0 : (before ?? 0) - gone);
  return { success: true, count, unreadCount: status.kind === 'ok' ? status.count : null };
}
