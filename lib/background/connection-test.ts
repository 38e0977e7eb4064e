import { browser } from 'wxt/browser';
import { createClient, reviveError } from '../api';
import { type FailureKind, failureKind } from '../failure';
import type { ConnectionProblem, ConnectionTest } from '../messaging';
import { originPattern } from './permissions';

export interface ConnectionTestOptions {
  apiBaseUrl: string;
  token: string | null;
  fetch?: typeof fetch;
}

/** The options page's problem for each kind of failed test; a refused token may be a missing one. */
const PROBLEM_FOR: Record<FailureKind, ConnectionProblem> = {
  offline: 'unreachable',
  unreachable: 'unreachable',
  timeout: 'timeout',
  unauthorized: 'unauthorized',
  rateLimited: 'notThisService',
  serverError: 'notThisService',
  notThisService: 'notThisService',
  notFound: 'notThisService',
  followSelf: 'notThisService',
  reportSelf: 'notThisService',
  invalidRequest: 'notThisService',
  refused: 'notThisService',
  invalidInput: 'invalidAddress',
  aborted: 'notThisService',
  unexpected: 'notThisService',
  internal: 'notThisService',
};

export function connectionProblem(error: unknown, hadToken: boolean): ConnectionTest {
  const { detail, status, code } = reviveError(error);
  const problem = PROBLEM_FOR[failureKind(error)];
  return {
    ok: false,
    problem: problem === 'unauthorized' && !hadToken ? 'noToken' : problem,
    detail: detail || `${status} ${code}`,
  };
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
    return connectionProblem(error, Boolean(token));
  }
}
