/**
 * Keeps the unread count current: one alarm, a conditional request per check, and a schedule
 * that respects the person's interval, the service's hint, failures and Retry-After. No
 * request is made while signed out, offline, or without permission for the API's origin.
 */
import { browser } from 'wxt/browser';
import { perAccountKey } from '../accounts';
import { NetworkError, reviveError } from '../api';
import { SIGNED_OUT } from '../connection-status';
import { FAILURES, failureCode, failureKind } from '../failure';
import type { ConnectionStatus, StatusKind } from '../messaging';
import { oneAtATime } from '../one-at-a-time';
import { hasApiPermission } from '../permissions';
import { LIVE_SAFETY_NET_SECONDS, nextPollDelay, regularInterval } from '../poll-schedule';
import type { Settings } from '../settings';
import type { Session } from './api-session';
import { statusWriter } from './status-writer';
import { perAccountItem } from './stored-items';

/** Each account's check has its own alarm, named after the account. */
export const POLL_ALARM_PREFIX = 'poll-unread-count:';
export const pollAlarmName = (accountId: string) => `${POLL_ALARM_PREFIX}${accountId}`;

interface PollState {
  /** The ETag of the last count answer, sent back as If-None-Match. */
  etag: string | null;
  /** The count that ETag was given with. */
  count?: number;
  /** Failed checks in a row. */
  failures: number;
  /** The service's last X-Poll-Interval, in seconds. */
  hint: number | null;
}

const FRESH: PollState = { etag: null, failures: 0, hint: null };

/** One account's poll state. */
export const pollStateItem = perAccountItem(perAccountKey<PollState>('pollState', FRESH));

export interface PollerOptions {
  session: Session;
  now?: () => number;
  random?: () => number;
  isOnline?: () => boolean;
  /** Sends the last ETag as If-None-Match. On by default; off only to measure what it saves. */
  conditional?: boolean;
  /** Told of every successful check, with the count before and after. */
  onCount?: (previous: number | null, count: number, settings: Settings) => void | Promise<void>;
  /** Told of the status every check leaves. */
  onStatus?: (status: ConnectionStatus) => void;
  /** Whether the live channel carries the count now, so that checks can be rare. */
  isLive?: () => boolean;
  /**
   * The account's runtime stops when this aborts (the account removed): a check whose answer
   * comes after that leaves no status, schedule or count behind.
   */
  signal?: AbortSignal;
}

export function statusKindFor(error: unknown, online: boolean): StatusKind {
  return FAILURES[failureKind(error, { online })].badge;
}

