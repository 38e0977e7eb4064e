/**
 * The popup's inbox: the loaded notifications, paging, selection and triage, with every change
 * shown at once and rolled back if the background reports a failure. It talks to the background
 * only through `ask` and reads the cached first page and settings from storage, so it paints
 * before any network answer. The UI renders its state and calls its actions; nothing here
 * touches the DOM. Each part lives in its own module: `inbox-paging`, `inbox-triage`,
 * `inbox-selection`, `inbox-status` and `inbox-arrivals`, sharing the state cell of `inbox-state`.
 * This module holds what the first screen needs to take input (its state, selection and the
 * groups shown open); everything that needs the background is in `inbox-live`, loaded behind it.
 */
import type { StoredReader } from '../stored';
import { failureWords } from './failure-words';
import type { FirstScreen } from './first-screen-state';
import type { InboxStore, LiveInbox } from './inbox-actions';
import { paintCached } from './inbox-list';
import { inboxProblem, shownProblem } from './inbox-problem-words';
import { createSelectionActions } from './inbox-selection';
import { createStateCell } from './inbox-state';
import { laterMethods, loadOnce, TRIAGE_ACTIONS } from './load-later';

export type { InboxStore, LiveInbox } from './inbox-actions';
export { commandTargets } from './inbox-selection';
export type { InboxState, Message } from './inbox-state';

/**
 * `firstRead`: storage as read for the first row, when the page started reading it before it
 * rendered anything (see `snapshotStored`); otherwise `start` reads it. `firstScreen`: what was
 * read from it for the first screen already painted, which the store then starts from, so its
 * first render shows the same.
 */
export function createInboxStore(firstRead?: Promise<StoredReader>, firstScreen?: FirstScreen): InboxStore {
  const cell = createStateCell();
  const { get, set } = cell;
  if (firstScreen) {
    set(firstScreen.state);
    if (firstScreen.cached) paintCached(cell, firstScreen.cached);
  }
  // What needs the background loads behind the first screen (`start` asks for it at once); an
  // action asked for before it is there waits for it, each in the order it was asked.
  const loadLive = loadOnce(() =>
    // Three parts, loaded side by side.
    Promise.all([import('./inbox-live'), import('./inbox-paging'), import('./inbox-arrivals')]).then(
      ([module, { createPaging }, { createArrivals }]) =>
        module.createLiveInbox(cell, { createPaging, createArrivals, firstRead, firstScreen }),
    ),
  );
  const later = <K extends keyof LiveInbox>(name: K) => laterMethods(loadLive, [name])[name];
  const loadMore = later('loadMore');
  const retry = later('retry');

  return {
    getState: get,
    subscribe: cell.subscribe,
    start: later('start'),
    setAccount: later('setAccount'),
    setPriority: later('setPriority'),
    setOnline(online) {
      if (online === get().online) return;
      set({ online });
      if (online && get().error) void retry();
    },
    setUnreadOnly: later('setUnreadOnly'),
    setTypes: later('setTypes'),
    search: (text) => void later('search')(text),
    mute: later('mute'),
    setExpanded(key, expanded) {
      const next = new Set(get().expanded);
      if (expanded) next.add(key);
      else next.delete(key);
      set({ expanded: next });
    },
    cameBack: later('cameBack'),
    retry,
    loadMore,
    ...createSelectionActions(cell, loadMore),
    ...laterMethods(loadLive, TRIAGE_ACTIONS),
    showArrived: later('showArrived'),
    dismissFailure() {
      set({ failure: null });
    },
    // A failure shows once its words have loaded (`loadFailureWords`), so they are here for it.
    problem: ({ status, verified, error, errorOn, online }) =>
      shownProblem(
        { status, verified, error: errorOn === 'first' ? error : null, online },
        (failed) => failureWords()?.problemFromError(failed, status, online) ?? inboxProblem('failed'),
      ),
    loadMoreFailure: ({ error, errorOn, online }) =>
      errorOn === 'more' && error ? (failureWords()?.failureReason(error, online) ?? null) : null,
  };
}
