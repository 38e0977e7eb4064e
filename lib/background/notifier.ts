/**
 * Desktop notifications, when the person turned them on: one system notification when new
 * unread notifications arrive, grouped when there are several; clicking it opens the page.
 */
import { browser } from 'wxt/browser';
import { perAccountItem } from '../accounts';
import type { Client, Notification } from '../api';
import { t, tn } from '../i18n';
import { openableUrl } from '../links';
import type { Settings } from '../settings';

const MAX_LISTED = 5;
const NEWEST_PAGE = 20;
/** Notifications arriving on the live channel this close together are shown as one group. */
export const ARRIVAL_GROUP_MS = 4_000;

interface Marker {
  createdAt: string;
  id: string;
}

interface NotifierState {
  /** The newest unread notification already announced (or already there when announcing began). */
  newest: Marker | null;
  /** What each shown system notification opens when clicked. */
  shown: Record<string, { url: string | null; ids: string[] }>;
}

/** One account's announcements. */
export const notifierStateItem = perAccountItem<NotifierState>('desktopNotifications', { newest: null, shown: {} });

/** The account a system notification belongs to: its id starts with the account's. */
export const notificationAccount = (notificationId: string) => notificationId.split('/')[0] ?? '';

const isNewer = (item: Marker, than: Marker | null) =>
  than === null || item.createdAt > than.createdAt || (item.createdAt === than.createdAt && item.id > than.id);

async function allowed(): Promise<boolean> {
  return browser.permissions.contains({ permissions: ['notifications'] });
}

export interface Notifier {
  /** Called after each successful count check. */
  onCount(previous: number | null, count: number, settings: Settings): Promise<void>;
  /**
   * A notification pushed by the live channel: shown at once; one arriving within a few seconds
   * of the last joins it, and the system notification is replaced by one for the group.
   */
  onArrival(notification: Notification, settings: Settings): Promise<void>;
  /** A click on a system notification: opens its page and marks it read. */
  onClicked(notificationId: string): Promise<void>;
  reset(): Promise<void>;
}

export function createNotifier(
  accountId: string,
  getClient: () => Promise<Client>,
  now: () => number = Date.now,
): Notifier {
  const stateItem = notifierStateItem(accountId);
  const idFor = (notification: Notification) => `${accountId}/inbox-${notification.id}`;
  /** The live arrivals shown last, newest first, under one system notification id. */
  let group: { id: string; items: Notification[]; lastAt: number } | null = null;

  async function announce(items: Notification[], state: NotifierState, groupId?: string): Promise<void> {
    const [first] = items;
    if (!first) return;
    const id = groupId ?? idFor(first);
    const single = items.length === 1;
    await browser.notifications.create(id, {
      type: 'basic',
      iconUrl: browser.runtime.getURL('/icon/128.png'),
      title: single ? (first.actor?.displayName ?? t('extName')) : tn('notify_new', items.length),
      message: single
        ? first.text
        : items
            .slice(0, MAX_LISTED)
            .map((item) => item.text)
            .join('\n'),
    });
    const shown = { ...state.shown, [id]: { url: single ? first.url : null, ids: single ? [first.id] : [] } };
    await stateItem.setValue({ newest: state.newest, shown });
  }

  return {
    async onCount(previous, count, settings) {
      if (!settings.desktopNotifications || count === 0 || !(await allowed())) return;
      const state = await stateItem.getValue();
      if (previous !== null && count <= previous && state.newest !== null) return;
      const client = await getClient();
      const { data } = await client.inbox.fetch({ unreadOnly: true, limit: NEWEST_PAGE });
      const [newest] = data;
      if (!newest) return;
      const fresh = state.newest === null ? [] : data.filter((item) => isNewer(item, state.newest));
      const next = {
        ...state,
        newest: isNewer(newest, state.newest) ? { createdAt: newest.createdAt, id: newest.id } : state.newest,
      };
      await stateItem.setValue(next);
      await announce(fresh, next);
    },

    async onArrival(notification, settings) {
      if (!settings.desktopNotifications || notification.read || !(await allowed())) return;
      const state = await stateItem.getValue();
      // Already announced by a check of the count, or older than what was there when this began.
      if (!isNewer(notification, state.newest)) return;
      const at = now();
      group =
        group && at - group.lastAt <= ARRIVAL_GROUP_MS
          ? { ...group, items: [notification, ...group.items], lastAt: at }
          : { id: idFor(notification), items: [notification], lastAt: at };
      const next = { ...state, newest: { createdAt: notification.createdAt, id: notification.id } };
      await stateItem.setValue(next);
      await announce(group.items, next, group.id);
    },

    async onClicked(notificationId) {
      const state = await stateItem.getValue();
      const target = state.shown[notificationId];
      await browser.notifications.clear(notificationId);
      const { [notificationId]: _, ...rest } = state.shown;
      await stateItem.setValue({ ...state, shown: rest });
      if (!target) return;
      const url = openableUrl(target.url);
      if (url) {
        await browser.tabs.create({ url });
        if (target.ids.length) await (await getClient()).inbox.markRead(target.ids);
      } else {
        // Several at once, or nothing to open: show the inbox instead where the browser allows it.
        try {
          await browser.action.openPopup?.();
        } catch {
          // Older browsers open the popup only from the toolbar button.
        }
      }
    },

    async reset() {
      group = null;
      await stateItem.removeValue();
    },
  };
}
