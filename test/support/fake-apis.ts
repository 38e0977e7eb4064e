import { fakeBrowser } from 'wxt/testing/fake-browser';

interface Permissions {
  permissions?: string[];
  origins?: string[];
}

/** In-memory `permissions`: `request` answers with `answer`, as if the person clicked it. */
export function installFakePermissions(initial: Permissions = {}) {
  const granted = { permissions: new Set(initial.permissions), origins: new Set(initial.origins) };
  const state = {
    answer: true,
    requests: [] as Permissions[],
    granted,
  };
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
      return true;
    },
    remove: async (p: Permissions) => {
      for (const x of p.permissions ?? []) granted.permissions.delete(x);
      for (const x of p.origins ?? []) granted.origins.delete(x);
      return true;
    },
    onAdded: { addListener() {}, removeListener() {}, hasListener: () => false },
    onRemoved: { addListener() {}, removeListener() {}, hasListener: () => false },
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
