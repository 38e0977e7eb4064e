/**
 * The background service worker: it owns the API client and the token, keeps the badge true,
 * registers the profile content script, and answers every other context.
 */
import { browser } from 'wxt/browser';
import type { WebSocketConstructor } from '../api';
import { clearInboxCache } from '../inbox-cache';
import { migrateSettings, watchSettings } from '../settings';
import { createRuntimes } from './account-runtime';
import { accounts } from './account-store';
import type { Clock } from './clock';
import { addToOpenTabs, syncProfileScript } from './content-script';
import { registerHandlers } from './handlers';
import { canHoldChannel, LIVE_ALARM_PREFIX } from './live-channel';
import {
  ALERT_FLUSH_ALARM_PREFIX,
  type AlertActions,
  createDigest,
  isDigest,
  notificationAccount,
  QUIET_HOURS_ALARM,
} from './notifier';
import { POLL_ALARM_PREFIX, pollAlarmName } from './poller';
import { applyPreset, buildPreset, type Preset } from './preset';
import { forgetTab } from './profile-frames';
import { accountsItem, priorityItem, unreadByTypeItem, unreadSampleItem, workerSettings } from './stored-items';

export interface BackgroundOptions {
  fetch?: typeof fetch;
  /** The WebSocket class of the live channel; the global one by default. */
  WebSocket?: WebSocketConstructor;
  /** The live channel's clock (pings, pong timeouts, reconnection, grouping of arrivals). */
  clock?: Clock;
  now?: () => number;
  random?: () => number;
  isOnline?: () => boolean;
  /** What a first install signs in with, instead of the build's; a production build applies none. */
  preset?: Preset;
  /** Aborting it stops the background: every listener it added is removed. */
  signal?: AbortSignal;
}

/** Content scripts must never read the token: Chrome can keep storage.local to trusted contexts. */
function restrictStorageToTrustedContexts() {
  const local = browser.storage.local as { setAccessLevel?: (o: { accessLevel: string }) => Promise<void> };
  try {
    void local.setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' }).catch(() => undefined);
  } catch {
    // Firefox has no access levels; there the content script simply never asks for the token.
  }
}

