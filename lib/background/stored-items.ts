/**
 * The values the background keeps for every context to read, as items defined from the keys
 * their modules name. Only the background writes and watches through these; the extension's pages
 * read the same keys through `lib/stored.ts` directly.
 */
import { ACCOUNTS, perAccountKey } from '../accounts';
import { accountLiveModeKey, accountStatusKey, LIVE_MODE, STATUS } from '../connection-status';
import { unreadByTypeKey } from '../inbox-filter';
import { priorityKey } from '../priority/model';
import { getSettings, SETTINGS, type Settings } from '../settings';
import { type StoredItem, type StoredKey, type StoredReader, storedItem, storedText } from '../stored';

/** What the kept items are kept for, until it aborts (see `keepInMemory`). */
let keeping: AbortSignal | undefined;

/**
 * From now until `signal` aborts, the kept items are read from storage once and then from the
 * worker's memory, which their writes and a watch on each key keep current: a message reads the
 * accounts and their status without a round trip to the browser for each.
 */
export function keepInMemory(signal: AbortSignal): void {
  keeping = signal;
}

const keptItems = new Map<string, StoredItem<unknown>>();

/**
 * An item read from memory while the worker keeps it (see `keepInMemory`), one per key. A write
 * of the value in memory writes nothing. A change written elsewhere comes in through the watch;
 * this worker's own come back through it too, known by their value, so one that comes back late
 * cannot put an older value over a newer.
 */
function keptItem<T>(stored: StoredKey<T>): StoredItem<T> {
  const found = keptItems.get(stored.key) as StoredItem<T> | undefined;
  if (found) return found;
  const item = storedItem(stored);
  let keptFor: AbortSignal | undefined;
  let value: Promise<T> | undefined;
  /** The values written here whose change has not come back through the watch yet, as `storedText`. */
  let echoes: string[] = [];
  /** The last write on its way to storage: the next waits for it. */
  let writing: Promise<unknown> = Promise.resolve();
  /**
   * Who watches the item while it is kept: told of a change only once the memory holds it, so a
   * listener that reads the item (the accounts' watch syncs the runtimes) reads the new value.
   */
  const listeners = new Set<(value: T, previous: T) => void>();
  const keep = (signal: AbortSignal): Promise<T> => {
    if (keptFor !== signal) {
      keptFor = signal;
      echoes = [];
      value = undefined;
      item.watch((next, previous) => {
        const at = echoes.indexOf(storedText(next) ?? '');
        if (keptFor !== signal) return;
        if (at < 0) value = Promise.resolve(next);
        echoes.splice(0, at + 1);
        for (const listener of listeners) listener(next, previous);
      }, signal);
    }
    if (!value) {
      const reading = item.getValue();
      value = reading;
      // A read that failed is not kept (storage.sync can be unavailable for a while): the next reader tries again.
      reading.catch(() => {
        if (value === reading) value = undefined;
      });
    }
    return value;
  };
  const kept: StoredItem<T> = {
    ...item,
    getValue: () => (keeping?.aborted === false ? keep(keeping) : item.getValue()),
    // The memory holds the new value from the call on, before any await: a reader started just
    // after it (the badge, drawn while the value is stored) reads the new value. The writes reach
    // storage in the order they were made, so storage ends on the value the memory holds.
    setValue(next) {
      if (keeping?.aborted !== false) return item.setValue(next);
      const before = keep(keeping);
      const text = storedText(next ?? stored.fallback) ?? '';
      value = Promise.resolve(next ?? stored.fallback);
      const write = writing.then(async () => {
        if (storedText(await before) === text) return;
        if (echoes.push(text) > 20) echoes.shift();
        await item.setValue(next);
      });
      writing = write.catch(() => undefined);
      return write;
    },
    removeValue: () => kept.setValue(null as T),
    watch(listener, signal) {
      if (keeping?.aborted !== false) return item.watch(listener, signal);
      void keep(keeping);
      listeners.add(listener);
      signal.addEventListener('abort', () => listeners.delete(listener), { once: true });
    },
  };
  keptItems.set(stored.key, kept as StoredItem<unknown>);
  return kept;
}

/** The items of a value of one account's own (see `perAccountKey`). */
export const perAccountItem =
  <T>(keyOf: (accountId: string) => StoredKey<T>) =>
  (accountId: string): StoredItem<T> =>
    storedItem(keyOf(accountId));

/** The same, read from the worker's memory while it keeps items (see `keptItem`). */
export const perAccountKeptItem =
  <T>(keyOf: (accountId: string) => StoredKey<T>) =>
  (accountId: string): StoredItem<T> =>
    keptItem(keyOf(accountId));

/**
 * A value of this worker's own that lasts as long as what it keeps (see `keepInMemory`): made
 * afresh by `fresh` whenever the worker starts keeping again, and each time while it does not.
 */
export function workerMemory<T>(fresh: () => T): () => T {
  let held: { for: AbortSignal; value: T } | undefined;
  return () => {
    if (keeping?.aborted !== false) return fresh();
    if (held?.for !== keeping) held = { for: keeping, value: fresh() };
    return held.value;
  };
}

export const settingsItem = keptItem(SETTINGS);
const keptReader: StoredReader = (stored) => keptItem(stored).getValue();

/**
 * The settings made whole, from the worker's memory while it keeps items: this computer's and the
 * synced ones are each read once, and a change made elsewhere (the options page, the popup,
 * another computer) comes in through their watch, so the next message reads it.
 */
export const workerSettings = (): Promise<Settings> => getSettings(keptReader);
export const accountsItem = keptItem(ACCOUNTS);
export const statusItem = keptItem(STATUS);
export const liveModeItem = keptItem(LIVE_MODE);
export const accountStatusItem = (accountId: string) => keptItem(accountStatusKey(accountId));
export const accountLiveModeItem = (accountId: string) => keptItem(accountLiveModeKey(accountId));
export const unreadByTypeItem = perAccountItem(unreadByTypeKey);
/** Each account's priority model (see `lib/priority/model.ts`). */
export const priorityItem = perAccountKeptItem(priorityKey);

/**
 * The account's newest unread notifications, who each is from and its link, as the badge counts
 * the priority ones of them; taken at the unread count `of`, `complete` when that was all of them.
 */
export interface UnreadSample {
  of: number;
  about: [actor: string | null, url: string | null][];
  complete: boolean;
}

export const unreadSampleItem = perAccountKeptItem(perAccountKey<UnreadSample | null>('priorityUnread', null));
