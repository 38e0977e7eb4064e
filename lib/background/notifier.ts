/**
 * Desktop alerts, when the person turned them on: a system notification when new unread
 * notifications of the types they chose arrive; clicking it opens the page, or the popup.
 * - Several arrivals close together make one alert with a count: the first is shown at once,
 *   and what follows within a few seconds waits and then updates that alert, once.
 * - During quiet hours nothing is shown (the badge keeps counting); what came is counted, and
 *   when they end one digest alert says what, and opens the popup on those types.
 * - Where the browser shows buttons on an alert (Chrome; Firefox has none), a single alert offers
 *   "Mark read" and "Snooze 1 h", and one that stands for several "Mark all N read": each acts as
 *   the popup's own buttons do, through the background's triage, and the alert closes.
 * Each account has its own alerts and collapses its own arrivals; the quiet hours are the
 * person's, so one digest says what came across all accounts.
 * Everything to remember lives in storage and every wake-up has an alarm, since the browser may
 * stop the worker at any time; time comes from the clock the notifier is given.
 */
import { browser } from 'wxt/browser';
import { perAccountKey } from '../accounts';
import type { CoreClient, Notification, NotificationType } from '../api';
import { toolbarButton } from '../browser-api';
import { t, tn } from '../i18n';
import { setInboxFilter } from '../inbox-filter';
import { openableUrl } from '../links';
import { isQuiet, quietHoursEnd } from '../quiet-hours';
import { localTimeZone, type Settings } from '../settings';
import { storedItem, storedKey } from '../stored';
import { type Clock, realClock } from './clock';
import { perAccountItem } from './stored-items';

const MAX_LISTED = 5;
const NEWEST_PAGE = 20;
/** Arrivals this close after an alert join it rather than raising another. */
export const ALERT_WINDOW_MS = 4_000;
/** Wakes the worker to show an account's collapsed arrivals, should it be stopped meanwhile. */
export const ALERT_FLUSH_ALARM_PREFIX = 'alerts-flush:';
export const alertFlushAlarmName = (accountId: string) => `${ALERT_FLUSH_ALARM_PREFIX}${accountId}`;
/** Wakes the worker when the quiet hours end, to show the digest. */
export const QUIET_HOURS_ALARM = 'quiet-hours-end';
const DIGEST_PREFIX = 'digest-';
/** How long "Snooze 1 h" snoozes. */
export const ALERT_SNOOZE_MS = 3_600_000;
/** Notifications one "Mark all read" of an alert stands for, at most. */
const MAX_ALERT_IDS = 1_000;
/** The digest lists types in this order: what people answer first. */
const DIGEST_ORDER: readonly NotificationType[] = ['mention', 'reply', 'follow', 'like', 'system'];

interface Marker {
  createdAt: string;
  id: string;
}

/** An alert on screen, and what joined it since; `pending` waits for the window to close. */
interface Burst {
  id: string;
  /** When the alert was last shown or updated. */
  at: number;
  /** Everything the alert stands for, newest first (the newest few kept for its text). */
  items: Notification[];
  count: number;
  pending: number;
  /** Every notification it stands for, newest first, for its "Mark all read". */
  ids?: string[];
}

/** What a button on an alert does. */
export type AlertButton = 'markRead' | 'snooze' | 'markAllRead';

/**
 * What a button does, as the popup's own buttons do it: through the background's triage, with an
 * undo the popup offers and the badge following at once.
 */
export interface AlertActions {
  markRead(account: string, ids: string[], join: boolean): Promise<unknown>;
  snooze(account: string, ids: string[], until: string): Promise<unknown>;
}

interface NotifierState {
  /** The newest unread notification already seen (or already there when alerts began). */
  newest: Marker | null;
  /** What each shown system notification opens when clicked. */
  shown: Record<string, { url: string | null; ids: string[]; buttons?: AlertButton[] }>;
  burst?: Burst | null;
}

