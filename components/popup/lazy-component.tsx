import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * A component whose code loads the first time it is rendered, so what the popup needs for its
 * first row does not carry it. Nothing shows until the code is there, which is a moment after
 * the person asked for it; once loaded it renders at once everywhere.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<unknown> | null = null;
  return function Lazy(props: P) {
    const [, setReady] = useState(loaded !== null);
    useEffect(() => {
      if (loaded) return;
      let current = true;
      loading ??= load().then((component) => {
        loaded = component;
      });
      loading.then(
        () => current && setReady(true),
        () => {
          // An extension updated while the popup was open has no old chunk to load; try again next time.
          loading = null;
        },
      );
      return () => {
        current = false;
      };
    }, []);
    const Component = loaded;
    return Component ? <Component {...props} /> : null;
  };
}
