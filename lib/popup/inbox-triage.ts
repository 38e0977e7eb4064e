/**
 * Mark read, mark unread, delete and snooze from the popup: each change is shown at once, the unread
 * count moves with it, and a failure puts the items, their selection and the count back as they
 * were. A change that went through is offered for undo for 10 seconds; the background keeps its
 * undo, so a popup opened again within the service's minute offers it too. Opening a
 * notification marks it read.
 */
import { browser } from 'wxt/browser';
import type { Notification } from '../api/contract';
import { reviveError, UndoExpiredError } from '../api/errors';
import { t, tn } from '../i18n';
import { openableUrl } from '../links';
import { ALL_ACCOUNTS, ask, type InboxItem, type TriageResult, type UndoOffer } from '../messaging';
import { onBroadcast } from '../messaging/on-broadcast';
import type { Signal } from '../priority/model';
import { type TriageAction, triagedItems, triagedPage, withoutIds } from '../triage-patch';
import { loadFailureWords } from './failure-words';
import { withGroupMembers } from './inbox-groups';
import { restored } from './inbox-list';
import type { Paging } from './inbox-paging';
import type { StateCell } from './inbox-state';
import type { StatusTracking } from './inbox-status';
import type { Selection } from './selection';
import { doneWords, WORDS } from './triage-words';

export interface Triage {
  markRead(ids: readonly string[]): Promise<void>;
  markUnread(ids: readonly string[]): Promise<void>;
  delete(ids: readonly string[]): Promise<void>;
  /** Takes notifications out of the inbox until `until` (ms since the epoch). */
  snooze(ids: readonly string[], until: number): Promise<void>;
  /** Puts back what the action on offer changed. */
  undo(): Promise<void>;
  /** Offers the background's last action for undo, if it still can be; until `signal` aborts. */
  offerLastUndo(signal: AbortSignal): Promise<void>;
  /** Shows what waits in the outbox of the accounts on show, and what will not be sent, until `signal` aborts. */
  followOutbox(signal: AbortSignal): Promise<void>;
  markAllRead(): Promise<void>;
  deleteAll(): Promise<void>;
  /** Opens a row's link in a tab, and marks it read unless the person turned that off. */
  open(id: string, options?: { background?: boolean; single?: boolean }): Promise<void>;
}

/** How long the popup offers Undo after an action. */
export const UNDO_OFFER_MS = 10_000;

const MESSAGE = { markRead: 'inbox.markRead', markUnread: 'inbox.markUnread', delete: 'inbox.delete' } as const;

/** Delete and snooze take notifications out of the list; the others change them where they are. */
const takesOut = (action: TriageAction) => action === 'delete' || action === 'snooze';

/** Which items an action applies to: unread ones for mark read, read ones for mark unread. */
const applies = (action: TriageAction, item: Notification) =>
  takesOut(action) || item.read === (action === 'markUnread');

/**
 * Sends the change to the background: a snooze with its wake time, the others as they are. A
 * call that `join`s the one before is the same action on another account's items.
 */
function send(
  account: string,
  action: TriageAction,
  targets: readonly Notification[],
  until: number | undefined,
  join: boolean,
) {
  const ids = targets.map((item) => item.id);
  const unread = targets.filter((item) => !item.read).length;
  const also = join ? { join } : {};
  if (action === 'snooze') {
    return ask('inbox.snooze', { account, ids, until: new Date(until ?? 0).toISOString(), unread, ...also });
  }
  return ask(MESSAGE[action], { account, ids, unread, ...also });
}

/**
 * Tells the account's priority model what the person did to `items`, with when each arrived
 * (`lib/priority/model.ts`); nothing waits for it, and nothing the person sees depends on it.
 */
function learn(account: string, signal: Signal, items: readonly Notification[]): void {
  const about = items.map(({ actor, url, sortedAt }) => ({ actor: actor?.username ?? null, url, at: sortedAt }));
  void ask('priority.note', { account, signal, about }).catch(() => {});
}

/** The items by the account they belong to, in the order the accounts first appear. */
function byOwner(items: readonly Notification[], shown: string): Map<string, Notification[]> {
  const owners = new Map<string, Notification[]>();
  for (const item of items) {
    const owner = (item as Partial<InboxItem>).account ?? shown;
    owners.set(owner, [...(owners.get(owner) ?? []), item]);
  }
  return owners;
}

