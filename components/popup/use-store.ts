import { useLayoutEffect, useState } from 'preact/hooks';

interface Store<State> {
  getState(): State;
  subscribe(listener: (state: State) => void): () => void;
}

/** The store's state, re-rendering on every change. */
export function useStoreState<State>(store: Store<State>): State {
  const [state, setState] = useState(store.getState);
  // Listening from the first commit, not after the first paint: the cached page read meanwhile
  // is then in the popup's first frame instead of the one after.
  useLayoutEffect(() => {
    setState(store.getState());
    return store.subscribe(setState);
  }, [store]);
  return state;
}

export const useInboxState = useStoreState;
