/**
 * The background's hold on the API: the token, read from storage for each request and only
 * for the origin it was given for, and one client per API address.
 */

import { storage } from 'wxt/utils/storage';
import { type Client, createClient } from '../api';
import { getSettings, type Settings } from '../settings';

/** The API token, with the origin of the API it was given for: it is never sent anywhere else. */
export interface StoredToken {
  token: string;
  apiOrigin: string;
}

// Defined here, in a module only the background loads, so no other context ever reads it.
export const tokenItem = storage.defineItem<StoredToken | null>('local:token', { fallback: null, version: 1 });

export interface Session {
  /** The client for the current API address. */
  client(): Promise<{ client: Client; settings: Settings }>;
  /** The token for the current API address, or null when signed out. */
  token(settings?: Settings): Promise<string | null>;
  signIn(token: string): Promise<void>;
  signOut(): Promise<void>;
}

export const apiOrigin = (apiBaseUrl: string) => new URL(apiBaseUrl).origin;

export function createSession(options: { fetch?: typeof fetch; timeout?: number; retries?: number } = {}): Session {
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
