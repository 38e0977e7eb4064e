/**
 * The background as the popup sees it through `ask`: an in-memory inbox that pages with an
 * opaque keyset cursor, triages, keeps the unread count and writes the cached first page to
 * real (fake-browser) storage as the real background does. A test can make the next answer to a
 * message fail, or hold answers back to look at the popup before they arrive.
 */
import type { Notification, NotificationType } from '../../../lib/api/contract';
import { UndoExpiredError } from '../../../lib/api/errors';
import { statusItem } from '../../../lib/connection-status';
import { writeCachedFirstPage } from '../../../lib/inbox-cache';
import {
  type ConnectionStatus,
  INBOX_PAGE_SIZE,
  type MessageData,
  type MessageReturn,
  type MessageType,
  type UndoableAction,
  type UndoOffer,
} from '../../../lib/messaging';

const TYPES: NotificationType[] = ['follow', 'mention', 'reply', 'like', 'system'];
const START = Date.parse('2026-11-21T12:00:00.000Z');

export const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Notification `n` of a made-up inbox; a higher `n` is newer. Every third one is read. */
export function makeNotification(n: number, change: Partial<Notification> = {}): Notification {
  const username = `user${n}`;
  return {
    id: idOf(n),
    read: n % 3 === 0,
    type: TYPES[n % TYPES.length] ?? 'system',
    createdAt: new Date(START - (1000 - n) * 60_000).toISOString(),
    actor: { username, displayName: `User ${n}` },
    text: `Notification number ${n}`,
    url: `http://127.0.0.1:8787/@${username}`,
    ...change,
  };
}

/** Notifications 1..count, newest first. */
export function makeInbox(count: number, change: (n: number) => Partial<Notification> = () => ({})): Notification[] {
  return Array.from({ length: count }, (_, i) => makeNotification(count - i, change(count - i)));
}

interface Call {
  type: MessageType;
  data: unknown;
}

interface Held {
  type: MessageType;
  release(): void;
}

