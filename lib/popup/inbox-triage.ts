/**
 * Mark read and delete from the popup: each change is shown at once, the unread count moves with
 * it, and a failure puts the items, their selection and the count back as they were. Opening a
 * notification marks it read too.
 */
import { browser } from 'wxt/browser';
import type { Notification } from '../api/contract';
import { reviveError } from '../api/errors';
import { t, tn } from '../i18n';
import { openableUrl } from '../links';
import { ask } from '../messaging';
import { type TriageAction, triagedItems, triagedPage, withoutIds } from '../triage-patch';
import { restored } from './inbox-list';
import type { Paging } from './inbox-paging';
import type { StateCell } from './inbox-state';
import type { StatusTracking } from './inbox-status';
import { failureReason } from './problem';
import type { Selection } from './selection';

export interface Triage {
  markRead(ids: readonly string[]): Promise<void>;
  delete(ids: readonly string[]): Promise<void>;
  markAllRead(): Promise<void>;
  deleteAll(): Promise<void>;
  open(id: string, options?: { background?: boolean }): Promise<void>;
}

const WORDS = {
  markRead: { done: 'popup_marked_read', doneAll: 'popup_all_marked_read', failed: 'popup_error_mark_read' },
  delete: { done: 'popup_deleted', doneAll: 'popup_all_deleted', failed: 'popup_error_delete' },
} as const;

const MESSAGE = { markRead: 'inbox.markRead', delete: 'inbox.delete' } as const;

export function createTriage(cell: StateCell, paging: Paging, status: StatusTracking): Triage {
  const { get, set, setItems, changes } = cell;
  const recorded = { markRead: changes.read, delete: changes.deleted };

  const fail = (action: TriageAction, error: unknown) =>
    set({ failure: cell.message(t(WORDS[action].failed, failureReason(reviveError(error), get().online))) });

  /** After a failed change: puts `originals` back, and reselects those that were selected. */
  function rollBack(originals: readonly Notification[], selectionBefore: Selection): void {
    const { items, unreadOnly, selection } = get();
    const reselect = originals.filter((item) => selectionBefore.ids.has(item.id)).map((item) => item.id);
    setItems(restored(items, originals, paging.range(), unreadOnly), {
      selection: { ...selection, ids: new Set([...selection.ids, ...reselect]) },
    });
  }

  async function change(action: TriageAction, ids: readonly string[]): Promise<void> {
    const wanted = new Set(ids);
    const targets = get().items.filter((item) => wanted.has(item.id) && (action === 'delete' || !item.read));
    if (targets.length === 0) {
      if (action === 'markRead') cell.announce(t('popup_already_read'));
      return;
    }
    const targetIds = targets.map((item) => item.id);
    const unread = targets.filter((item) => !item.read).length;
    const selectionBefore = get().selection;
    for (const id of targetIds) recorded[action].add(id);
    setItems(triagedItems(get().items, action, targetIds, get().unreadOnly), { failure: null });
    status.shiftUnreadCount(-unread);
    paging.refillIfEmpty();
    try {
      const result = await ask(MESSAGE[action], { ids: targetIds, unread });
      status.applyUnreadCount(result.unreadCount);
      cell.announce(tn(WORDS[action].done, targets.length));
    } catch (error) {
      for (const id of targetIds) recorded[action].delete(id);
      rollBack(targets, selectionBefore);
      status.shiftUnreadCount(unread);
      fail(action, error);
    }
  }

  /**
   * "Mark all read" and "delete all" change pages not loaded yet, so page loads under way are
   * dropped and no new one starts until the answer; a failure brings the list back as it was.
   */
  async function changeAll(action: TriageAction): Promise<void> {
    const before = get();
    if (before.bulkPending) return;
    const unread = before.status.count ?? before.items.filter((item) => !item.read).length;
    const resumePaging = paging.interrupt();
    const after = triagedPage({ data: before.items, cursor: before.cursor }, action, 'all', before.unreadOnly);
    setItems(after.data, { cursor: after.cursor, loading: null, bulkPending: true, failure: null });
    status.shiftUnreadCount(-unread);
    try {
      const result = await ask(MESSAGE[action], { ids: 'all', unread });
      status.applyUnreadCount(result.unreadCount ?? 0);
      cell.announce(t(WORDS[action].doneAll));
      set({ bulkPending: false });
    } catch (error) {
      resumePaging();
      setItems(withoutIds(before.items, changes.deleted), {
        cursor: before.cursor,
        selection: before.selection,
        bulkPending: false,
      });
      status.shiftUnreadCount(unread);
      fail(action, error);
    }
    if (!get().fresh) await paging.fetchFirst();
  }

  const markRead = (ids: readonly string[]) => change('markRead', ids);

  return {
    markRead,
    delete: (ids) => change('delete', ids),
    markAllRead: () => changeAll('markRead'),
    deleteAll: () => changeAll('delete'),
    async open(id, options = {}) {
      const item = get().items.find((candidate) => candidate.id === id);
      if (!item) return;
      const url = openableUrl(item.url);
      if (!url) {
        cell.announce(t('popup_no_link'));
        return;
      }
      // The message goes out before the tab opens: opening a tab in front closes the popup.
      const marking = item.read ? null : markRead([id]);
      try {
        await browser.tabs.create({ url, active: !options.background });
      } catch {
        set({ failure: cell.message(t('popup_error_open')) });
      }
      await marking;
    },
  };
}