/** One account's alerts. */
export const notifierStateItem = perAccountItem(
  perAccountKey<NotifierState>('desktopNotifications', { newest: null, shown: {} }),
);

type DigestCounts = Partial<Record<NotificationType, number>>;

interface DigestState {
  /** What came during quiet hours on every account, by type. */
  held: DigestCounts | null;
  /** The types each digest on screen opens the popup on. */
  shown: Record<string, NotificationType[]>;
  /** What came during quiet hours on each account: what the digest's "Mark all read" marks. */
  heldIds?: Record<string, string[]>;
  /** The same, for each digest on screen. */
  shownIds?: Record<string, Record<string, string[]>>;
}

export const digestStateItem = storedItem(storedKey<DigestState>('local:quietHoursDigest', { held: null, shown: {} }));

/** The account an alert belongs to: its id starts with the account's; a digest belongs to none. */
export const notificationAccount = (notificationId: string) => notificationId.split('/')[0] ?? '';
export const isDigest = (notificationId: string) => notificationId.startsWith(DIGEST_PREFIX);

/** One change at a time: arrivals come in quick succession, and every account's go to one digest. */
function serialQueue() {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
}
const digestSerial = serialQueue();

const isNewer = (item: Marker, than: Marker | null) =>
  than === null || item.createdAt > than.createdAt || (item.createdAt === than.createdAt && item.id > than.id);

/**
 * Chrome shows an alert's buttons; Firefox has none and refuses an alert that asks for them
 * (only Firefox has `runtime.getBrowserInfo`).
 */
const buttonsShown = () =>
  browser.notifications.onButtonClicked !== undefined &&
  typeof (browser.runtime as { getBrowserInfo?: unknown }).getBrowserInfo !== 'function';

async function allowed(): Promise<boolean> {
  return browser.permissions.contains({ permissions: ['notifications'] });
}

/** "3 mentions, 1 reply, 12 likes" */
export function digestText(counts: DigestCounts): string {
  return DIGEST_ORDER.filter((type) => (counts[type] ?? 0) > 0)
    .map((type) => tn(`notify_count_${type}`, counts[type] ?? 0))
    .join(', ');
}

export interface Notifier {
  /** Called after each successful count check. */
  onCount(previous: number | null, count: number, settings: Settings): Promise<void>;
  /** A notification pushed by the live channel. */
  onArrival(notification: Notification, settings: Settings): Promise<void>;
  /**
   * A click on a system notification: opens its page, and marks it read through the popup's own
   * path when `markRead` (the "mark read when opened" setting) says so; or opens the popup.
   */
  onClicked(notificationId: string, actions: AlertActions, markRead: boolean): Promise<void>;
  /** A click on one of an alert's buttons: does what it says, and closes the alert. */
  onButtonClicked(notificationId: string, buttonIndex: number, actions: AlertActions): Promise<void>;
  /** Its alarm to show collapsed arrivals fired. */
  onFlushAlarm(): Promise<void>;
  reset(): Promise<void>;
}

const enabled = async (settings: Settings) => settings.desktopNotifications && (await allowed());

/** An alert's buttons as the browser shows them, or none where it shows none. */
function buttonsOf(buttons: AlertButton[], count: number): { buttons?: { title: string }[] } {
  if (buttons.length === 0 || !buttonsShown()) return {};
  const title = (button: AlertButton) =>
    button === 'markAllRead'
      ? tn('notify_markAllRead', count)
      : t(button === 'snooze' ? 'notify_snooze' : 'notify_markRead');
  return { buttons: buttons.map((button) => ({ title: title(button) })) };
}

async function showAlert(
  id: string,
  options: { title: string; message: string },
  buttons: AlertButton[] = [],
  count = 1,
): Promise<AlertButton[]> {
  const shown = buttonsOf(buttons, count);
  await browser.notifications.create(id, {
    type: 'basic',
    iconUrl: browser.runtime.getURL('/icon/128.png'),
    ...options,
    ...shown,
  });
  return shown.buttons ? buttons : [];
}

