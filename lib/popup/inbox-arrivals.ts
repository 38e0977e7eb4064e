/**
 * Notifications the live channel brings while the popup is open: counted for an "N new" offer
 * instead of being put into the list, so no row moves under the person's pointer; loading them
 * is the person's choice.
 */
import { onBroadcast } from '../messaging/on-broadcast';
import type { Paging } from './inbox-paging';
import type { StateCell } from './inbox-state';

export interface Arrivals {
  /** Listens to the background until `signal` aborts. */
  listen(signal: AbortSignal): void;
  /** Loads the newest page again, with the notifications that arrived since the popup opened. */
  showArrived(): Promise<void>;
}

export function createArrivals(cell: StateCell, paging: Paging): Arrivals {
  const { get, set, changes } = cell;

  function note(ids: readonly string[]): void {
    const known = new Set([...get().items.map((item) => item.id), ...get().arrived, ...changes.deleted]);
    const fresh = ids.filter((id) => !known.has(id));
    if (fresh.length > 0) set({ arrived: [...fresh, ...get().arrived] });
  }

  // Once the list shows an arrival, by any load, it is no longer new.
  cell.subscribe((state) => {
    if (state.arrived.length === 0) return;
    const shown = new Set(state.items.map((item) => item.id));
    if (state.arrived.some((id) => shown.has(id))) set({ arrived: state.arrived.filter((id) => !shown.has(id)) });
  });

  return {
    listen(signal) {
      onBroadcast('inbox.arrived', ({ ids }) => note(ids), signal);
    },
    async showArrived() {
      const state = get();
      if (state.arrived.length === 0 || state.loading === 'first' || state.bulkPending) return;
      await paging.fetchFirst();
    },
  };
}
