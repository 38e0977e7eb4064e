/**
 * The background's hold on one account's API: its token, read from the account store for each
 * request and only for the origin it was given for, and one client per API address.
 */
import type { Account } from '../accounts';
import { type ClientOptions, type CoreClient, createCoreClient } from '../api';
import type { Settings } from '../settings';
import { accounts, accountToken, forgetToken, storeToken } from './account-store';
import { workerSettings } from './stored-items';

export interface Session {
  readonly accountId: string;
  /** The account as stored now; undefined once it is removed. */
  account(): Promise<Account | undefined>;
  /** The client for the account's API address, and the settings as they apply to this account. */
  client(): Promise<{ client: CoreClient; settings: Settings }>;
  /** The account's token, or null when signed out (or removed). */
  token(): Promise<string | null>;
  signIn(token: string): Promise<void>;
  signOut(): Promise<void>;
}

export type SessionOptions = Pick<ClientOptions, 'fetch' | 'timeout' | 'retries' | 'WebSocket'>;

/** The settings with the account's addresses in place of the defaults. */
export async function accountSettings(account: Account | undefined): Promise<Settings> {
  const settings = await workerSettings();
  if (!account) return settings;
  const { apiBaseUrl, siteOrigin, profilePath, profileAnchor } = account;
  return { ...settings, apiBaseUrl, siteOrigin, profilePath, profileAnchor };
}

export function createSession(accountId: string, options: SessionOptions = {}): Session {
  let cached: { baseUrl: string; client: CoreClient } | null = null;

  async function account() {
    return (await accounts()).find((each) => each.id === accountId);
  }

  /** The token for the given API address, the account's own by default. */
  async function tokenFor(apiBaseUrl?: string): Promise<string | null> {
    const current = await account();
    return current ? accountToken({ id: current.id, apiBaseUrl: apiBaseUrl ?? current.apiBaseUrl }) : null;
  }

  return {
    accountId,
    account,
    token: () => tokenFor(),
    async client() {
      const settings = await accountSettings(await account());
      const { apiBaseUrl } = settings;
      if (cached?.baseUrl !== apiBaseUrl) {
        cached = {
          baseUrl: apiBaseUrl,
          client: createCoreClient({
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
      const current = await account();
      if (current) await storeToken(current, value);
    },
    async signOut() {
      await forgetToken(accountId);
    },
  };
}
