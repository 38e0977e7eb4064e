/**
 * The background service worker: it owns the API client and the token, keeps the badge true,
 * registers the profile content script, and answers every other context.
 */
import { browser } from 'wxt/browser';
import type { WebSocketConstructor } from '../api';
import { clearInboxCache } from '../inbox-cache';
import { getSettings, normalizeSettings, settingsItem } from '../settings';
import { createSession } from './api-session';
import { syncProfileScript } from './content-script';
import { registerHandlers } from './handlers';
import { type Clock, canHoldChannel, createLiveUpdates, LIVE_ALARM, type LiveUpdates } from './live';
import { ALERT_FLUSH_ALARM, createNotifier, QUIET_HOURS_ALARM } from './notifier';
import { createPoller, POLL_ALARM } from './poller';
import { applyPreset, buildPreset, type Preset } from './preset';

export interface BackgroundOptions {
  fetch?: typeof fetch;
  /** The WebSocket class of the live channel; the global one by default. */
  WebSocket?: WebSocketConstructor;
  /** The live channel's clock (pings, pong timeouts, reconnection, grouping of arrivals). */
  clock?: Clock;
  now?: () => number;
  random?: () => number;
  isOnline?: () => boolean;
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
  const session = createSession({ fetch: options.fetch, WebSocket });
  const notifier = createNotifier(async () => (await session.client()).client, options.clock);
  let live: LiveUpdates | undefined;
  const poller = createPoller({
    session,
    now: options.now,
    random: options.random,
    isOnline: options.isOnline,
    onCount: (previous, count, settings) => notifier.onCount(previous, count, settings).catch(() => undefined),
    onStatus: (status) => live?.follow(status),
    isLive: () => live?.isLive() ?? false,
  });
  live = createLiveUpdates({
    session,
    poller,
    notifier,
    clock: options.clock,
    random: options.random,
    supported: canHoldChannel(WebSocket),
  });
  const extension = { id: browser.runtime.id, baseUrl: browser.runtime.getURL('/') };
  const signal = options.signal ?? new AbortController().signal;
  const listen = <A extends unknown[]>(
    event: { addListener(l: (...a: A) => void): void; removeListener(l: (...a: A) => void): void } | undefined,
    listener: (...a: A) => void,
  ) => {
    if (!event) return;
    event.addListener(listener);
    signal.addEventListener('abort', () => event.removeListener(listener), { once: true });
  };

  registerHandlers({ session, poller, notifier, extension, fetch: options.fetch }, signal);

  async function refresh() {
    await syncProfileScript(await getSettings()).catch(() => undefined);
    return poller.poll();
  }

  listen(browser.alarms.onAlarm, (alarm) => {
    if (alarm.name === POLL_ALARM) void poller.poll();
    if (alarm.name === LIVE_ALARM) live?.onAlarm();
    if (alarm.name === ALERT_FLUSH_ALARM || alarm.name === QUIET_HOURS_ALARM) {
      void getSettings().then((settings) => notifier.onAlarm(alarm.name, settings).catch(() => undefined));
    }
  });
  listen(browser.runtime.onInstalled, ({ reason }) => {
    void (async () => {
      if (reason === 'install') {
        const signedIn = await applyPreset(options.preset ?? buildPreset, session);
        if (!signedIn) await browser.runtime.openOptionsPage();
      }
      await refresh();
    })();
  });
  listen(browser.runtime.onStartup, () => void refresh());
  // The notifications API exists only once its optional permission is granted.
  let clicksHeard = false;
  const hearNotificationClicks = () => {
    if (clicksHeard || !browser.notifications) return;
    clicksHeard = true;
    listen(browser.notifications.onClicked, (id) => void notifier.onClicked(id));
  };
  hearNotificationClicks();
  listen(browser.permissions?.onAdded, () => {
    hearNotificationClicks();
    void refresh();
  });
  listen(browser.permissions?.onRemoved, () => void refresh());
  const unwatchSettings = settingsItem.watch((next, previous) => {
    const before = normalizeSettings(previous);
    const after = normalizeSettings(next);
    void (async () => {
      if (new URL(before.apiBaseUrl).origin !== new URL(after.apiBaseUrl).origin) {
        await Promise.all([poller.reset(), clearInboxCache(), notifier.reset()]);
      }
      await notifier.onSettings(after).catch(() => undefined);
      await refresh();
    })();
  });
  signal.addEventListener('abort', unwatchSettings, { once: true });
  const onConnectivity = () => void poller.poll();
  globalThis.addEventListener?.('online', onConnectivity, { signal });
  globalThis.addEventListener?.('offline', onConnectivity, { signal });

  restrictStorageToTrustedContexts();

  // A worker woken for any reason makes sure a check is scheduled, and the channel is open.
  void browser.alarms.get(POLL_ALARM).then((alarm) => (alarm ? undefined : poller.poll()));
  void live.connect();
  signal.addEventListener('abort', () => live?.stop(), { once: true });

  return { session, poller, notifier, live };
}
