/** The popup's inbox: its pages, triage and undo, and the status the badge shows. */
import type { Page } from '../../api';
import { writeCachedFirstPage } from '../../inbox-cache';
import { ALL_ACCOUNTS, INBOX_PAGE_SIZE, type TriageResult } from '../../messaging';
import { type TriageAction, triagedPage } from '../../triage-patch';
import type { Handlers } from '../message-gate';
import { outboxState } from '../outbox';
import { statusItem, unreadByTypeItem } from '../stored-items';
import {
  deleteNotifications,
  lastUndo,
  markRead,
  markUnread,
  snooze,
  type TriageAccount,
  undoLast,
  unsnooze,
} from '../triage';
import { type HandlerContext, runtimeOf, signedIn } from './context';
import type { MuteMessage } from './mute-messages';

type InboxMessage = Exclude<
  Extract<keyof Handlers, `inbox.${string}` | `status.${string}` | `outbox.${string}`>,
  MuteMessage
>;

export function inboxHandlers({ runtimes }: HandlerContext): Pick<Handlers, InboxMessage> {
  async function triage(
    request: { account: string },
    act: (account: TriageAccount) => Promise<TriageResult>,
  ): Promise<TriageResult> {
    const { runtime, client } = await signedIn(runtimes, request.account);
    const result = await act({ ...runtime, client });
    if (!result.waiting) runtime.confirmCount();
    return result;
  }

  /**
   * The changes still waiting in the outbox, shown on a page the service gave before it had them.
   * Those that name no notification on the page (a follow, an unsnooze) change nothing.
   */
  async function withWaiting(account: string, page: Page, unreadOnly: boolean): Promise<Page> {
    for (const { kind, ids = [] } of (await runtimes.get(account)?.outbox.entries()) ?? []) {
      page = triagedPage(page, kind as TriageAction, ids, unreadOnly);
    }
    return page;
  }

  return {
    async 'inbox.fetch'({ account, cursor, unreadOnly, types, q, muted }) {
      const { client } = await signedIn(runtimes, account);
      const search = q?.trim() ? { q: q.trim() } : {};
      const filter = { ...(types && types.length > 0 ? { types } : {}), ...search, ...(muted ? { muted } : {}) };
      const page = await withWaiting(
        account,
        await client.inbox.fetch({ limit: INBOX_PAGE_SIZE, cursor, unreadOnly, ...filter }),
        unreadOnly,
      );
      // The cache holds the whole inbox's first page, what the popup paints before any answer.
      if (cursor === null && Object.keys(filter).length === 0) await writeCachedFirstPage(account, unreadOnly, page);
      return { data: page.data.map((item) => ({ ...item, account })), cursor: page.cursor };
    },
    async 'inbox.countByType'({ account }) {
      const { runtime, client } = await signedIn(runtimes, account);
      // Every count the live channel brings has the counts by type with it: while it is up, those
      // kept are the service's latest, and asking again would be a check the channel makes needless.
      const kept = runtime.live.isLive() ? await unreadByTypeItem(account).getValue() : null;
      if (kept) return kept;
      const byType = await client.inbox.countByType();
      await unreadByTypeItem(account).setValue(byType);
      return byType;
    },
    'inbox.markRead': (request) => triage(request, (account) => markRead(account, request)),
    'inbox.delete': (request) => triage(request, (account) => deleteNotifications(account, request)),
    'inbox.markUnread': (request) => triage(request, (account) => markUnread(account, request)),
    'inbox.snooze': (request) => triage(request, (account) => snooze(account, request)),
    async 'inbox.unsnooze'(request) {
      const { runtime, client } = await signedIn(runtimes, request.account);
      const sent = await unsnooze({ ...runtime, client }, request);
      const waiting = sent.held > 0 ? { waiting: true } : {};
      // They come back unread: only the service knows the count they make.
      const status = await runtime.poller.poll();
      const unreadCount = status.kind === 'ok' ? status.count : null;
      return { success: true, count: sent.count + sent.held, unreadCount, undo: null, ...waiting };
    },
    async 'inbox.fetchSnoozed'({ account, cursor }) {
      const { client } = await signedIn(runtimes, account);
      return client.inbox.fetch({ limit: INBOX_PAGE_SIZE, cursor, snoozed: true });
    },
    async 'inbox.undo'() {
      const { accounts: undone, count } = await undoLast(
        async (id) => (await signedIn(runtimes, id)).client,
        Date.now(),
        (id) => runtimes.get(id)?.outbox,
      );
      // The badge follows at once: only the service knows how many of those put back are unread.
      const statuses = await Promise.all(undone.map(async (id) => (await runtimeOf(runtimes, id)).poller.poll()));
      const status = statuses.length === 1 ? statuses[0] : null;
      return { count, unreadCount: status?.kind === 'ok' ? status.count : null };
    },
    'inbox.lastUndo': () => lastUndo(),
    async 'outbox.state'({ account }) {
      await runtimes.sync();
      const all = runtimes.all().map((runtime) => runtime.id);
      return outboxState(account === ALL_ACCOUNTS ? all : all.filter((id) => id === account));
    },
    async 'outbox.dismiss'({ account }) {
      await runtimes.sync();
      for (const runtime of runtimes.all())
        if (account === ALL_ACCOUNTS || runtime.id === account) await runtime.outbox.clear();
    },
    'status.get': () => statusItem.getValue(),
    async 'status.refresh'() {
      await runtimes.sync();
      await Promise.all(runtimes.all().map((runtime) => runtime.poller.poll()));
      return statusItem.getValue();
    },
    async 'status.account'({ account }) {
      return (await runtimeOf(runtimes, account)).status.get();
    },
  };
}
