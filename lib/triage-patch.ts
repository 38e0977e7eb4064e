/**
 * What a triage action does to notifications already on hand: the popup's loaded list and the
 * background's cached first pages change by the same rule. Ids are UUIDs, which the service
 * compares without regard to case, so they are compared here the same way.
 */
import type { Notification, Page } from './api/contract';

/** Snoozing takes notifications out of the inbox, as deleting does, until they wake. */
export type TriageAction = 'markRead' | 'markUnread' | 'delete' | 'snooze';

/** The notifications an action names: every one, or those with the given ids. */
export type Targets = 'all' | Iterable<string>;

const idKey = (id: string) => id.toLowerCase();

/** The ids without repeats, including repeats that differ only in case. */
export function uniqueIds(ids: Iterable<string>): string[] {
  return [...new Set([...ids].map(idKey))];
}

/** Whether an id is one of `targets`. */
export function targeted(targets: Targets): (id: string) => boolean {
  if (targets === 'all') return () => true;
  const chosen = new Set([...targets].map(idKey));
  return (id) => chosen.has(idKey(id));
}

export function withoutIds(items: readonly Notification[], targets: Targets): Notification[] {
  const chosen = targeted(targets);
  return items.filter((item) => !chosen(item.id));
}

export function markedRead(items: readonly Notification[], targets: Targets, read = true): Notification[] {
  const chosen = targeted(targets);
  return items.map((item) => (chosen(item.id) && item.read !== read ? { ...item, read } : item));
}

/**
 * Marking read keeps the items in a list of all notifications and takes them out of an
 * unread-only one; marking unread changes them where they are (a read item is in no unread-only list).
 */
const removes = (action: TriageAction, unreadOnly: boolean) =>
  action === 'delete' || action === 'snooze' || (action === 'markRead' && unreadOnly);

/** A list as it is once `action` reached `targets`. */
export function triagedItems(
  items: readonly Notification[],
  action: TriageAction,
  targets: Targets,
  unreadOnly: boolean,
): Notification[] {
  if (removes(action, unreadOnly)) return withoutIds(items, targets);
  return markedRead(items, targets, action === 'markRead');
}

/** A page as it is once `action` reached `targets`; once every item left, nothing is left to page to. */
export function triagedPage(
  page: { data: readonly Notification[]; cursor: Page['cursor'] },
  action: TriageAction,
  targets: Targets,
  unreadOnly: boolean,
): Page {
  const emptied = targets === 'all' && removes(action, unreadOnly);
  return { data: triagedItems(page.data, action, targets, unreadOnly), cursor: emptied ? null : page.cursor };
}
