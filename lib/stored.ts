/**
 * Values in the extension's storage, read, written and watched straight through the browser's
 * API. This stands in for WXT's storage, which cost about 2.6 kB gzip in every bundle that loaded
 * it (`npm run bench`, size): 2,674 B of the popup's first load, 2,555 B of the background, 2,679 B
 * of the options page, which put the popup's first row and the background over their budgets.
 * Keys are named as WXT's storage names them (`local:name` is `name` in `storage.local`), so the
 * values stored by earlier versions read the same. Nothing stored reads as the fallback; writing
 * null removes the value. `sync:` keys live in `storage.sync`, which the browser carries to the
 * person's other computers where they are signed in to it.
 */
import { browser } from 'wxt/browser';

type Area = 'local' | 'session' | 'sync';

export interface StoredKey<T> {
  readonly key: `${Area}:${string}`;
  readonly fallback: T;
}

export const storedKey = <T>(key: StoredKey<T>['key'], fallback: T): StoredKey<T> => ({ key, fallback });

const where = (stored: StoredKey<unknown>) => {
  const [area, name] = stored.key.split(/:(.*)/s) as [Area, string];
  return { area: browser.storage[area], name };
};

type Values<Keys extends readonly StoredKey<unknown>[]> = { [I in keyof Keys]: Keys[I]['fallback'] };

/** The values under the keys, read in one call per storage area. */
export async function readStored<const Keys extends readonly StoredKey<unknown>[]>(
  ...keys: Keys
): Promise<Values<Keys>> {
  const places = keys.map(where);
  const areas = [...new Set(places.map((place) => place.area))];
  const found = await Promise.all(
    areas.map((area) => area.get(places.filter((place) => place.area === area).map((place) => place.name))),
  );
  return places.map(
    ({ area, name }, index) => found[areas.indexOf(area)]?.[name] ?? (keys[index] as StoredKey<unknown>).fallback,
  ) as Values<Keys>;
}

/** Reads one value, from storage or from what was read of it before. */
export type StoredReader = <T>(stored: StoredKey<T>) => T | Promise<T>;

export const readOne: StoredReader = async (stored) => (await readStored(stored))[0];

/**
 * Everything in `storage.local` as it is now, read in one call: for a page that needs many values,
 * some named by others (each account's), before it can paint, where each call costs a round trip.
 */
export async function snapshotStored(): Promise<StoredReader> {
  const all = await browser.storage.local.get(null);
  return <T>(stored: StoredKey<T>) =>
    stored.key.startsWith('local:') ? ((all[where(stored).name] as T | undefined) ?? stored.fallback) : readOne(stored);
}

const inKeyOrder = (_key: string, value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((key) => [key, (value as Record<string, unknown>)[key]]),
      )
    : value;

/**
 * A value's text as storage keeps it. Chrome gives an object back with its keys in order, not in
 * the order they were written: two values are the same when their texts are.
 */
export const storedText = (value: unknown): string | undefined => JSON.stringify(value, inKeyOrder);

export async function writeStored<T>(stored: StoredKey<T>, value: T | null): Promise<void> {
  const { area, name } = where(stored);
  if (value === null || value === undefined) await area.remove(name);
  else await area.set({ [name]: value });
}

/**
 * Calls `listener` with each new value under the key and the one before (the fallback where
 * there is none), until `signal` aborts; a write of the same value is no change.
 */
export function watchStored<T>(
  stored: StoredKey<T>,
  listener: (value: T, previous: T) => void,
  signal: AbortSignal,
): void {
  if (signal.aborted) return;
  const { area, name } = where(stored);
  const onChanged = (changes: Record<string, { newValue?: unknown; oldValue?: unknown }>) => {
    const change = changes[name];
    if (!change || storedText(change.newValue) === storedText(change.oldValue)) return;
    listener((change.newValue ?? stored.fallback) as T, (change.oldValue ?? stored.fallback) as T);
  };
  area.onChanged.addListener(onChanged);
  signal.addEventListener('abort', () => area.onChanged.removeListener(onChanged), { once: true });
}

/** Calls `listener` with the value under the key now, then as `watchStored` does, until `signal` aborts. */
export function followStored<T>(stored: StoredKey<T>, listener: (value: T) => void, signal: AbortSignal): void {
  let changed = false;
  watchStored(
    stored,
    (value) => {
      changed = true;
      listener(value);
    },
    signal,
  );
  void readStored(stored).then(([value]) => {
    // A change heard while reading is newer than what was read.
    if (!changed && !signal.aborted) listener(value);
  });
}

/** A key with its reading, writing and watching at hand, for code that keeps coming back to one value. */
export interface StoredItem<T> extends StoredKey<T> {
  getValue(): Promise<T>;
  setValue(value: T): Promise<void>;
  removeValue(): Promise<void>;
  watch(listener: (value: T, previous: T) => void, signal: AbortSignal): void;
}

export function storedItem<T>(stored: StoredKey<T>): StoredItem<T> {
  return {
    ...stored,
    getValue: async () => readOne(stored),
    setValue: (value) => writeStored(stored, value),
    removeValue: () => writeStored(stored, null),
    watch: (listener, signal) => watchStored(stored, listener, signal),
  };
}
