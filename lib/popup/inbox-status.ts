/**
 * The connection status and unread count as the popup shows them: the background's reports, and
 * the count moved at once by a change made here until the background reports its own.
 */
import type { ConnectionStatus } from '../messaging';
import type { Paging } from './inbox-paging';
import { needsSettings } from './inbox-problem-words';
import type { StateCell } from './inbox-state';

export interface StatusTracking {
  apply(status: ConnectionStatus): void;
  /** Takes the unread count the background answered a change with, when it knows one. */
  applyUnreadCount(count: number | null): void;
  /** Moves the unread count shown by a change made here. */
  shiftUnreadCount(by: number): void;
}

export function createStatusTracking({ get, set }: StateCell, paging: Paging): StatusTracking {
  function applyUnreadCount(count: number | null): void {
    if (count !== null) set({ status: { ...get().status, count } });
  }

  return {
    apply(status) {
      const before = get().status;
      const newProblem = needsSettings(status.kind) && status.kind !== before.kind;
      set({ status, verified: newProblem ? false : get().verified });
      const solved = needsSettings(before.kind) && !needsSettings(status.kind);
      const { loading, fresh, error } = get();
      if (solved && loading === null && (!fresh || error)) void paging.fetchFirst();
    },
    applyUnreadCount,
    shiftUnreadCount(by) {
      const count = get().status.count;
      if (count !== null && by !== 0) applyUnreadCount(Math.max(0, count + by));
    },
  };
}
