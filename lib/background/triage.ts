/**
 * Mark-read and delete on the popup's behalf. The badge and the cached first pages change at
 * once from the operation's result; the poller's next check confirms the count.
 */
import type { Client, IdsSelection } from '../api';
import { LIMITS } from '../api';
import { updateCachedPages } from '../inbox-cache';
import type { TriageRequest, TriageResult } from '../messaging';
import { triagedPage, uniqueIds } from '../triage-patch';
import { getStatus, showCount } from './status-writer';

function chunks(ids: readonly string[]): string[][] {
  const unique = uniqueIds(ids);
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

export async function markRead(client: Client, { ids }: TriageRequest): Promise<TriageResult> {
  const { count } = await inBatches(ids, client.inbox.markRead);
  await updateCachedPages((page, unreadOnly) => triagedPage(page, 'markRead', ids, unreadOnly));
  const before = (await getStatus()).count;
  const status = await showCount(ids === 'all' ? 0 : (before ?? 0) - count);
  return { success: true, count, unreadCount: status.kind === 'ok' ? status.count : null };
}

export async function deleteNotifications(client: Client, { ids, unread }: TriageRequest): Promise<TriageResult> {
  const { count } = await inBatches(ids, client.inbox.delete);
  await updateCachedPages((page, unreadOnly) => triagedPage(page, 'delete', ids, unreadOnly));
  const before = (await getStatus()).count;
  const gone = Math.min(count, Math.max(0, Math.floor(unread ?? 0)));
  const status = await showCount(ids === 'all' ? 0 : (before ?? 0) - gone);
  return { success: true, count, unreadCount: status.kind === 'ok' ? status.count : null };
}
