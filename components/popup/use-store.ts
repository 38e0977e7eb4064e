import { useLayoutEffect, useState } from 'preact/hooks';
import type { InboxState, InboxStore } from '../../lib/popup/inbox-store';

/** The store's state, re-rendering on every change. */
export function useInboxState(store: InboxStore): InboxState {
  const [state, setState] = useState(store.getState);
  // Listening from the first commit, not after the first paint: the cached page read meanwhile
  // is then in the popup's first frame instead of the one after.
  useLayoutEffect(() => {
    setState(store.getState());
    return store.subscribe(setState);
  }, [store]);
  return state;
}