export function createTriage(cell: StateCell, paging: Paging, status: StatusTracking): Triage {
  const { get, set, setItems, changes } = cell;
  /** The items as they were before the action on offer, when it was taken in this popup. */
  let taken: { offer: UndoOffer; originals: readonly Notification[] } | null = null;
  let offerTimer: ReturnType<typeof setTimeout> | undefined;

  /** Shows the toast for an action, for 10 s or until the service stops taking its undo. */
  function offer(undo: UndoOffer | null, originals: readonly Notification[] | null): void {
    clearTimeout(offerTimer);
    taken = undo && originals ? { offer: undo, originals } : null;
    set(undo ? { undo, muteOffer: null } : { undo });
    if (!undo) return;
    offerTimer = setTimeout(
      () => {
        if (get().undo === undo) set({ undo: null });
      },
      Math.max(0, Math.min(UNDO_OFFER_MS, undo.expiresAt - Date.now())),
    );
  }

  /** Until when the popup shows the outbox: `followOutbox`'s signal. */
  let following: AbortSignal | null = null;

  /** Asks what waits in the outbox of the accounts on show. */
  async function loadOutbox(): Promise<void> {
    const account = get().account || ALL_ACCOUNTS;
    const outbox = await ask('outbox.state', { account }).catch(() => null);
    if (outbox && following && !following.aborted && (get().account || ALL_ACCOUNTS) === account) {
      set({ outbox, waiting: new Set(outbox.ids) });
    }
  }

  /** Notes that this popup changed the items, for pages requested before the change. */
  function record(action: TriageAction, ids: readonly string[], undone = false): void {
    for (const id of ids) {
      if (takesOut(action)) {
        if (undone) changes.deleted.delete(id);
        else changes.deleted.add(id);
      } else if ((action === 'markRead') !== undone) changes.read.add(id);
      else changes.read.delete(id);
    }
  }

  /** Says why `action` failed, in words that load with the first failure. */
  async function fail(action: TriageAction, error: unknown): Promise<void> {
    const { failureReason } = await loadFailureWords();
    set({ failure: cell.message(t(WORDS[action].failed, failureReason(reviveError(error), get().online))) });
  }

  /** After a failed change: puts `originals` back, and reselects those that were selected. */
  function rollBack(originals: readonly Notification[], selectionBefore: Selection): void {
    const { items, unreadOnly, selection } = get();
    const reselect = originals.filter((item) => selectionBefore.ids.has(item.id)).map((item) => item.id);
    setItems(restored(items, originals, paging.range(), unreadOnly), {
      selection: { ...selection, ids: new Set([...selection.ids, ...reselect]) },
    });
  }

  /** `learns`: the change is what the person did, not part of something else (the read an open makes). */
  async function change(action: TriageAction, ids: readonly string[], until?: number, learns = true): Promise<void> {
    const wanted = new Set(ids);
    const targets = get().items.filter((item) => wanted.has(item.id) && applies(action, item));
    if (targets.length === 0) {
      if (action === 'markRead') cell.announce(t('popup_already_read'));
      if (action === 'markUnread') cell.announce(t('popup_already_unread'));
      return;
    }
    const targetIds = targets.map((item) => item.id);
    const unread = targets.filter((item) => !item.read).length;
    // Mark unread raises the count by what it changes; the others lower it by the unread ones they take.
    const shift = action === 'markUnread' ? targets.length : -unread;
    const selectionBefore = get().selection;
    record(action, targetIds);
    setItems(triagedItems(get().items, action, targetIds, get().unreadOnly), { failure: null });
    status.shiftUnreadCount(shift);
    paging.refillIfEmpty();
    // Each account's items go to their own account; Undo puts back every part that went through.
    let result: TriageResult | null = null;
    const pending = byOwner(targets, get().account);
    try {
      for (const [account, items] of pending) {
        result = await send(account, action, items, until, result !== null);
        pending.delete(account);
        if (learns) learn(account, action, items);
      }
      const single = get().account !== ALL_ACCOUNTS;
      if (single) status.applyUnreadCount(result?.unreadCount ?? null);
      // The toast says it, in its own live region; without one, the announcement does.
      if (result?.waiting) void loadOutbox();
      if (result?.undo) offer(result.undo, targets);
      else {
        const wake = until === undefined ? undefined : new Date(until).toISOString();
        cell.announce(doneWords({ action, all: false, count: targets.length, until: wake }));
      }
    } catch (error) {
      const failed = [...pending.values()].flat();
      record(
        action,
        failed.map((item) => item.id),
        true,
      );
      rollBack(failed, selectionBefore);
      status.shiftUnreadCount(action === 'markUnread' ? -failed.length : failed.filter((item) => !item.read).length);
      if (result?.undo)
        offer(
          result.undo,
          targets.filter((item) => !failed.includes(item)),
        );
      await fail(action, error);
    }
  }

  async function undo(): Promise<void> {
    const { undo: onOffer, undoing } = get();
    if (!onOffer || undoing) return;
    const local = taken?.offer === onOffer ? taken.originals : null;
    set({ undoing: true, failure: null });
    try {
      const result = await ask('inbox.undo');
      offer(null, null);
      status.applyUnreadCount(result.unreadCount);
      if (local && !onOffer.all) {
        record(
          onOffer.action,
          local.map((item) => item.id),
          true,
        );
        setItems(restored(get().items, local, paging.range(), get().unreadOnly));
      } else {
        // Changes to pages not loaded here, or made in an earlier popup: the service's list is the truth.
        changes.deleted.clear();
        changes.read.clear();
        await paging.fetchFirst();
      }
      cell.announce(tn('popup_undone', result.count));
    } catch (error) {
      offer(null, null);
      const revived = reviveError(error);
      const words =
        revived instanceof UndoExpiredError
          ? t('popup_undo_expired')
          : t('popup_error_undo', (await loadFailureWords()).failureReason(revived, get().online));
      set({ failure: cell.message(words) });
    } finally {
      set({ undoing: false });
    }
  }

  /**
   * "Mark all read" and "delete all" change pages not loaded yet, so page loads under way are
   * dropped and no new one starts until the answer; a failure brings the list back as it was.
   */
  async function changeAll(action: 'markRead' | 'delete'): Promise<void> {
    const before = get();
    // "All" is the whole inbox of the account on show; with every account on show there is none.
    if (before.bulkPending || before.account === ALL_ACCOUNTS) return;
    const unread = before.status.count ?? before.items.filter((item) => !item.read).length;
    const resumePaging = paging.interrupt();
    const after = triagedPage({ data: before.items, cursor: before.cursor }, action, 'all', before.unreadOnly);
    setItems(after.data, { cursor: after.cursor, loading: null, bulkPending: true, failure: null });
    status.shiftUnreadCount(-unread);
    try {
      // Kept for later, it stays what the person saw, not whatever "all" is by then.
      const seen = before.items.map((item) => item.id);
      const result = await ask(MESSAGE[action], { account: before.account, ids: 'all', unread, seen });
      status.applyUnreadCount(result.unreadCount ?? 0);
      if (result.undo) offer(result.undo, before.items);
      else cell.announce(t(WORDS[action].doneAll));
      set({ bulkPending: false });
    } catch (error) {
      resumePaging();
      setItems(withoutIds(before.items, changes.deleted), {
        cursor: before.cursor,
        selection: before.selection,
        bulkPending: false,
      });
      status.shiftUnreadCount(unread);
      await fail(action, error);
    }
    if (!get().fresh) await paging.fetchFirst();
  }

  const markRead = (ids: readonly string[]) => change('markRead', ids);

  return {
    markRead,
    markUnread: (ids) => change('markUnread', ids),
    delete: (ids) => change('delete', ids),
    snooze: (ids, until) => change('snooze', ids, until),
    undo,
    async offerLastUndo(signal) {
      signal.addEventListener('abort', () => clearTimeout(offerTimer), { once: true });
      const last = await ask('inbox.lastUndo').catch(() => null);
      if (last && !signal.aborted && get().undo === null) offer(last, null);
    },
    async followOutbox(signal) {
      following = signal;
      onBroadcast('outbox.changed', () => void loadOutbox(), signal);
      // Another account on show, or its status changed (the service back): what waits may differ.
      let seen = [get().account, get().status] as const;
      const stop = cell.subscribe(({ account, status }) => {
        if (account === seen[0] && status === seen[1]) return;
        seen = [account, status];
        void loadOutbox();
      });
      signal.addEventListener('abort', stop, { once: true });
      await loadOutbox();
    },
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
      // Opening a group's row opens what all its members are about, and marks them all read.
      const { items, grouping, markReadOnOpen } = get();
      const ids = options.single ? [id] : withGroupMembers([id], items, grouping);
      const unread = items.some((other) => ids.includes(other.id) && !other.read);
      learn((item as Partial<InboxItem>).account ?? get().account, 'open', [item]);
      const marking = markReadOnOpen && unread ? change('markRead', ids, undefined, false) : null;
      try {
        await browser.tabs.create({ url, active: !options.background });
      } catch {
        set({ failure: cell.message(t('popup_error_open')) });
      }
      await marking;
    },
  };
}
