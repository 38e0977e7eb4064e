/**
 * The popup inbox's state and the one place that changes it: every part of the store (paging,
 * triage, selection, status) reads and writes through this cell, and listeners see each change.
 */
import type { ByType, Notification, NotificationType } from '../api/contract';
import type { ApiError } from '../api/errors';
import { SIGNED_OUT } from '../connection-status';
import type { ConnectionStatus, OutboxState, UndoOffer } from '../messaging';
import type { Density } from '../settings';
import type { Grouping } from './inbox-groups';
import { type LocalChanges, survivingNeighbour } from './inbox-list';
import { NO_SELECTION, pruned, type Selection } from './selection';

/** A sentence for the live region; `id` changes even when the words repeat, so it is read again. */
export interface Message {
  text: string;
  id: number;
}

/** A mute the popup made, and what Undo needs to take it back. */
export interface MuteOffer {
  account: string;
  id: string;
  /** What the toast says. */
  text: string;
  /** The rows it took out, to put back on Undo. */
  originals: readonly Notification[];
}

/** The Priority view's: why a notification is priority, in one short line; null when it is not. */
export interface PriorityLens {
  reason(item: Notification): string | null;
}

/** An account as the switcher shows it. */
export interface AccountTab {
  id: string;
  /** `@name`, or the site's host while the name is not known. */
  label: string;
  /** The site's host, told apart when two accounts share a name. */
  host: string;
  siteOrigin: string;
  status: ConnectionStatus;
}

export interface InboxState {
  /** Settings, status and cache have been read; before that there is nothing to show. */
  started: boolean;
  unreadOnly: boolean;
  /** Every account, in the order they were added; the switcher shows when there are several. */
  accounts: readonly AccountTab[];
  /** The account whose inbox is on show, `ALL_ACCOUNTS` for all of them; empty while there is none. */
  account: string;
  /** The types the list shows; null for all. */
  types: readonly NotificationType[] | null;
  /** The words the list is searched for; empty for no search. */
  query: string;
  /** The list shows the priority notifications only, as the Priority view does; null for all. */
  priority: PriorityLens | null;
  /** The services on show have mutes, the strangers policy and search; false until known. */
  canMute: boolean;
  /** The mute just made, offered for undo while its toast shows. */
  muteOffer: MuteOffer | null;
  /** The unread notifications of each type of the account on show (summed over all for all), as last said. */
  byType: ByType | null;
  /** Neighbours about the same thing show as one row (see `inbox-groups`). */
  grouping: Grouping;
  /** Keys of the groups shown with their members. */
  expanded: ReadonlySet<string>;
  /** Opening a notification marks it read. */
  markReadOnOpen: boolean;
  /** How much room each row takes (see `Settings.density`). */
  density: Density;
  /** The site's origin of that account: a link elsewhere shows its host in the row. */
  siteOrigin: string;
  items: readonly Notification[];
  /** The service's cursor for the next page; null when no further page exists. */
  cursor: string | null;
  /** The service has answered the first page in this popup; until then `items` is the cached copy. */
  fresh: boolean;
  /** When the cached first page on show was saved, while it is not yet confirmed. */
  cachedAt: number | null;
  loading: 'first' | 'more' | null;
  /** The last page load's failure, until a load succeeds. */
  error: ApiError | null;
  /** Which load failed: the first page (the list may be the cached copy) or the next one. */
  errorOn: 'first' | 'more' | null;
  status: ConnectionStatus;
  /** A page arrived since the status last reported a problem only the settings page can solve. */
  verified: boolean;
  online: boolean;
  selection: Selection;
  /** The item keyboard commands act on and focus returns to. */
  activeId: string | null;
  /** A change to "mark all read" or "delete all" is on its way. */
  bulkPending: boolean;
  /** The last action, offered for undo while the toast shows. */
  undo: UndoOffer | null;
  /** An undo is on its way. */
  undoing: boolean;
  announcement: Message | null;
  /** Why the last action failed, until dismissed or another action succeeds. */
  failure: Message | null;
  /** Ids of notifications the live channel brought that the list does not show yet, newest first. */
  arrived: readonly string[];
  /** Changes of the accounts on show waiting to be sent, and those that will not be; null until asked. */
  outbox: OutboxState | null;
  /** The notifications those waiting changes name: their rows say so. */
  waiting: ReadonlySet<string>;
}

export const INITIAL_STATE: InboxState = Object.freeze({
  started: false,
  unreadOnly: false,
  accounts: [],
  account: '',
  types: null,
  query: '',
  priority: null,
  canMute: false,
  muteOffer: null,
  byType: null,
  grouping: true,
  expanded: new Set<string>(),
  markReadOnOpen: true,
  density: 'compact',
  siteOrigin: '',
  items: [],
  cursor: null,
  fresh: false,
  cachedAt: null,
  loading: null,
  error: null,
  errorOn: null,
  status: SIGNED_OUT,
  verified: false,
  online: true,
  selection: NO_SELECTION,
  activeId: null,
  bulkPending: false,
  undo: null,
  undoing: false,
  announcement: null,
  failure: null,
  arrived: [],
  outbox: null,
  waiting: new Set<string>(),
});

export interface StateCell {
  get(): InboxState;
  set(change: Partial<InboxState>): void;
  /** Changes the list, keeping the selection and the active item sensible for what is left. */
  setItems(items: readonly Notification[], change?: Partial<InboxState>): void;
  subscribe(listener: (state: InboxState) => void): () => void;
  /** A new sentence for the live region. */
  message(text: string): Message;
  announce(text: string): void;
  /** Items deleted or marked read in this popup, which pages requested earlier do not know of yet. */
  changes: { deleted: Set<string>; read: Set<string> } & LocalChanges;
}

export function createStateCell(): StateCell {
  let state = INITIAL_STATE;
  const listeners = new Set<(state: InboxState) => void>();
  let messageId = 0;

  function set(change: Partial<InboxState>): void {
    state = { ...state, ...change };
    for (const listener of listeners) listener(state);
  }

  const message = (text: string): Message => ({ text, id: ++messageId });

  return {
    get: () => state,
    set,
    setItems(items, change = {}) {
      set({
        ...change,
        items,
        selection: pruned(change.selection ?? state.selection, items),
        activeId: survivingNeighbour(state.items, items, state.activeId),
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    message,
    announce: (text) => set({ announcement: message(text) }),
    changes: { deleted: new Set(), read: new Set() },
  };
}
