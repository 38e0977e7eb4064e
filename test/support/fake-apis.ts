import { fakeBrowser } from 'wxt/testing/fake-browser';

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

/** In-memory `scripting` registration of content scripts. */
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
