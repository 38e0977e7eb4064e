/**
 * What the background runs for each account: its session, its poller and its live channel, its
 * desktop notifications and its status. Accounts added are started, accounts removed stopped,
 * and what they left behind (alarms, state, cached pages, what priority learned) cleared.
 */
import type { WebSocketConstructor } from '../api';
import { clearInboxCache } from '../inbox-cache';
import type { ConnectionStatus } from '../messaging';
import { accounts, apiOrigin, updateAccount } from './account-store';
import { createSession, type Session } from './api-session';
import { type Clock, realClock } from './clock';
import { createLiveUpdates, type LiveUpdates } from './live-channel';
import { createNotifier, type Notifier } from './notifier';
import { createOutbox, type Outbox } from './outbox';
import { createPoller, type Poller } from './poller';
import { sampleUnread } from './priority';
import { renderAccounts, type StatusWriter, statusWriter } from './status-writer';
import { accountStatusItem, keepInMemory, priorityItem, unreadByTypeItem, unreadSampleItem } from './stored-items';
import { identity, whoIs } from './token-check';
import { settleUndo } from './triage';

export interface AccountRuntime {
  id: string;
  session: Session;
  poller: Poller;
  notifier: Notifier;
  live: LiveUpdates;
  status: StatusWriter;
  /** Changes the service could not take when they were made, sent when it answers again. */
  outbox: Outbox;
  /**
   * Learns who the account is at its service and keeps it with the account: once per start when
   * the name is not known yet (an account moved from the previous version), or `again` after a
   * new token. A failure leaves the account as it was.
   */
  identify(again?: boolean): Promise<void>;
  /**
   * After a change made here, as a triage action: the live channel's count frame confirms the
   * count while the channel is up, a check does when it is not.
   */
  confirmCount(): void;
}

export interface RuntimeOptions {
  fetch?: typeof fetch;
  WebSocket?: WebSocketConstructor;
  /** Whether this background can hold live channels. */
  liveSupported?: boolean;
  clock?: Clock;
  now?: () => number;
  random?: () => number;
  isOnline?: () => boolean;
  retries?: number;
  /** Aborting it stops every account's live channel and timers; what they stored stays. */
  signal?: AbortSignal;
}

/** One account's parts, running until `options.signal` aborts. */
export function createAccountRuntime(id: string, options: RuntimeOptions = {}): AccountRuntime {
  const { signal } = options;
  const session = createSession(id, { fetch: options.fetch, WebSocket: options.WebSocket, retries: options.retries });
  const notifier = createNotifier(id, async () => (await session.client()).client, { clock: options.clock, signal });
  let live: LiveUpdates | undefined;
  let identified = false;
  // While the badge counts priority ones, each check and each new count (a live frame, triage) counts them again.
  const countPriority = sampleUnread(id, session);
  const recount = (status: ConnectionStatus) => void countPriority(status).catch(() => undefined);
  accountStatusItem(id).watch(recount, signal ?? new AbortController().signal);
  async function identify(again = false): Promise<void> {
    if (identified && !again) return;
    identified = true;
    try {
      const known = await session.account();
      if (!known || (known.username && !again)) return;
      const profile = await whoIs((await session.client()).client);
      if (profile) await updateAccount(id, identity(profile));
    } catch {
      identified = false;
    }
  }
  const poller = createPoller({
    session,
    now: options.now,
    random: options.random,
    isOnline: options.isOnline,
    onCount: (previous, count, settings) => notifier.onCount(previous, count, settings).catch(() => undefined),
    onStatus: (status) => {
      recount(status);
      live?.follow(status);
      if (status.kind === 'ok') void identify();
    },
    isLive: () => live?.isLive() ?? false,
    signal,
  });
  live = createLiveUpdates({
    session,
    poller,
    notifier,
    clock: options.clock,
    random: options.random,
    supported: options.liveSupported ?? false,
    signal,
  });
  const confirmCount = () => {
    if (!live?.isLive()) void poller.poll();
  };
  const outbox = createOutbox(id, {
    clock: options.clock ?? realClock,
    client: async () => (await session.client()).client,
    origin: async () => {
      const account = await session.account();
      return account && apiOrigin(account.apiBaseUrl);
    },
    onSent: (key, answer) => void settleUndo(key, answer),
    signal,
  });
  return { id, session, poller, notifier, live, status: statusWriter(id), outbox, identify, confirmCount };
}

export interface Runtimes {
  get(id: string): AccountRuntime | undefined;
  all(): AccountRuntime[];
  /** Starts the accounts added since, stops those removed; the ids of the accounts started. */
  sync(): Promise<string[]>;
}

/** The accounts' runtimes, each running until it is removed or `options.signal` aborts. */
export function createRuntimes(options: RuntimeOptions = {}): Runtimes {
  if (options.signal) keepInMemory(options.signal);
  const running = new Map<string, AccountRuntime>();
  const stops = new Map<string, AbortController>();
  let syncing: Promise<string[]> = Promise.resolve([]);
  /** The accounts the badge was last drawn for by a sync. */
  let drawnFor: string | null = null;

  async function stopAccount(runtime: AccountRuntime) {
    running.delete(runtime.id);
    stops.get(runtime.id)?.abort();
    stops.delete(runtime.id);
    await Promise.all([
      runtime.poller.forget(),
      runtime.notifier.reset(),
      clearInboxCache(runtime.id),
      unreadByTypeItem(runtime.id).removeValue(),
      runtime.status.clear(),
      runtime.outbox.clear(true),
      priorityItem(runtime.id).removeValue(),
      unreadSampleItem(runtime.id).removeValue(),
    ]);
  }

  async function sync(): Promise<string[]> {
    const current = await accounts();
    const ids = new Set(current.map((account) => account.id));
    for (const runtime of [...running.values()]) if (!ids.has(runtime.id)) await stopAccount(runtime);
    const started: string[] = [];
    for (const account of current) {
      if (running.has(account.id) || options.signal?.aborted) continue;
      const stop = new AbortController();
      options.signal?.addEventListener('abort', () => stop.abort(), { once: true, signal: stop.signal });
      stops.set(account.id, stop);
      running.set(account.id, createAccountRuntime(account.id, { ...options, signal: stop.signal }));
      started.push(account.id);
    }
    // Every change of an account's status draws the badge itself; a sync draws it only when the
    // accounts changed (their set, a label), so the many messages that sync first draw nothing.
    const list = JSON.stringify(current);
    if (list !== drawnFor) {
      await renderAccounts(current);
      drawnFor = list;
    }
    return started;
  }

  return {
    get: (id) => running.get(id),
    all: () => [...running.values()],
    sync() {
      // One after another: two changes close together must not start an account twice.
      syncing = syncing.catch(() => []).then(sync);
      return syncing;
    },
  };
}
