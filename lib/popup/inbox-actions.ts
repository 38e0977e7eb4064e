/**
 * What the popup's inbox does, as its components call it (`InboxStore`), and the part of that
 * which needs the background (`LiveInbox`): the store (`inbox-store`) does the rest itself and
 * loads the part that does this (`inbox-live`) behind the first screen.
 */
import type { NotificationType } from '../api/contract';
import type { Arrivals } from './inbox-arrivals';
import type { Muting } from './inbox-mutes';
import type { InboxProblem } from './inbox-problem-words';
import type { SelectionActions } from './inbox-selection';
import type { InboxState } from './inbox-state';
import type { Triage } from './inbox-triage';

export interface InboxStore extends SelectionActions, Triage, Pick<Arrivals, 'showArrived'> {
  getState(): InboxState;
  subscribe(listener: (state: InboxState) => void): () => void;
  /** Paints the cached first page, then revalidates it, watching the status until `signal` aborts. */
  start(signal: AbortSignal): Promise<void>;
  setOnline(online: boolean): void;
  setUnreadOnly(unreadOnly: boolean): Promise<void>;
  setTypes(types: readonly NotificationType[] | null): Promise<void>;
  /** The search box now holds `text`: the list follows once typing pauses. */
  search(text: string): void;
  /** Mutes the person or thread of row `id`, until `until` (ms since the epoch) or, null, until removed. */
  mute: Muting['mute'];
  /** Shows one account's inbox, or all accounts' (`ALL_ACCOUNTS`). */
  setAccount(account: string): Promise<void>;
  /** Shows the priority notifications only, each saying why (the Priority view), or the whole inbox again. */
  setPriority(on: boolean): Promise<void>;
  /** Shows a group's members, or hides them again. */
  setExpanded(key: string, expanded: boolean): void;
  /**
   * Notifications came back to the inbox from elsewhere (unsnoozed): whatever this popup did to
   * them before no longer holds, and the first page and the status load again.
   */
  cameBack(ids: readonly string[]): Promise<void>;
  /** Loads again what failed: the first page, or the next one. */
  retry(): Promise<void>;
  loadMore(): Promise<void>;
  dismissFailure(): void;
  /** The problem to show for `state`, or null when the inbox can be shown as it is. */
  problem(state: InboxState): InboxProblem | null;
  /** Why the next page of `state` failed to load, in a sentence; null when it did not fail. */
  loadMoreFailure(state: InboxState): string | null;
}

/** The store's actions that need the background. */
export type LiveInbox = Omit<
  InboxStore,
  | keyof SelectionActions
  | 'getState'
  | 'subscribe'
  | 'setExpanded'
  | 'setOnline'
  | 'dismissFailure'
  | 'problem'
  | 'loadMoreFailure'
>;