export function startBackground(options: BackgroundOptions = {}) {
  const WebSocket = options.WebSocket ?? (globalThis.WebSocket as WebSocketConstructor | undefined);
  const signal = options.signal ?? new AbortController().signal;
  const runtimes = createRuntimes({
    fetch: options.fetch,
    WebSocket,
    liveSupported: canHoldChannel(WebSocket),
    clock: options.clock,
    now: options.now,
    random: options.random,
    isOnline: options.isOnline,
    signal,
  });
  const digest = createDigest(options.clock);
  const extension = { id: browser.runtime.id, baseUrl: browser.runtime.getURL('/') };
  const listen = <A extends unknown[]>(
    event: { addListener(l: (...a: A) => void): void; removeListener(l: (...a: A) => void): void } | undefined,
    listener: (...a: A) => void,
  ) => {
    if (!event) return;
    event.addListener(listener);
    signal.addEventListener('abort', () => event.removeListener(listener), { once: true });
  };

  const handlers = registerHandlers({ runtimes, extension, fetch: options.fetch }, signal);
  // An alert's buttons act as the popup's do: the same handlers, so the same undo and badge.
  const alertActions: AlertActions = {
    markRead: (account, ids, join) => handlers['inbox.markRead']({ account, ids, join }, null),
    snooze: (account, ids, until) => handlers['inbox.snooze']({ account, ids, until, unread: ids.length }, null),
  };

  /**
   * Every account checked at once, and the profile script following the accounts' sites, also
   * into their pages already open: on install, update, the browser's start and each change of
   * sites or permissions, not each time the worker wakes, when it is in them already.
   */
  async function refresh() {
    await runtimes.sync();
    const sites = await accounts();
    await syncProfileScript(sites).catch(() => undefined);
    void addToOpenTabs(sites).catch(() => undefined);
    await Promise.all(runtimes.all().map((runtime) => runtime.poller.poll()));
  }

  /** A worker woken for any reason makes sure each account's check is scheduled and its channel open. */
  async function wake() {
    await runtimes.sync();
    for (const runtime of runtimes.all()) {
      void browser.alarms.get(pollAlarmName(runtime.id)).then((alarm) => (alarm ? undefined : runtime.poller.poll()));
      void runtime.live.connect();
    }
  }

  listen(browser.alarms.onAlarm, (alarm) => {
    void (async () => {
      await runtimes.sync();
      if (alarm.name.startsWith(POLL_ALARM_PREFIX)) {
        void runtimes.get(alarm.name.slice(POLL_ALARM_PREFIX.length))?.poller.poll();
      }
      if (alarm.name.startsWith(LIVE_ALARM_PREFIX))
        runtimes.get(alarm.name.slice(LIVE_ALARM_PREFIX.length))?.live.onAlarm();
      if (alarm.name.startsWith(ALERT_FLUSH_ALARM_PREFIX)) {
        void runtimes
          .get(alarm.name.slice(ALERT_FLUSH_ALARM_PREFIX.length))
          ?.notifier.onFlushAlarm()
          .catch(() => undefined);
      }
      if (alarm.name === QUIET_HOURS_ALARM) void digest.onAlarm(await workerSettings()).catch(() => undefined);
    })();
  });
  listen(browser.runtime.onInstalled, ({ reason }) => {
    void (async () => {
      if (reason === 'install') {
        // A production build carries no preset (`buildPreset`), so it has no code to apply one either.
        const signedIn = import.meta.env.MODE !== 'production' && (await applyPreset(options.preset ?? buildPreset));
        if (!signedIn) await browser.runtime.openOptionsPage();
      }
      await refresh();
    })();
  });
  listen(browser.runtime.onStartup, () => void refresh());
  listen(browser.tabs?.onRemoved, (tabId) => forgetTab(tabId));
  // The notifications API exists only once its optional permission is granted.
  let clicksHeard = false;
  const hearNotificationClicks = () => {
    if (clicksHeard || !browser.notifications) return;
    clicksHeard = true;
    listen(browser.notifications.onClicked, (id) => {
      if (isDigest(id)) void digest.onClicked(id).catch(() => undefined);
      else {
        void Promise.all([workerSettings(), runtimes.sync()])
          .then(([settings]) =>
            runtimes.get(notificationAccount(id))?.notifier.onClicked(id, alertActions, settings.markReadOnOpen),
          )
          .catch(() => undefined);
      }
    });
    listen(browser.notifications.onButtonClicked, (id, button) => {
      const acting = isDigest(id)
        ? digest.onButtonClicked(id, alertActions)
        : runtimes
            .sync()
            .then(() => runtimes.get(notificationAccount(id))?.notifier.onButtonClicked(id, button, alertActions));
      void acting.catch(() => undefined);
    });
  };
  hearNotificationClicks();
  listen(browser.permissions?.onAdded, () => {
    hearNotificationClicks();
    void refresh();
  });
  listen(browser.permissions?.onRemoved, () => void refresh());
  // A change made on another computer arrives through storage.sync and acts here as one made here.
  watchSettings((next) => {
    void digest.onSettings(next).catch(() => undefined);
    void refresh();
  }, signal);
  void migrateSettings().catch(() => undefined);
  accountsItem.watch((next, previous) => {
    // Learning who an account is changes only names: the tooltip says them, nothing is checked again.
    const where = (list: typeof next) =>
      JSON.stringify((list ?? []).map((a) => [a.id, a.apiBaseUrl, a.siteOrigin, a.profilePath, a.profileAnchor]));
    if (where(next) === where(previous)) {
      void runtimes.sync();
      return;
    }
    // An account whose API address changed starts afresh: its ETag and cached pages were another service's.
    const before = new Map((previous ?? []).map((account) => [account.id, account.apiBaseUrl]));
    void (async () => {
      for (const account of next ?? []) {
        const runtime = runtimes.get(account.id);
        const was = before.get(account.id);
        if (runtime && was !== undefined && new URL(was).origin !== new URL(account.apiBaseUrl).origin) {
          await Promise.all([
            runtime.poller.reset(),
            clearInboxCache(account.id),
            unreadByTypeItem(account.id).removeValue(),
            // Its people are another service's: nothing learned of them carries over.
            priorityItem(account.id).removeValue(),
            unreadSampleItem(account.id).removeValue(),
            runtime.notifier.reset(),
            // What waited for the old service is dropped with a line; nothing of it goes to the new one.
            runtime.outbox.flush(),
          ]);
        }
      }
      await refresh();
    })();
  }, signal);
  const onConnectivity = () => void Promise.all(runtimes.all().map((runtime) => runtime.poller.poll()));
  globalThis.addEventListener?.('online', onConnectivity, { signal });
  globalThis.addEventListener?.('offline', onConnectivity, { signal });

  restrictStorageToTrustedContexts();

  void wake();

  return { runtimes };
}