export function createPoller(options: PollerOptions) {
  const now = options.now ?? Date.now;
  const isOnline = options.isOnline ?? (() => globalThis.navigator?.onLine !== false);
  const conditional = options.conditional ?? true;
  const POLL_ALARM = pollAlarmName(options.session.accountId);
  const { get: getStatus, set: setStatus, writes } = statusWriter(options.session.accountId);
  const stateItem = pollStateItem(options.session.accountId);

  async function schedule(delay: number | null): Promise<number | null> {
    if (delay === null) {
      await browser.alarms.clear(POLL_ALARM);
      return null;
    }
    const when = now() + delay;
    await browser.alarms.create(POLL_ALARM, { when });
    return when;
  }

  async function check(): Promise<ConnectionStatus> {
    const session = await options.session.client();
    const { client } = session;
    const settings = options.isLive?.()
      ? {
          ...session.settings,
          pollIntervalSeconds: Math.max(LIVE_SAFETY_NET_SECONDS, session.settings.pollIntervalSeconds),
        }
      : session.settings;
    const previous = await getStatus();
    const state = await stateItem.getValue();
    const interval = regularInterval({ intervalSeconds: settings.pollIntervalSeconds, hintSeconds: state.hint }) * 1000;
    const since = { count: previous.count, checkedAt: previous.checkedAt };

    if (!(await options.session.token())) {
      await schedule(null);
      await stateItem.setValue(FRESH);
      return setStatus(SIGNED_OUT);
    }
    if (!isOnline()) {
      // The browser says when it is back online; the alarm is a fallback in case it does not.
      const nextCheckAt = await schedule(interval);
      return setStatus({ kind: 'offline', ...since, nextCheckAt, detail: null });
    }
    if (!(await hasApiPermission(settings))) {
      await schedule(null);
      return setStatus({ kind: 'noPermission', ...since, nextCheckAt: null, detail: null });
    }

    // The alarm that started this check is spent. Should the browser stop the worker while the
    // request is out, this one wakes it again; the outcome below replaces it.
    await schedule(interval);
    const writesBefore = writes();
    try {
      // A 304 keeps the count on show, so ask conditionally only while that is the count the
      // ETag came with: triage shows a new count at once, and the service's count can come back
      // to the old one before the next check.
      const vouched = previous.count !== null && previous.count === state.count;
      const answer = await client.inbox.checkCount(conditional && vouched ? state.etag : null);
      if (options.signal?.aborted) return previous;
      const answered = answer.changed ? answer.count : (previous.count ?? 0);
      const next: PollState = { etag: answer.etag, count: answered, failures: 0, hint: answer.pollInterval };
      const delay = nextPollDelay({
        intervalSeconds: settings.pollIntervalSeconds,
        hintSeconds: next.hint,
        failures: 0,
      });
      await stateItem.setValue(next);
      const nextCheckAt = await schedule(delay);
      // A count that came while the request was out (a live frame, a triage answer) is newer than
      // this answer, which the service may have given before the change: it stays on show.
      const overtaken = writes() !== writesBefore;
      const count = overtaken ? ((await getStatus()).count ?? answered) : answered;
      const status = await setStatus({ kind: 'ok', count, checkedAt: now(), nextCheckAt, detail: null });
      // Alerts hear what this check learned, as they would have without the newer count.
      await options.onCount?.(previous.count, answered, settings);
      return status;
    } catch (caught) {
      if (options.signal?.aborted) return previous;
      const error = reviveError(caught);
      // A service that answers with trouble (5xx, 429, a refused token, a timeout) is spared by
      // backing off. A connection that nothing accepts costs no service anything, and checking
      // at the regular interval brings the badge back within one interval of its return.
      const failures = error instanceof NetworkError ? 0 : state.failures + 1;
      const retryAfterSeconds = 'retryAfter' in error ? (error.retryAfter as number | undefined) : undefined;
      // A failed check says the live channel is failing too, even before its close arrives:
      // the person's own interval applies, not the live safety net's.
      const delay = nextPollDelay({
        intervalSeconds: session.settings.pollIntervalSeconds,
        hintSeconds: state.hint,
        failures,
        retryAfterSeconds,
        random: options.random,
      });
      await stateItem.setValue({ ...state, failures });
      const nextCheckAt = await schedule(delay);
      // The count on show stays, whichever came last.
      const { count, checkedAt } = await getStatus();
      return setStatus({
        kind: statusKindFor(error, isOnline()),
        count,
        checkedAt,
        nextCheckAt,
        detail: failureCode(error),
      });
    }
  }

  return {
    /**
     * Checks the unread count now. A check already running may have read the settings or token
     * before a change this caller made, so calls made meanwhile share one check after it.
     */
    poll: oneAtATime(async (): Promise<ConnectionStatus> => {
      const status = await check();
      options.onStatus?.(status);
      return status;
    }),
    /** Puts the next check off to the live safety net's interval; returns when it is due. */
    async slowDown(): Promise<number> {
      const when = now() + LIVE_SAFETY_NET_SECONDS * 1000;
      await browser.alarms.create(POLL_ALARM, { when });
      return when;
    },
    /** Forgets the ETag and failures, as when the account or the address changes. */
    async reset(): Promise<void> {
      await stateItem.setValue(FRESH);
    },
    /** Forgets the account, as when it is removed: no alarm, no state left. */
    async forget(): Promise<void> {
      await Promise.all([browser.alarms.clear(POLL_ALARM), stateItem.removeValue()]);
    },
  };
}

export type Poller = ReturnType<typeof createPoller>;
