/**
 * The words of triage: what each action did, or failed to do. The undo toast shows them without
 * loading the triage code itself, which the popup loads when the person first acts.
 */
import { t, tn, uiLanguage } from '../i18n';
import type { UndoOffer } from '../messaging';
import { currentTimeZone, wakeLabel } from '../wake-label';

export const WORDS = {
  markRead: { done: 'popup_marked_read', doneAll: 'popup_all_marked_read', failed: 'popup_error_mark_read' },
  markUnread: { done: 'popup_marked_unread', doneAll: null, failed: 'popup_error_mark_unread' },
  delete: { done: 'popup_deleted', doneAll: 'popup_all_deleted', failed: 'popup_error_delete' },
  snooze: { done: 'popup_snoozed', doneAll: null, failed: 'popup_error_snooze' },
} as const;

/**
 * What an action did, in words: the toast's, or the announcement's when it offers no undo. An
 * action on a whole inbox names its account when the person has several.
 */
export function doneWords(
  done: Pick<UndoOffer, 'action' | 'all' | 'count' | 'until'>,
  now = Date.now(),
  account: string | null = null,
): string {
  const words = WORDS[done.action];
  if (done.all && words.doneAll) return account ? t(`${words.doneAll}_of`, account) : t(words.doneAll);
  if (done.action === 'snooze' && done.until) {
    const wake = wakeLabel(Date.parse(done.until), now, currentTimeZone(), uiLanguage());
    return tn('popup_snoozed', done.count, wake);
  }
  return tn(words.done, done.count);
}
