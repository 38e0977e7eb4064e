/**
 * The values the background keeps for every context to read, as items defined from the keys
 * their modules name. Only the background writes and watches through these; the extension's pages
 * read the same keys through `lib/stored.ts` directly.
 */
import { ACCOUNTS } from '../accounts';
import { accountLiveModeKey, accountStatusKey, LIVE_MODE, STATUS } from '../connection-status';
import { unreadByTypeKey } from '../inbox-filter';
import { SETTINGS } from '../settings';
import { type StoredItem, type StoredKey, storedItem } from '../stored';

interface Memory {
  signal: AbortSignal;
  values: Map<string, Promise<unknown>>;
  /** Per key, the values this worker wrote whose change has not come back through the watch yet. */
  echoes: Map<string, string[]>;
}

let memory: Memory | null = null;

/**
 * From now until `signal` aborts, the kept items are read from storage once and then from the
 * worker's memory, which their writes and a watch on each key keep current: a message reads the
 * accounts and their status without a round trip to the browser for each.
 */
export function keepInMemory(signal: AbortSignal): void {
  const mine: Memory = { signal, values: new Map(), echoes: new Map() };
  memory = mine;
  signal.addEventListener(
    'abort',
    () => {
      if (memory === mine) memory = null;
    },
    { once: true },
  );
}

/**
 * An item read from memory while the worker keeps it (see `keepInMemory`). A write of the value
 * in memory writes nothing. A change written elsewhere comes in through the watch; this worker's
 * own come back through it too, known by their value, so one that comes back late cannot put an
 * older value over a newer.
 */
function keptItem<T>(stored: StoredKey<T>): StoredItem<T> {
  const item = storedItem(stored);
  const { key, fallback } = stored;
  /** Starts keeping the key: its watch, once, and its value as read now unless one is known. */
  const keep = (mine: Memory) => {
    if (!mine.echoes.has(key)) {
      mine.echoes.set(key, []);
      mine.values.set(key, item.getValue());
      item.watch((next) => {
        const echoes = mine.echoes.get(key) ?? [];
        const at = echoes.indexOf(JSON.stringify(next));
        if (at < 0) mine.values.set(key, Promise.resolve(next));
        else echoes.splice(0, at + 1);
      }, mine.signal);
    }
    return mine.values.get(key) as Promise<T>;
  };
  const kept: StoredItem<T> = {
    ...item,
    getValue: () => (memory ? keep(memory) : item.getValue()),
    async setValue(value) {
      const mine = memory;
      if (mine) {
        const next = value ?? fallback;
        const text = JSON.stringify(next);
        if (JSON.stringify(await keep(mine)) === text) return;
        mine.values.set(key, Promise.resolve(next));
        mine.echoes.set(key, [...(mine.echoes.get(key) ?? []).slice(-20), text]);
      }
      await item.setValue(value);
    },
    removeValue: () => kept.setValue(null as T),
  };
  return kept;
}

/** The items of a value of one account's own (see `perAccountKey`). */
export const perAccountItem =
  <T>(keyOf: (accountId: string) => StoredKey<T>) =>
  (accountId: string): StoredItem<T> =>
    storedItem(keyOf(accountId));

export const settingsItem = storedItem(SETTINGS);
export const accountsItem = keptItem(ACCOUNTS);
export const statusItem = keptItem(STATUS);
export const liveModeItem = keptItem(LIVE_MODE);
export const accountStatusItem = (accountId: string) => keptItem(accountStatusKey(accountId));
export const accountLiveModeItem = (accountId: string) => keptItem(accountLiveModeKey(accountId));
export const unreadByTypeItem = perAccountItem(unreadByTypeKey);
