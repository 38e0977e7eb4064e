import { browser } from 'wxt/browser';
import { createCoreClient } from '../api';
import { FAILURES, failureCode, failureKind } from '../failure';
import type { ConnectionTest } from '../messaging';
import { originPattern } from '../permissions';

export interface ConnectionTestOptions {
  apiBaseUrl: string;
  token: string | null;
  fetch?: typeof fetch;
}

/**
 * Checks an address and token the way the poller will use them — the unread count with the
 * token — and says what is wrong in terms a person can act on. Nothing is saved.
 */
export async function testConnection({ apiBaseUrl, token, fetch }: ConnectionTestOptions): Promise<ConnectionTest> {
  try {
    const client = createCoreClient({ baseUrl: apiBaseUrl, token, fetch, timeout: 8_000, retries: 0 });
    if (!(await browser.permissions.contains({ origins: [originPattern(apiBaseUrl)] }))) {
      return { ok: false, problem: 'permissionDenied', detail: new URL(apiBaseUrl).origin };
    }
    const unreadCount = await client.inbox.count();
    return { ok: true, unreadCount };
  } catch (error) {
    return connectionProblem(error, Boolean(token));
  }
}

/** A failed connection test; a refused token is a missing one when none was given. */
export function connectionProblem(error: unknown, hadToken: boolean): ConnectionTest {
  const problem = FAILURES[failureKind(error)].test;
  return {
    ok: false,
    problem: problem === 'unauthorized' && !hadToken ? 'noToken' : problem,
    detail: failureCode(error),
  };
}
