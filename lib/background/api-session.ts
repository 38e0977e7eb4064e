/**
 * The background's hold on the API: the token, read from storage for each request and only
 * for the origin it was given for, and one client per API address.
 */

import { createStore, del, get, set } from 'idb-keyval';
import { storage } from 'wxt/utils/storage';
import { type Client, type ClientOptions, createClient } from '../api';
import { getSettings, type Settings } from '../settings';

/** The API token, with the origin of the API it was given for: it is never sent anywhere else. */
export interface StoredToken {
  token: string;
  apiOrigin: string;
}

/**
 * Where the token was kept before: `storage.local`, which Firefox lets content scripts read
 * (`setAccessLevel` guards only `storage.session` there). Read once, to move it.
 */
const legacyTokenItem = storage.defineItem<StoredToken | null>('local:token', { fallback: null, version: 1 });

/**
 * The token lives in the IndexedDB of the extension's own origin, which only the background
 * opens: a content script's IndexedDB is the page's, in Chrome and Firefox alike. It survives
 * browser restarts like `storage.local` and goes when the extension is removed. The store is
 * opened on first use (again if the IndexedDB factory was replaced, as tests do).
 */
let secrets: { factory: IDBFactory; store: ReturnType<typeof createStore> } | null = null;
const secretStore = () => {
  if (secrets?.factory !== indexedDB)
    secrets = { factory: indexedDB, store: createStore('inbox-companion', 'secrets') };
  return secrets.store;
};

const isStoredToken = (value: unknown): value is StoredToken =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as StoredToken).token === 'string' &&
  typeof (value as StoredToken).apiOrigin === 'string';

export const tokenItem = {
  /** The token, moved over from `storage.local` the first time it is read there. */
  async getValue(): Promise<StoredToken | null> {
    const stored: unknown = await get('token', secretStore());
    if (isStoredToken(stored)) return stored;
    const legacy = await legacyTokenItem.getValue();
    if (!isStoredToken(legacy)) return null;
    await set('token', legacy, secretStore());
    await legacyTokenItem.removeValue();
    return legacy;
  },
  async setValue(value: StoredToken): Promise<void> {
    await set('token', value, secretStore());
    await legacyTokenItem.removeValue();
  },
  async removeValue(): Promise<void> {
    await legacyTokenItem.removeValue();
    await del('token', secretStore());
  },
};

export interface Session {
  /** The client for the current API address. */
  client(): Promise<{ client: Client; settings: Settings }>;
  /** The token for the current API address, or null when signed out. */
  token(settings?: Settings): Promise<string | null>;
  signIn(token: string): Promise<void>;
  signOut(): Promise<void>;
}

export const apiOrigin = (apiBaseUrl: string) => new URL(apiBaseUrl).origin;

export type SessionOptions = Pick<ClientOptions, 'fetch' | 'timeout' | 'retries' | 'WebSocket'>;

export function createSession(options: SessionOptions = {}): Session {
  let cached: { baseUrl: string; client: Client } | null = null;

  async function tokenFor(apiBaseUrl: string): Promise<string | null> {
    const stored = await tokenItem.getValue();
    return stored && stored.apiOrigin === apiOrigin(apiBaseUrl) ? stored.token : null;
  }

  return {
    async token(settings) {
      return tokenFor((settings ?? (await getSettings())).apiBaseUrl);
    },
    async client() {
      const settings = await getSettings();
      const { apiBaseUrl } = settings;
      if (cached?.baseUrl !== apiBaseUrl) {
        cached = {
          baseUrl: apiBaseUrl,
          client: createClient({
            baseUrl: apiBaseUrl,
            // Bound to this client's own address: a token is never sent to another origin.
            token: () => tokenFor(apiBaseUrl),
            fetch: options.fetch,
            timeout: options.timeout,
            retries: options.retries,
            WebSocket: options.WebSocket,
          }),
        };
      }
      return { client: cached.client, settings };
    },
    async signIn(value) {
      const settings = await getSettings();
      await tokenItem.setValue({ token: value.trim(), apiOrigin: apiOrigin(settings.apiBaseUrl) });
    },
    async signOut() {
      await tokenItem.removeValue();
    },
  };
}