async function openPopup(types: NotificationType[] | undefined): Promise<void> {
  if (types) await setInboxFilter(types);
  try {
    const button = toolbarButton();
    if (!button.openPopup) throw new Error('No openPopup here.');
    await button.openPopup();
  } catch {
    // The browser opens the popup only from the toolbar button, or with a window in focus:
    // the same page in a tab instead.
    await browser.tabs.create({ url: browser.runtime.getURL('/popup.html') });
  }
}

/** Counts what came during quiet hours, and makes sure their end wakes the worker. */
function holdForDigest(accountId: string, items: Notification[], settings: Settings, clock: Clock): Promise<void> {
  return digestSerial(async () => {
    const state = await digestStateItem.getValue();
    const held = { ...state.held };
    for (const item of items) held[item.type] = (held[item.type] ?? 0) + 1;
    const ids = [...items.map((item) => item.id), ...(state.heldIds?.[accountId] ?? [])].slice(0, MAX_ALERT_IDS);
    await digestStateItem.setValue({ ...state, held, heldIds: { ...state.heldIds, [accountId]: ids } });
    const end = quietHoursEnd(settings.quietHours, clock.now(), localTimeZone());
    if (end !== null) await browser.alarms.create(QUIET_HOURS_ALARM, { when: end });
  });
}

/** The one alert that says what came on every account during quiet hours, if any of it may raise an alert. */
async function sendDigest(settings: Settings, clock: Clock): Promise<void> {
  const state = await digestStateItem.getValue();
  const held = state.held ?? {};
  const heldIds = state.heldIds ?? {};
  await digestStateItem.setValue({ ...state, held: null, heldIds: {} });
  await browser.alarms.clear(QUIET_HOURS_ALARM);
  const types = DIGEST_ORDER.filter((type) => (held[type] ?? 0) > 0);
  if (!types.some((type) => settings.alertTypes[type]) || !(await enabled(settings))) return;
  const id = `${DIGEST_PREFIX}${clock.now()}`;
  const count = Object.values(heldIds).reduce((sum, ids) => sum + ids.length, 0);
  const buttons = await showAlert(
    id,
    { title: t('notify_digestTitle'), message: t('notify_digest', digestText(held)) },
    count > 0 ? ['markAllRead'] : [],
    count,
  );
  const after = await digestStateItem.getValue();
  await digestStateItem.setValue({
    ...after,
    shown: { ...after.shown, [id]: types },
    ...(buttons.length > 0 ? { shownIds: { ...after.shownIds, [id]: heldIds } } : {}),
  });
}

/** The digest of the quiet hours, shared by every account. */
export interface Digest {
  /** The quiet hours' alarm fired. */
  onAlarm(settings: Settings): Promise<void>;
  /** The settings changed: quiet hours may have ended or moved, alerts may be off. */
  onSettings(settings: Settings): Promise<void>;
  /** A click on a digest: opens the popup on the types it speaks of. */
  onClicked(notificationId: string): Promise<void>;
  /** Its "Mark all N read": marks read what it speaks of on every account, as one undoable action. */
  onButtonClicked(notificationId: string, actions: AlertActions): Promise<void>;
}

/** Forgets a digest on screen and closes it; what it stood for. */
async function takeDigest(notificationId: string) {
  const state = await digestStateItem.getValue();
  await browser.notifications.clear(notificationId);
  const { [notificationId]: types, ...shown } = state.shown;
  const { [notificationId]: ids, ...shownIds } = state.shownIds ?? {};
  await digestStateItem.setValue({ ...state, shown, shownIds });
  return { types, ids };
}