export function createFakeBackground(initial: Notification[] = []) {
  let inbox = [...initial];
  const calls: Call[] = [];
  const failures = new Map<MessageType, Error[]>();
  const holding = new Set<MessageType>();
  const held: Held[] = [];
  let status: ConnectionStatus = {
    kind: 'ok',
    count: initial.filter((item) => !item.read).length,
    checkedAt: START,
    nextCheckAt: null,
    detail: null,
  };

  /** Changes the status and stores it, as the background does for the badge and every page. */
  async function publish(change: Partial<ConnectionStatus>) {
    status = { ...status, ...change };
    await statusItem.setValue(status);
  }

  const unreadCount = () => inbox.filter((item) => !item.read).length;
  const cursorFor = (item: Notification, unreadOnly: boolean) =>
    btoa(JSON.stringify([item.createdAt, item.id, unreadOnly]));
  /** Keyset order, newest first: whether `item` comes after the item at `createdAt`, `id`. */
  const isOlder = (item: Notification, createdAt: string, id: string) =>
    item.createdAt < createdAt || (item.createdAt === createdAt && item.id < id);

  function page({ cursor, unreadOnly }: MessageData<'inbox.fetch'>) {
    const visible = inbox.filter((item) => !unreadOnly || !item.read);
    let start = 0;
    if (cursor !== null) {
      const [createdAt, id, forUnread] = JSON.parse(atob(cursor)) as [string, string, boolean];
      if (forUnread !== unreadOnly) throw new Error('cursor issued for the other list');
      start = visible.findIndex((item) => isOlder(item, createdAt, id));
      if (start === -1) start = visible.length;
    }
    const data = visible.slice(start, start + INBOX_PAGE_SIZE);
    const last = data.at(-1);
    const more = start + INBOX_PAGE_SIZE < visible.length;
    return { data: structuredClone(data), cursor: more && last ? cursorFor(last, unreadOnly) : null };
  }

  function matching(ids: MessageData<'inbox.markRead'>['ids']) {
    return ids === 'all' ? () => true : (item: Notification) => ids.includes(item.id);
  }

  /** The last action that changed something, with the notifications as they were before it. */
  let last: { offer: UndoOffer; originals: Notification[] } | null = null;
  const newestFirst = (a: Notification, b: Notification) =>
    b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);

  function remember(action: UndoableAction, ids: MessageData<'inbox.markRead'>['ids'], originals: Notification[]) {
    if (originals.length === 0) return null;
    const offer = { action, all: ids === 'all', count: originals.length, expiresAt: Date.now() + 58_000 };
    last = { offer, originals };
    return offer;
  }

  /** Marks the chosen notifications read or unread; the result the background answers. */
  async function mark(action: 'markRead' | 'markUnread', ids: MessageData<'inbox.markRead'>['ids']) {
    const selects = matching(ids);
    const read = action === 'markRead';
    const originals = inbox.filter((item) => selects(item) && item.read !== read);
    inbox = inbox.map((item) => (originals.includes(item) ? { ...item, read } : item));
    await publish({ count: unreadCount() });
    const undo = remember(action, ids, originals);
    return { success: true, count: originals.length, unreadCount: unreadCount(), undo };
  }

  async function answer<T extends MessageType>(type: T, data: MessageData<T>): Promise<unknown> {
    switch (type) {
      case 'inbox.fetch': {
        const request = data as MessageData<'inbox.fetch'>;
        const result = page(request);
        if (request.cursor === null) await writeCachedFirstPage(request.unreadOnly, result);
        return result;
      }
      case 'inbox.markRead':
        return mark('markRead', (data as MessageData<'inbox.markRead'>).ids);
      case 'inbox.markUnread':
        return mark('markUnread', (data as MessageData<'inbox.markUnread'>).ids);
      case 'inbox.delete': {
        const { ids } = data as MessageData<'inbox.delete'>;
        const selects = matching(ids);
        const originals = inbox.filter(selects);
        inbox = inbox.filter((item) => !selects(item));
        await publish({ count: unreadCount() });
        const undo = remember('delete', ids, originals);
        return { success: true, count: originals.length, unreadCount: unreadCount(), undo };
      }
      case 'inbox.undo': {
        const undoing = last;
        last = null;
        if (!undoing || undoing.offer.expiresAt <= Date.now()) {
          throw new UndoExpiredError({ status: 410, code: 'undo_expired', detail: 'Nothing to undo.' });
        }
        const back = new Map(undoing.originals.map((item) => [item.id, item]));
        inbox = inbox.map((item) => back.get(item.id) ?? item);
        const present = new Set(inbox.map((item) => item.id));
        inbox = [...inbox, ...undoing.originals.filter((item) => !present.has(item.id))].sort(newestFirst);
        await publish({ count: unreadCount() });
        return { count: undoing.originals.length, unreadCount: unreadCount() };
      }
      case 'inbox.lastUndo':
        return last && last.offer.expiresAt > Date.now() ? last.offer : null;
      case 'status.get':
      case 'status.refresh':
        if (status.kind === 'ok') await publish({ count: unreadCount() });
        return status;
      default:
        throw new Error(`the popup does not send ${type}`);
    }
  }

  async function ask<T extends MessageType>(type: T, ...rest: unknown[]): Promise<MessageReturn<T>> {
    const data = rest[0] as MessageData<T>;
    calls.push({ type, data: structuredClone(data) });
    const wait = () => new Promise<void>((release) => held.push({ type, release }));
    const failure = failures.get(type)?.shift();
    // A held page is the service's answer still on its way; a held change has not reached it yet.
    if (type === 'inbox.fetch' && !failure) {
      const result = await answer(type, data);
      if (holding.has(type)) await wait();
      return result as MessageReturn<T>;
    }
    if (holding.has(type)) await wait();
    if (failure) throw failure;
    return (await answer(type, data)) as MessageReturn<T>;
  }

  return {
    ask,
    calls,
    /** Forgets the last action, as a minute passing would. */
    expireUndo() {
      last = null;
    },
    /** What the service holds now. */
    get inbox(): readonly Notification[] {
      return inbox;
    },
    get status(): ConnectionStatus {
      return status;
    },
    /** Sets the status, and stores it as the background would have before the popup opened. */
    setStatus: publish,
    /** The next answer to `type` (one per call) fails with `error`. */
    failNext(type: MessageType, ...errors: Error[]) {
      failures.set(type, [...(failures.get(type) ?? []), ...errors]);
    },
    /** Answers to `type` wait until released. */
    hold(type: MessageType) {
      holding.add(type);
    },
    /** Lets the latest held answer go, ahead of earlier ones. */
    releaseLatest() {
      held.pop()?.release();
    },
    /** Lets every held answer go, and stops holding. */
    releaseAll() {
      holding.clear();
      for (const call of held.splice(0)) call.release();
    },
    callsOf(type: MessageType) {
      return calls.filter((call) => call.type === type).map((call) => call.data);
    },
  };
}

export type FakeBackground = ReturnType<typeof createFakeBackground>;
