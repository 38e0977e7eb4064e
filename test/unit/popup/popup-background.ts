/**
 * The background as the popup sees it through `ask`: the real message handlers, reached as the
 * popup reaches them, in front of an in-memory service that pages with an opaque keyset cursor
 * and triages over HTTP as the contract says. The handlers write the cached first page, the
 * unread count and the badge as in the product. A test can make the next answer to a message
 * fail, or hold answers back to look at the popup before they arrive.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Notification, NotificationType } from '../../../lib/api/contract';
import { reviveError } from '../../../lib/api/errors';
import { statusItem } from '../../../lib/connection-status';
import {
  type ConnectionStatus,
  type MessageData,
  type MessageReturn,
  type MessageType,
  messaging,
} from '../../../lib/messaging';
import { getSettings } from '../../../lib/settings';
import { signedIn } from '../../support/background';
import { answerMessages, deliver, popupSender } from '../../support/messages';
import { json, problem } from '../../support/recording-fetch';

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

export function createPopupBackground(initial: Notification[] = []) {
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

  function page(query: URLSearchParams): Response {
    const unreadOnly = query.get('unreadOnly') === 'true';
    const limit = Number(query.get('limit'));
    const cursor = query.get('cursor');
    const visible = inbox.filter((item) => !unreadOnly || !item.read);
    let start = 0;
    if (cursor !== null) {
      const [createdAt, id, forUnread] = JSON.parse(atob(cursor)) as [string, string, boolean];
      if (forUnread !== unreadOnly) return problem(400, 'invalid_cursor');
      start = visible.findIndex((item) => isOlder(item, createdAt, id));
      if (start === -1) start = visible.length;
    }
    const data = visible.slice(start, start + limit);
    const last = data.at(-1);
    const more = start + limit < visible.length;
    return json({ data, cursor: more && last ? cursorFor(last, unreadOnly) : null });
  }

  /** Triage operations the service can still undo, by token: the notifications as they were before. */
  const operations = new Map<string, { originals: Notification[]; used: boolean }>();
  let operationCount = 0;
  const newestFirst = (a: Notification, b: Notification) =>
    b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);

  /** A triage answer: `originals` are the notifications the call changed, as they were. */
  function triaged(originals: Notification[]): Response {
    if (originals.length === 0) return json({ success: true, count: 0, undo: null });
    const undo = `op${++operationCount}.signature`;
    operations.set(undo, { originals, used: false });
    return json({ success: true, count: originals.length, undo });
  }

  function mark(selects: (item: Notification) => boolean, read: boolean): Response {
    const originals = inbox.filter((item) => selects(item) && item.read !== read);
    inbox = inbox.map((item) => (originals.includes(item) ? { ...item, read } : item));
    return triaged(originals);
  }

  async function undo(request: Request): Promise<Response> {
    const { undo: token } = (await request.json()) as { undo: string };
    const operation = operations.get(token);
    if (!operation) return problem(400, 'invalid_undo');
    if (operation.used) return problem(410, 'undo_expired');
    operation.used = true;
    const back = new Map(operation.originals.map((item) => [item.id, item]));
    inbox = inbox.map((item) => back.get(item.id) ?? item);
    const present = new Set(inbox.map((item) => item.id));
    inbox = [...inbox, ...operation.originals.filter((item) => !present.has(item.id))].sort(newestFirst);
    return json({ success: true, count: operation.originals.length });
  }

  async function chosen(request: Request) {
    const { ids } = (await request.json()) as { ids: string[] | 'all' };
    const wanted = ids === 'all' ? null : new Set(ids.map((id) => id.toLowerCase()));
    return (item: Notification) => wanted === null || wanted.has(item.id.toLowerCase());
  }

  /** The service: the inbox's pages, its unread count, mark read, mark unread, delete and undo. */
  async function service(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^.*\/inbox\//, '');
    if (request.method === 'GET' && path === 'fetch') return page(url.searchParams);
    if (request.method === 'GET' && path === 'count') return json({ count: unreadCount() });
    if (request.method === 'POST' && path === 'read') return mark(await chosen(request), true);
    if (request.method === 'POST' && path === 'unread') return mark(await chosen(request), false);
    if (request.method === 'POST' && path === 'delete') {
      const selects = await chosen(request);
      const originals = inbox.filter(selects);
      inbox = inbox.filter((item) => !selects(item));
      return triaged(originals);
    }
    if (request.method === 'POST' && path === 'undo') return undo(request);
    return problem(404, 'not_found');
  }

  messaging.removeAllListeners();
  answerMessages((input, init) => service(new Request(input, init)));
  // Signed in with the settings a popup opened earlier left, as a real profile keeps them.
  const ready = getSettings().then((settings) => signedIn(undefined, settings));

  async function answer<T extends MessageType>(type: T, data: MessageData<T>): Promise<unknown> {
    await ready;
    if (type === 'status.get' || type === 'status.refresh') {
      if (status.kind === 'ok') await publish({ count: unreadCount() });
      return status;
    }
    const answered = await deliver(type, data, popupSender);
    if (answered.error) throw answered.error;
    if (type !== 'inbox.fetch') status = await statusItem.getValue();
    return answered.value;
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
    if (failure) throw reviveError(structuredClone(reviveError(failure).toJSON()));
    return (await answer(type, data)) as MessageReturn<T>;
  }

  return {
    ask,
    calls,
    /** Makes every undo the service gave spent, as a minute passing would. */
    expireUndo() {
      for (const operation of operations.values()) operation.used = true;
    },
    /** What the service holds now. */
    get inbox(): readonly Notification[] {
      return inbox;
    },
    get status(): ConnectionStatus {
      return status;
    },
    /** Sets the status, and stores it as the background would have before the popup opened. */
    async setStatus(change: Partial<ConnectionStatus>) {
      await ready;
      await publish(change);
    },
    /** A notification arrives at the service, newest of all, and the live channel tells the popup. */
    async arrive(notification: Notification, sender: { id: string; tab?: unknown } = { id: fakeBrowser.runtime.id }) {
      inbox = [notification, ...inbox];
      await publish({ count: unreadCount() });
      const message = { id: 1, type: 'inbox.arrived', data: { ids: [notification.id] }, timestamp: Date.now() };
      await fakeBrowser.runtime.onMessage.trigger(message, sender as never, () => undefined);
    },
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

export type PopupBackground = ReturnType<typeof createPopupBackground>;
