/**
 * Grouping in the popup: notifications of the same type about the same thing (same `type` and
 * `url`) that are next to each other in the list show as one row. A group is known by its newest
 * member's id, so it keeps its key (and its place, focus and selection) when the next page adds
 * older members to it. Plain data, computed from the loaded list on every change.
 */
import type { Notification, NotificationType } from '../api/contract';

/** Off, on for every type, or on for the types marked so. */
export type Grouping = boolean | Readonly<Record<NotificationType, boolean>>;

export interface NotificationGroup {
  /** The newest member's id. */
  key: string;
  /** Newest first; two or more. */
  members: readonly Notification[];
  /** How many members are unread: the group is unread while any is. */
  unread: number;
}

export type InboxRow = { item: Notification; group?: undefined } | { item: Notification; group: NotificationGroup };

/** Same type (one that groups), same link and the same account (rows of all accounts carry theirs). */
const sameThing = (a: Notification, b: Notification, grouping: Grouping) =>
  (grouping === true || (grouping !== false && grouping[a.type])) &&
  a.url !== null &&
  a.type === b.type &&
  a.url === b.url &&
  (a as { account?: string }).account === (b as { account?: string }).account;

/** The list as rows: each run of neighbours about the same thing becomes one group. */
export function groupRows(items: readonly Notification[], grouping: Grouping): InboxRow[] {
  const rows: InboxRow[] = [];
  let run: Notification[] = [];
  const close = () => {
    const [first] = run;
    if (!first) return;
    if (run.length === 1) rows.push({ item: first });
    else rows.push({ item: first, group: { key: first.id, members: run, unread: run.filter((m) => !m.read).length } });
    run = [];
  };
  for (const item of items) {
    const [first] = run;
    if (!first || !sameThing(first, item, grouping)) close();
    run.push(item);
  }
  close();
  return rows;
}

/** The ids of the rows, in order: what moving up and down steps through. */
export const rowKeys = (items: readonly Notification[], grouping: Grouping) =>
  groupRows(items, grouping).map((row) => row.item.id);

/**
 * The ids an action on `ids` applies to: a group's key stands for every member of it, so
 * triage of a group changes all its members (and its Undo puts them all back).
 */
export function withGroupMembers(ids: readonly string[], items: readonly Notification[], grouping: Grouping): string[] {
  if (!grouping) return [...ids];
  const wanted = new Set(ids);
  for (const { group } of groupRows(items, grouping)) {
    if (group && wanted.has(group.key)) for (const member of group.members) wanted.add(member.id);
  }
  return [...wanted];
}

/** The people in a group, each once, newest first, by the name they show. */
export function groupActors(group: NotificationGroup): string[] {
  const names = new Map<string, string>();
  for (const { actor } of group.members) {
    if (actor && !names.has(actor.username)) names.set(actor.username, actor.displayName || actor.username);
  }
  return [...names.values()];
}
