/**
 * Muting from the popup: a person or a thread leaves the list at once with the count, the
 * background asks the service, and the toast offers Undo, which removes the mute. A failure puts
 * the rows and the count back. Loaded with the mute menu, not for the first row.
 */
import type { Notification } from '../api/contract';
import { reviveError } from '../api/errors';
import { t } from '../i18n';
import { ALL_ACCOUNTS, ask, type InboxItem } from '../messaging';
import { type MuteTarget, mutedBy } from '../mute-target';
import { loadFailureWords } from './failure-words';
import { restored } from './inbox-list';
import type { Paging } from './inbox-paging';
import type { MuteOffer, StateCell } from './inbox-state';
import type { StatusTracking } from './inbox-status';
import { UNDO_OFFER_MS } from './inbox-triage';

export interface Muting {
  /** Mutes the target of the row `id` belongs to, until `until` (ms since the epoch) or, null, until removed. */
  mute(id: string, target: MuteTarget, until: number | null): Promise<void>;
  /** Removes the mute on offer and puts its rows back. */
  undo(): Promise<void>;
}

export function createMuting(cell: StateCell, paging: Paging, status: StatusTracking): Muting {
  const { get, set, setItems, changes } = cell;
  let offerTimer: ReturnType<typeof setTimeout> | undefined;

  function offer(muteOffer: MuteOffer | null): void {
    clearTimeout(offerTimer);
    // One toast at a time: the newest action is the one Undo takes back.
    set(muteOffer ? { muteOffer, undo: null } : { muteOffer });
    if (muteOffer)
      offerTimer = setTimeout(() => get().muteOffer === muteOffer && set({ muteOffer: null }), UNDO_OFFER_MS);
  }

  function putBack(originals: readonly Notification[]): void {
    for (const item of originals) changes.deleted.delete(item.id);
    setItems(restored(get().items, originals, paging.range(), get().unreadOnly));
    status.shiftUnreadCount(originals.filter((item) => !item.read).length);
  }

  return {
    async mute(id, target, until) {
      const row = get().items.find((item) => item.id === id);
      if (!row) return;
      const account = (row as Partial<InboxItem>).account ?? get().account;
      const belongs = (item: Notification) => ((item as Partial<InboxItem>).account ?? get().account) === account;
      const originals = get().items.filter((item) => belongs(item) && mutedBy(item, target));
      for (const item of originals) changes.deleted.add(item.id);
      setItems(
        get().items.filter((item) => !originals.includes(item)),
        { failure: null },
      );
      status.shiftUnreadCount(-originals.filter((item) => !item.read).length);
      paging.refillIfEmpty();
      try {
        const end = until === null ? null : new Date(until).toISOString();
        const result = await ask('inbox.mute', { account, target, until: end });
        if (get().account !== ALL_ACCOUNTS) status.applyUnreadCount(result.unreadCount);
        const text = 'actor' in target ? t('popup_muted_actor', target.actor) : t('popup_muted_thread');
        offer({ account, id: result.mute.id, text, originals });
      } catch (error) {
        putBack(originals);
        const { failureReason } = await loadFailureWords();
        set({ failure: cell.message(t('popup_error_mute', failureReason(reviveError(error), get().online))) });
      }
    },
    async undo() {
      const onOffer = get().muteOffer;
      if (!onOffer || get().undoing) return;
      set({ undoing: true, failure: null });
      try {
        const { unreadCount } = await ask('inbox.unmute', { account: onOffer.account, id: onOffer.id });
        offer(null);
        putBack(onOffer.originals);
        if (get().account !== ALL_ACCOUNTS) status.applyUnreadCount(unreadCount);
        cell.announce(t('popup_unmuted'));
      } catch (error) {
        offer(null);
        const { failureReason } = await loadFailureWords();
        set({ failure: cell.message(t('popup_error_undo', failureReason(reviveError(error), get().online))) });
      } finally {
        set({ undoing: false });
      }
    },
  };
}
