import { fakeBrowser } from 'wxt/testing/fake-browser';

type Members = Record<string, unknown>;
const isObject = (value: unknown): value is Members => typeof value === 'object' && value !== null;

/**
 * Each API's members as fake-browser made them, taken as this file loads (once for all the files
 * that share a worker), before any test replaced one. `fakeBrowser.reset()` empties storage and
 * listeners but keeps what a test assigned: a `runtime.sendMessage` that answers as the options
 * page, an `identity`.
 */
const made: Members = Object.fromEntries(
  Object.entries(fakeBrowser).map(([name, api]) => [name, isObject(api) ? { ...api } : api]),
);

/** Puts back every API member a test replaced, and takes away every API a test added. */
export function restoreFakeBrowser() {
  const browser = fakeBrowser as unknown as Members;
  for (const name of Object.keys(browser)) if (!(name in made)) delete browser[name];
  for (const [name, members] of Object.entries(made)) {
    const api = browser[name];
    if (!isObject(members) || !isObject(api)) {
      browser[name] = members;
      continue;
    }
    for (const key of Object.keys(api)) if (!(key in members)) delete api[key];
    Object.assign(api, members);
  }
}

type Catalogue = Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;

export function getMessageFrom(catalogue: Catalogue) {
  return (key: string, substitutions?: string | string[]): string => {
    const entry = catalogue[key];
    if (!entry) return '';
    const subs = substitutions === undefined ? [] : Array.isArray(substitutions) ? substitutions : [substitutions];
    const positional = (text: string) => text.replace(/\$(\d)/g, (_, n: string) => subs[Number(n) - 1] ?? '');
    return entry.message.replace(/\$([A-Za-z0-9_]+)\$/g, (whole, name: string) => {
      const placeholder = entry.placeholders?.[name.toLowerCase()];
      return placeholder ? positional(placeholder.content) : whole;
    });
  };
}

/** `i18n` answered from a catalogue of the extension's, in the language given. */
export function installFakeI18n(catalogue: Catalogue, language: string) {
  const i18n = fakeBrowser.i18n as unknown as Members;
  i18n.getMessage = getMessageFrom(catalogue);
  i18n.getUILanguage = () => language;
}

interface Permissions {
  permissions?: string[];
  origins?: string[];
}

function fakeEvent<A extends unknown[]>() {
  const listeners = new Set<(...args: A) => void>();
  return {
    addListener: (listener: (...args: A) => void) => void listeners.add(listener),
    removeListener: (listener: (...args: A) => void) => void listeners.delete(listener),
    hasListener: (listener: (...args: A) => void) => listeners.has(listener),
    fire: (...args: A) => {
      for (const listener of listeners) listener(...args);
    },
  };
}

/** In-memory `permissions`: `request` answers with `answer`, as if the person clicked it. */
export function installFakePermissions(initial: Permissions = {}) {
  const granted = { permissions: new Set(initial.permissions), origins: new Set(initial.origins) };
  const state = {
    answer: true,
    requests: [] as Permissions[],
    granted,
  };
  const onAdded = fakeEvent<[Permissions]>();
  const onRemoved = fakeEvent<[Permissions]>();
  const covers = (p: Permissions) =>
    (p.permissions ?? []).every((x) => granted.permissions.has(x)) &&
    (p.origins ?? []).every((x) => granted.origins.has(x));
  const api = {
    contains: async (p: Permissions) => covers(p),
    getAll: async () => ({ permissions: [...granted.permissions], origins: [...granted.origins] }),
    request: async (p: Permissions) => {
      state.requests.push(p);
      if (!state.answer) return false;
      for (const x of p.permissions ?? []) granted.permissions.add(x);
      for (const x of p.origins ?? []) granted.origins.add(x);
      onAdded.fire(p);
      return true;
    },
    remove: async (p: Permissions) => {
      for (const x of p.permissions ?? []) granted.permissions.delete(x);
      for (const x of p.origins ?? []) granted.origins.delete(x);
      onRemoved.fire(p);
      return true;
    },
    onAdded,
    onRemoved,
  };
  Object.assign(fakeBrowser, { permissions: api });
  return state;
}

interface RegisteredScript {
  id: string;
  matches?: string[];
  js?: string[];
  runAt?: string;
  persistAcrossSessions?: boolean;
}

/** In-memory `scripting` registration of content scripts; `executeScript` puts nothing anywhere. */
export function installFakeScripting() {
  const registered = new Map<string, RegisteredScript>();
  const api = {
    registerContentScripts: async (scripts: RegisteredScript[]) => {
      for (const s of scripts) {
        if (registered.has(s.id)) throw new Error(`Duplicate script ID '${s.id}'`);
        registered.set(s.id, s);
      }
    },
    updateContentScripts: async (scripts: RegisteredScript[]) => {
      for (const s of scripts) registered.set(s.id, { ...registered.get(s.id), ...s });
    },
    unregisterContentScripts: async (filter?: { ids?: string[] }) => {
      for (const id of filter?.ids ?? [...registered.keys()]) registered.delete(id);
    },
    getRegisteredContentScripts: async (filter?: { ids?: string[] }) =>
      [...registered.values()].filter((s) => !filter?.ids || filter.ids.includes(s.id)),
    executeScript: async (_: { target: { tabId: number }; files?: string[] }) => [],
  };
  Object.assign(fakeBrowser, { scripting: api });
  return registered;
}

/** `runtime.openOptionsPage` opens the options page in a tab, as Chrome does with open_in_tab. */
export function installFakeOptionsPage() {
  const runtime = fakeBrowser.runtime as unknown as Record<string, unknown>;
  runtime.openOptionsPage = async () => {
    await fakeBrowser.tabs.create({ url: fakeBrowser.runtime.getURL('/options.html') });
  };
}
