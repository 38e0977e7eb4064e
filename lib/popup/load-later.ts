/**
 * Code the popup loads once it is first needed rather than with its first screen, and the calls
 * made to it before it is there.
 */

/**
 * `load`, asked for at the first call and shared by every call after it. A load that fails is
 * asked for again by the next call: an extension updated while the popup was open has no old
 * chunk to load.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
}

type ArgsOf<T, K extends keyof T> = T[K] extends (...args: infer A) => unknown ? A : never;

/** Methods `names` of what `load` gives, callable before it has loaded: each call waits for it, in the order made. */
export function laterMethods<T, K extends keyof T>(
  load: () => Promise<T>,
  names: readonly K[],
): { [P in K]: (...args: ArgsOf<T, P>) => Promise<void> } {
  const later =
    (name: K) =>
    async (...args: ArgsOf<T, K>): Promise<void> => {
      await ((await load())[name] as (...args: ArgsOf<T, K>) => unknown)(...args);
    };
  return Object.fromEntries(names.map((name) => [name, later(name)])) as never;
}

/** The triage actions, by name, for those who hand them on before triage's code has loaded. */
export const TRIAGE_ACTIONS = [
  'markRead',
  'markUnread',
  'delete',
  'snooze',
  'undo',
  'offerLastUndo',
  'followOutbox',
  'markAllRead',
  'deleteAll',
  'open',
] as const;
