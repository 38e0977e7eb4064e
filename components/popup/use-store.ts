import { useEffect, useState } from 'preact/hooks';
import type { InboxState, InboxStore } from '../../lib/popup/inbox-store';

/** The store's state, re-rendering on every change. */
export function useInboxState(store: InboxStore): InboxState {
  const [state, setState] = useState(store.getState);
  useEffect(() => {
    setState(store.getState());
    return store.subscribe(setState);
  }, [store]);
  return state;
}
