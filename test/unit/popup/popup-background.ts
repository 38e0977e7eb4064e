/**
 * The background as the popup sees it through `ask`: the real message handlers and poller,
 * reached as the popup reaches them, in front of an in-memory service that pages with an opaque
 * keyset cursor and triages over HTTP as the contract says. Every status the popup shows comes
 * from the real poller checking that service, so a test chooses how the service and the browser
 * around it behave (signed out, no host permission, offline, a service in trouble), never the
 * status itself. A test can make the next answer to a message fail, or hold answers back to look
 * at the popup before they arrive.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { LIMITS, NOTIFICATION_TYPES, type Notification, type NotificationType } from '../../../lib/api/contract';
import { reviveError } from '../../../lib/api/errors';
import { forgetToken } from '../../../lib/background/account-store';
import { serviceOrder } from '../../../lib/inbox-order';
import {
  MESSAGE_SCOPE,
  type MessageData,
  type MessageReturn,
  type MessageType,
  messaging,
} from '../../../lib/messaging';
import { hasApiPermission, originPattern } from '../../../lib/permissions';
import { getSettings } from '../../../lib/settings';
import { ACCOUNT, signedIn } from '../../support/background';
import { answerMessages, answersKeptForTheTest, deliver, optionsSender, popupSender } from '../../support/messages';
import { json, problem } from '../../support/recording-fetch';

const TYPES: NotificationType[] = ['follow', 'mention', 'reply', 'like', 'system'];
const START = Date.parse('2026-11-21T12:00:00.000Z');

export const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Notification `n` of a made-up inbox; a higher `n` is newer. Every third one is read. */
export function makeNotification(n: number, change: Partial<Notification> = {}): Notification {
  const username = `user${n}`;
  const createdAt = new Date(START - (1000 - n) * 60_000).toISOString();
  return {
    id: idOf(n),
    read: n % 3 === 0,
    type: TYPES[n % TYPES.length] ?? 'system',
    createdAt,
    actor: { username, displayName: `User ${n}` },
    text: `Notification number ${n}`,
    url: `http://127.0.0.1:8787/@${username}`,
    snoozedUntil: null,
    sortedAt: change.createdAt ?? createdAt,
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

/** An answer the service gives instead of the contract's, or nothing for the contract's own. */
export type Trouble = (request: Request) => Response | undefined;

/** Ways a service can answer that the popup has words for. */
export const trouble = {
  /** The token is unknown or revoked. */
  unauthorized: (): Response => problem(401, 'unauthenticated'),
  /** The service asks to slow down for `seconds`. */
  rateLimited:
    (seconds: number): Trouble =>
    () =>
      problem(429, 'rate_limited', { 'retry-after': String(seconds) }),
  /** The service has a problem of its own, and says so in its words. */
  serverError: (): Response => problem(500, 'internal_error'),
  /** A web page answers at the API's address: not the inbox service. */
  webPage: (): Response =>
    new Response('<!doctype html><title>Welcome</title><h1>Welcome</h1>', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    }),
  /** Nothing accepts the connection: fetch rejects, as it does with no answer. */
  unreachable: (): Response => {
    throw new TypeError('fetch failed');
  },
};

export interface World {
  /** A token is stored for the API; true by default. */
  signedIn?: boolean;
  /** The API's origin is granted; true by default. */
  granted?: boolean;
}

/** Snoozed order: soonest to wake first, then by id. */
const byWake = (a: Notification, b: Notification) =>
  (a.snoozedUntil ?? '').localeCompare(b.snoozedUntil ?? '') || a.id.localeCompare(b.id);

export function createPopupBackground(initial: Notification[] = [], world: World = {}) {
  /** Snoozed notifications, out of the inbox and its count until they wake, soonest first. */
  let snoozed = initial.filter((item) => item.snoozedUntil).sort(byWake);
  let inbox = initial.filter((item) => !item.snoozedUntil);
  let troubled: Trouble | null = null;
  const calls: Call[] = [];
  const failures = new Map<MessageType, Error[]>();
  const holding = new Set<MessageType>();
  const held: Held[] = [];

  const unreadCount = () => inbox.filter((item) => !item.read).length;
  const unreadByType = () =>
    Object.fromEntries(
      NOTIFICATION_TYPES.map((type) => [type, inbox.filter((item) => !item.read && item.type === type).length]),
    );
  /** A keyset cursor, bound to the listing it was issued for, as the service's is. */
  const cursorFor = (item: Notification, listing: string) => btoa(JSON.stringify([item.sortedAt, item.id, listing]));
  /** The page size the service takes: its default when left out, else 400 outside its bounds. */
  const pageSize = (query: URLSearchParams): number | null => {
    const given = query.get('limit');
    if (given === null) return LIMITS.pageSizeDefault;
    const limit = Number(given);
    return Number.isInteger(limit) && limit >= LIMITS.pageSizeMin && limit <= LIMITS.pageSizeMax ? limit : null;
  };

  /** One page of the snoozed notifications, soonest to wake first, with a keyset cursor. */
  function snoozedPage(query: URLSearchParams): Response {
    const limit = pageSize(query);
    if (limit === null) return problem(400, 'invalid_parameter');
    const cursor = query.get('cursor');
    let start = 0;
    if (cursor !== null) {
      const [kind, id] = JSON.parse(atob(cursor)) as [string, string];
      if (kind !== 'snoozed') return problem(400, 'invalid_cursor');
      start = snoozed.findIndex((item) => item.id === id) + 1;
    }
    const data = snoozed.slice(start, start + limit);
    const last = data.at(-1);
    const more = start + limit < snoozed.length;
    return json({ data, cursor: more && last ? btoa(JSON.stringify(['snoozed', last.id])) : null });
  }

  async function snooze(request: Request): Promise<Response> {
    const { ids, until } = (await request.json()) as { ids: string[]; until: string };
    const at = Date.parse(until);
    if (!(at - Date.now() >= 60_000 && at - Date.now() <= 365 * 86_400_000)) return problem(400, 'invalid_until');
    const wanted = new Set(ids.map((id) => id.toLowerCase()));
    const picked = (item: Notification) => wanted.has(item.id.toLowerCase());
    const originals = [...inbox.filter(picked), ...snoozed.filter(picked)];
    const wake = new Date(at).toISOString();
    snoozed = [
      ...snoozed.filter((item) => !picked(item)),
      ...originals.map((item) => ({ ...item, snoozedUntil: wake })),
    ].sort(byWake);
    inbox = inbox.filter((item) => !picked(item));
    return triaged(originals);
  }

  async function unsnooze(request: Request): Promise<Response> {
    const selects = await chosen(request);
    const woken = snoozed.filter(selects);
    snoozed = snoozed.filter((item) => !selects(item));
    const now = new Date().toISOString();
    inbox = [...woken.map((item) => ({ ...item, read: false, snoozedUntil: null, sortedAt: now })), ...inbox];
    return json({ success: true, count: woken.length });
  }

  function page(query: URLSearchParams): Response {
    if (query.get('snoozed') === 'true') return snoozedPage(query);
    const unreadOnly = query.get('unreadOnly') === 'true';
    const limit = pageSize(query);
    if (limit === null) return problem(400, 'invalid_parameter');
    const cursor = query.get('cursor');
    const types = query.get('types')?.split(',') ?? null;
    const listing = `${unreadOnly}|${types?.join(',') ?? '*'}`;
    const visible = inbox
      .filter((item) => (!unreadOnly || !item.read) && (!types || types.includes(item.type)))
      .sort(serviceOrder);
    let start = 0;
    if (cursor !== null) {
      const [sortedAt, id, forListing] = JSON.parse(atob(cursor)) as [string, string, string];
      if (forListing !== listing) return problem(400, 'invalid_cursor');
      start = visible.findIndex((item) => serviceOrder(item, { sortedAt, id }) > 0);
      if (start === -1) start = visible.length;
    }
    const data = visible.slice(start, start + limit);
    const last = data.at(-1);
    const more = start + limit < visible.length;
    return json({ data, cursor: more && last ? cursorFor(last, listing) : null });
  }

  /** Triage operations the service can still undo, by token: the notifications as they were before. */
  const operations = new Map<string, { originals: Notification[]; used: boolean }>();
  let operationCount = 0;

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
    snoozed = snoozed.filter((item) => !back.has(item.id));
    const wasSnoozed = operation.originals.filter((item) => item.snoozedUntil);
    snoozed = [...snoozed, ...wasSnoozed].sort(byWake);
    const present = new Set(inbox.map((item) => item.id));
    const returning = operation.originals.filter((item) => !present.has(item.id) && !item.snoozedUntil);
    inbox = [...inbox, ...returning].sort(serviceOrder);
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
    if (request.method === 'GET' && path === 'count') return json({ count: unreadCount(), byType: unreadByType() });
    if (request.method === 'POST' && path === 'read') return mark(await chosen(request), true);
    if (request.method === 'POST' && path === 'unread') return mark(await chosen(request), false);
    if (request.method === 'POST' && path === 'delete') {
      const selects = await chosen(request);
      const originals = inbox.filter(selects);
      inbox = inbox.filter((item) => !selects(item));
      return triaged(originals);
    }
    if (request.method === 'POST' && path === 'undo') return undo(request);
    if (request.method === 'POST' && path === 'snooze') return snooze(request);
    if (request.method === 'POST' && path === 'unsnooze') return unsnooze(request);
    return problem(404, 'not_found');
  }

  /**
   * The network between the background and the service. Offline, or without permission for the
   * API's origin (the service sends no CORS headers), a request gets no answer at all.
   */
  async function network(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    if (!navigator.onLine || !(await hasApiPermission({ apiBaseUrl: request.url }))) {
      throw new TypeError('Failed to fetch');
    }
    return troubled?.(request) ?? service(request);
  }

  messaging.removeAllListeners();
  const { poller } = answerMessages(network, { isOnline: () => navigator.onLine });
  // The settings a popup opened earlier left, as a real profile keeps them.
  const ready = getSettings().then(async (settings) => {
    await signedIn(undefined, settings);
    if (world.signedIn === false) await forgetToken(ACCOUNT);
    const api = { origins: [originPattern(settings.apiBaseUrl)] };
    if (world.granted === false) await fakeBrowser.permissions.remove(api);
  });

  // The test ends once the background has answered: a triage and its undo, sent as the test
  // ended, would otherwise write their storage after the next test had emptied it.
  const kept = answersKeptForTheTest();

  function answer<T extends MessageType>(type: T, data: MessageData<T>): Promise<unknown> {
    return kept(
      (async () => {
        await ready;
        const { value, error } = await deliver(type, data, popupSender);
        if (error) throw error;
        return value;
      })(),
    );
  }

  async function ask<T extends MessageType>(type: T, ...rest: unknown[]): Promise<MessageReturn<T>> {
    const data = rest[0] as MessageData<T>;
    calls.push({ type, data: structuredClone(data) });
    const wait = () => new Promise<void>((release) => held.push({ type, release }));
    const failure = failures.get(type)?.shift();
    // A held page is the service's answer still on its way; a held change has not reached it yet.
    if (type === 'inbox.fetch' && !failure) {
      // Held in the order asked, so "the latest" is the latest request, however long each took.
      const released = holding.has(type) ? wait() : null;
      const result = await answer(type, data);
      await released;
      return result as MessageReturn<T>;
    }
    if (holding.has(type)) await wait();
    if (failure) throw reviveError(structuredClone(reviveError(failure).toJSON()));
    return (await answer(type, data)) as MessageReturn<T>;
  }

  // The popup's own `ask` reaches this background as the browser carries it, through
  // `runtime.sendMessage`, with a failure on the wire as a handler's is. What is not a message of
  // the protocol (a broadcast) goes on to the pages' listeners, as fake-browser sends it.
  const runtime = fakeBrowser.runtime as unknown as {
    sendMessage: (message: unknown, callback?: (response: unknown) => void) => unknown;
  };
  const send = runtime.sendMessage;
  runtime.sendMessage = (message, callback) => {
    const { type, data } = message as { type: string; data: unknown };
    if (!Object.hasOwn(MESSAGE_SCOPE, type)) return send(message, callback);
    const answered = ask(type as MessageType, data).then(
      (res) => ({ res }),
      (error: unknown) => {
        const failed = reviveError(error);
        return { err: { message: failed.message, stack: failed.stack ?? '', ...failed.toJSON() } };
      },
    );
    if (typeof callback !== 'function') return answered;
    void answered.then(callback);
    return undefined;
  };

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
    /** What the service holds snoozed now, soonest to wake first. */
    get snoozed(): readonly Notification[] {
      return snoozed;
    },
    /** The service answers every request with `answer` while it gives one; null for the contract's answers. */
    answerWith(answer: Trouble | null) {
      troubled = answer;
    },
    /** The background checks the service, as its alarm does: the status every page reads. */
    async check() {
      await ready;
      return poller.poll();
    },
    /** The person signs in on the options page. */
    async signIn(token = 'secret-token') {
      const answered = await deliver('accounts.signIn', { account: ACCOUNT, token }, optionsSender);
      if (answered.error) throw answered.error;
    },
    /** A notification arrives at the service, newest of all, and the live channel tells the popup. */
    async arrive(notification: Notification, sender: { id: string; tab?: unknown } = { id: fakeBrowser.runtime.id }) {
      inbox = [notification, ...inbox];
      await poller.poll();
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
