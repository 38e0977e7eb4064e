/**
 * The service's order of the inbox, the only order any list of notifications is kept in: the most
 * recently sorted first (its arrival, or its waking from a snooze, which puts it back on top),
 * then by id, so two lists of the same items always agree.
 */
import type { Notification } from './api/contract';

type Sorted = Pick<Notification, 'id' | 'sortedAt'>;

export function serviceOrder(a: Sorted, b: Sorted): number {
  const byTime = Date.parse(b.sortedAt) - Date.parse(a.sortedAt);
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