export function createDigest(clock: Clock = realClock): Digest {
  return {
    // The alarm was set for the end of the quiet hours, and moved whenever they changed.
    onAlarm: (settings) => digestSerial(() => sendDigest(settings, clock)),
    onSettings: (settings) =>
      digestSerial(async () => {
        if (!(await digestStateItem.getValue()).held) return;
        const end = quietHoursEnd(settings.quietHours, clock.now(), localTimeZone());
        if (end === null) await sendDigest(settings, clock);
        else await browser.alarms.create(QUIET_HOURS_ALARM, { when: end });
      }),
    async onClicked(notificationId) {
      const { types } = await takeDigest(notificationId);
      if (types) await openPopup(types);
    },
    async onButtonClicked(notificationId, actions) {
      const { ids } = await takeDigest(notificationId);
      let join = false;
      for (const [account, list] of Object.entries(ids ?? {})) {
        if (list.length === 0) continue;
        await actions.markRead(account, list, join).catch(() => undefined);
        join = true;
      }
    },
  };
}

export interface NotifierOptions {
  clock?: Clock;
  /**
   * Aborts when the account stops running here. What is to show stays stored, and its alarm
   * set, for the next to run the account.
   */
  signal?: AbortSignal;
}

export function createNotifier(
  accountId: string,
  getClient: () => Promise<CoreClient>,
  { clock = realClock, signal }: NotifierOptions = {},
): Notifier {
  const stateItem = notifierStateItem(accountId);
  const flushAlarm = alertFlushAlarmName(accountId);
  let flushTimer: unknown = null;
  const serial = serialQueue();
  const stopFlushTimer = () => {
    if (flushTimer !== null) clock.clearTimeout(flushTimer);
    flushTimer = null;
  };
  signal?.addEventListener('abort', stopFlushTimer, { once: true });

  async function show(
    id: string,
    options: { title: string; message: string },
    target: NotifierState['shown'][string],
  ): Promise<void> {
    const wanted = target.buttons ?? [];
    const buttons = await showAlert(id, options, wanted, target.ids.length);
    const state = await stateItem.getValue();
    await stateItem.setValue({ ...state, shown: { ...state.shown, [id]: { ...target, buttons } } });
  }

  /** One alert for `items` (newest first) standing for `count` notifications, `ids` all of them. */
  async function alert(id: string, items: Notification[], count: number, ids: string[]): Promise<void> {
    const [first] = items;
    if (!first) return;
    const single = count === 1;
    await show(
      id,
      {
        title: single ? (first.actor?.displayName ?? t('extName')) : tn('notify_new', count),
        message: single
          ? first.text
          : items
              .slice(0, MAX_LISTED)
              .map((item) => item.text)
              .join('\n'),
      },
      single
        ? { url: first.url, ids: [first.id], buttons: ['markRead', 'snooze'] }
        : { url: null, ids, buttons: ids.length > 0 ? ['markAllRead'] : [] },
    );
  }

  function scheduleFlush(at: number): void {
    stopFlushTimer();
    if (!signal?.aborted) {
      flushTimer = clock.setTimeout(
        () => {
          flushTimer = null;
          void serial(flush);
        },
        Math.max(0, at - clock.now()),
      );
    }
    // The timer is lost if the browser stops the worker meanwhile; the alarm wakes it again.
    void browser.alarms.create(flushAlarm, { when: at });
  }

  /** Shows what joined the alert on screen since it was shown, as one update of it. */
  async function flush(): Promise<void> {
    const state = await stateItem.getValue();
    const burst = state.burst;
    if (!burst || burst.pending === 0) return;
    const now = clock.now();
    if (now < burst.at + ALERT_WINDOW_MS) {
      scheduleFlush(burst.at + ALERT_WINDOW_MS);
      return;
    }
    await stateItem.setValue({ ...state, burst: { ...burst, at: now, pending: 0 } });
    await alert(burst.id, burst.items, burst.count, burst.ids ?? []);
  }

  /** New unread notifications, newest first: an alert now, a share of one soon, or the digest. */
  async function deliver(items: Notification[], settings: Settings): Promise<void> {
    const now = clock.now();
    if (isQuiet(settings.quietHours, now, localTimeZone())) {
      await holdForDigest(accountId, items, settings, clock);
      return;
    }
    const alerting = items.filter((item) => settings.alertTypes[item.type]);
    if (alerting.length === 0) return;
    const state = await stateItem.getValue();
    const burst = state.burst;
    if (burst && now - burst.at < ALERT_WINDOW_MS) {
      const joined = {
        ...burst,
        items: [...alerting, ...burst.items].slice(0, MAX_LISTED),
        count: burst.count + alerting.length,
        pending: burst.pending + alerting.length,
        ids: [...alerting.map((item) => item.id), ...(burst.ids ?? [])].slice(0, MAX_ALERT_IDS),
      };
      await stateItem.setValue({ ...state, burst: joined });
      scheduleFlush(burst.at + ALERT_WINDOW_MS);
      return;
    }
    const [first] = alerting;
    const id = `${accountId}/inbox-${first?.id}`;
    const items5 = alerting.slice(0, MAX_LISTED);
    const ids = alerting.map((item) => item.id).slice(0, MAX_ALERT_IDS);
    await stateItem.setValue({
      ...state,
      burst: { id, at: now, items: items5, count: alerting.length, pending: 0, ids },
    });
    await alert(id, items5, alerting.length, ids);
  }

  /** Forgets an alert on screen, and what joins it, and closes it; what it stood for. */
  async function take(notificationId: string) {
    const state = await stateItem.getValue();
    const target = state.shown[notificationId];
    await browser.notifications.clear(notificationId);
    const { [notificationId]: _, ...rest } = state.shown;
    const burst = state.burst?.id === notificationId ? null : state.burst;
    await stateItem.setValue({ ...state, shown: rest, burst });
    return target;
  }

  /** Notes the newest seen and keeps only what is newer than what was seen before. */
  async function unseen(items: Notification[]): Promise<Notification[]> {
    const state = await stateItem.getValue();
    const fresh = state.newest === null ? [] : items.filter((item) => !item.read && isNewer(item, state.newest));
    const [newest] = items;
    if (newest && isNewer(newest, state.newest)) {
      await stateItem.setValue({ ...state, newest: { createdAt: newest.createdAt, id: newest.id } });
    }
    return fresh;
  }

  return {
    onCount: (previous, count, settings) =>
      serial(async () => {
        if (count === 0 || !(await enabled(settings))) return;
        const state = await stateItem.getValue();
        if (previous !== null && count <= previous && state.newest !== null) return;
        const client = await getClient();
        const { data } = await client.inbox.fetch({ unreadOnly: true, limit: NEWEST_PAGE });
        const fresh = await unseen(data);
        if (fresh.length > 0) await deliver(fresh, settings);
      }),

    onArrival: (notification, settings) =>
      serial(async () => {
        if (notification.read || !(await enabled(settings))) return;
        // Already seen by a check of the count, or older than what was there when this began.
        const state = await stateItem.getValue();
        if (!isNewer(notification, state.newest)) return;
        await stateItem.setValue({
          ...state,
          newest: { createdAt: notification.createdAt, id: notification.id },
        });
        await deliver([notification], settings);
      }),

    async onClicked(notificationId, actions, markRead) {
      const target = await take(notificationId);
      if (!target) return;
      const url = openableUrl(target.url);
      if (url) {
        await browser.tabs.create({ url });
        if (markRead && target.ids.length) await actions.markRead(accountId, target.ids, false);
      } else {
        // Several at once: the inbox shows them.
        await openPopup(undefined);
      }
    },

    async onButtonClicked(notificationId, buttonIndex, actions) {
      const target = await take(notificationId);
      const button = target?.buttons?.[buttonIndex];
      if (!target || !button || target.ids.length === 0) return;
      if (button === 'snooze') {
        await actions.snooze(accountId, target.ids, new Date(clock.now() + ALERT_SNOOZE_MS).toISOString());
      } else {
        await actions.markRead(accountId, target.ids, false);
      }
    },

    onFlushAlarm: () => serial(flush),

    async reset() {
      stopFlushTimer();
      await Promise.all([stateItem.removeValue(), browser.alarms.clear(flushAlarm)]);
    },
  };
}
