import { browser } from 'wxt/browser';
import {
  type ApiError,
  createClient,
  InvalidArgumentError,
  NetworkError,
  reviveError,
  TimeoutError,
  UnauthenticatedError,
} from '../api';
import type { ConnectionTest } from '../messaging';
import { originPattern } from './permissions';

export interface ConnectionTestOptions {
  apiBaseUrl: string;
  token: string | null;
  fetch?: typeof fetch;
}

function problemFor(error: ApiError, hadToken: boolean): ConnectionTest {
  if (error instanceof InvalidArgumentError) return { ok: false, problem: 'invalidAddress', detail: error.detail };
  if (error instanceof UnauthenticatedError) {
    return { ok: false, problem: hadToken ? 'unauthorized' : 'noToken', detail: error.detail };
  }
  if (error instanceof TimeoutError) return { ok: false, problem: 'timeout', detail: error.detail };
  if (error instanceof NetworkError) return { ok: false, problem: 'unreachable', detail: error.detail };
  return { ok: false, problem: 'notThisService', detail: error.detail || `${error.status} ${error.code}` };
}

/**
 * Checks an address and token the way the poller will use them — the unread count with the
 * token — and says what is wrong in terms a person can act on. Nothing is saved.
 */
export async function testConnection({ apiBaseUrl, token, fetch }: ConnectionTestOptions): Promise<ConnectionTest> {
  try {
    const client = createClient({ baseUrl: apiBaseUrl, token, fetch, timeout: 8_000, retries: 0 });
    if (!(await browser.permissions.contains({ origins: [originPattern(apiBaseUrl)] }))) {
      return { ok: false, problem: 'permissionDenied', detail: new URL(apiBaseUrl).origin };
    }
    const unreadCount = await client.inbox.count();
    return { ok: true, unreadCount };
  } catch (error) {
    return problemFor(reviveError(error), Boolean(token));
  }
}
