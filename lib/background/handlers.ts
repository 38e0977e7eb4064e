/**
 * The background's answer to every message of the protocol. Each message is checked twice
 * before anything happens: who sent it (see `sender.ts`) and whether its data has the shape the
 * protocol promises. Errors leave as plain typed errors, never carrying a cause that could hold
 * a request, its headers or the token.
 */

import * as v from 'valibot';
import { browser } from 'wxt/browser';
import {
  ApiError,
  InvalidArgumentError,
  NOTIFICATION_TYPES,
  REPORT_REASONS,
  reviveError,
  UnauthenticatedError,
} from '../api';
import { clearInboxCache, writeCachedFirstPage } from '../inbox-cache';
import { unreadByTypeItem } from '../inbox-filter';
import {
  INBOX_PAGE_SIZE,
  type MessageData,
  type MessageReturn,
  type MessageType,
  messaging,
  type ProfileAnswer,
} from '../messaging';
import { getSettings } from '../settings';
import type { Session } from './api-session';
import { testConnection } from './connection-test';
import type { Notifier } from './notifier';
import type { Poller } from './poller';
import { claimFrame, isClaimedFrame, newClaim } from './profile-frames';
import { type Extension, mayAsk, type Sender, senderKind, shownProfile } from './sender';
import { getStatus } from './status-writer';
import {
  deleteNotifications,
  lastUndo,
  lastUndoItem,
  markRead,
  markUnread,
  snooze,
  undoLast,
  unsnooze,
} from './triage';

export interface HandlerContext {
  session: Session;
  poller: Poller;
  notifier: Notifier;
  extension: Extension;
  fetch?: typeof fetch;
}

const Text = v.pipe(v.string(), v.maxLength(4096));
const Ids = v.union([v.literal('all'), v.array(v.string())]);
const Unread = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)));
const Triage = v.object({ ids: Ids, unread: Unread });
const ListTriage = v.object({ ids: v.array(v.string()), unread: Unread });

const schemas: { [T in MessageType]: v.GenericSchema<unknown, MessageData<T>> } = {
  'inbox.fetch': v.object({
    cursor: v.nullable(Text),
    unreadOnly: v.boolean(),
    types: v.optional(
      v.nullable(v.pipe(v.array(v.picklist(NOTIFICATION_TYPES)), v.maxLength(NOTIFICATION_TYPES.length))),
    ),
  }),
  'inbox.countByType': v.undefined(),
  'inbox.markRead': Triage,
  'inbox.delete': Triage,
  'inbox.markUnread': ListTriage,
  'inbox.snooze': v.object({ ids: v.array(v.string()), until: Text, unread: Unread }),
  'inbox.unsnooze': v.object({ ids: v.array(v.string()) }),
  'inbox.fetchSnoozed': v.object({ cursor: v.nullable(Text) }),
  'inbox.undo': v.undefined(),
  'inbox.lastUndo': v.undefined(),
  'status.get': v.undefined(),
  'status.refresh': v.undefined(),
  'connection.test': v.object({ apiBaseUrl: Text, token: v.nullable(Text) }),
  'auth.signIn': v.object({ token: v.pipe(Text, v.trim(), v.minLength(1)) }),
  'auth.signOut': v.undefined(),
  'options.open': v.undefined(),
  'profile.start': v.object({ url: Text }),
  'profile.frame': v.object({ claim: Text }),
  'profile.get': Text,
  'profile.follow': Text,
  'profile.unfollow': Text,
  'profile.report': v.object({ username: Text, reason: v.picklist(REPORT_REASONS), comment: Text }),
};

/** Who asked, as far as a handler needs it: the sender's tab, and the profile that tab shows. */
export interface Asker {
  tabId?: number;
  frameId?: number;
  /** The username the sender's tab shows now, for the content script and the buttons' frame. */
  shows: string | null;
}

type Handlers = { [T in MessageType]: (data: MessageData<T>, asker: Asker) => Promise<MessageReturn<T>> };

const forbidden = (detail: string) => new ApiError({ status: 403, code: 'forbidden', detail });

/** How long a profile fetched for a tab's content script waits for that tab's buttons' frame. */
const PREFETCH_MS = 10_000;

/** The username a profile message reads or acts on. */
function profileTarget<T extends MessageType>(type: T, data: MessageData<T>): string | null {
  if (type === 'profile.get' || type === 'profile.follow' || type === 'profile.unfollow') return data as string;
  if (type === 'profile.report') return (data as MessageData<'profile.report'>).username;
  return null;
}

/**
 * A copy of the error with its fields only: no cause, nothing of the request it came from. A
 * token the service no longer accepts shows on the badge at once.
 */
function plain(error: unknown, poller: Pick<Poller, 'poll'>): ApiError {
  const safe = reviveError(reviveError(error).toJSON());
  if (safe instanceof UnauthenticatedError && safe.status === 401) void poller.poll();
  return safe;
}

export function createHandlers(ctx: HandlerContext): Handlers {
  const { session, poller, notifier } = ctx;

  async function signedInClient() {
    const { client, settings } = await session.client();
    if (!(await session.token(settings))) {
      throw new UnauthenticatedError({ status: 401, code: 'unauthenticated', detail: 'Signed out.' });
    }
    return client;
  }

  const profileAnswer = async (username: string): Promise<ProfileAnswer> => {
    const { client } = await session.client();
    return client
      .user(username)
      .get()
      .then(
        (profile): ProfileAnswer => ({ ok: true, profile }),
        (error): ProfileAnswer => ({ ok: false, error: plain(error, poller).toJSON() }),
      );
  };

  /**
   * The profile fetched when a tab's content script started, until that tab's frame takes it
   * (one a tab, so they stay few); one older than a few seconds is fetched again.
   */
  const prefetched = new Map<number | undefined, { key: string; at: number; answer: Promise<ProfileAnswer> }>();
  const takePrefetched = (tabId: number | undefined, username: string) => {
    const entry = prefetched.get(tabId);
    prefetched.delete(tabId);
    return entry?.key === username.toLowerCase() && Date.now() - entry.at <= PREFETCH_MS ? entry.answer : null;
  };

  async function forgetAccount() {
    await Promise.all([
      poller.reset(),
      clearInboxCache(),
      notifier.reset(),
      lastUndoItem.setValue(null),
      unreadByTypeItem.setValue(null),
    ]);
  }

  return {
    async 'inbox.fetch'({ cursor, unreadOnly, types }) {
      const filter = types && types.length > 0 ? { types } : {};
      const page = await (await signedInClient()).inbox.fetch({
        limit: INBOX_PAGE_SIZE,
        cursor,
        unreadOnly,
        ...filter,
      });
      // The cache holds the whole inbox's first page, what the popup paints before any answer.
      if (cursor === null && !filter.types) await writeCachedFirstPage(unreadOnly, page);
      return page;
    },
    async 'inbox.countByType'() {
      const byType = await (await signedInClient()).inbox.countByType();
      await unreadByTypeItem.setValue(byType);
      return byType;
    },
    async 'inbox.markRead'(request) {
      const result = await markRead(await signedInClient(), request);
      void poller.poll();
      return result;
    },
    async 'inbox.delete'(request) {
      const result = await deleteNotifications(await signedInClient(), request);
      void poller.poll();
      return result;
    },
    async 'inbox.markUnread'(request) {
      const result = await markUnread(await signedInClient(), request);
      void poller.poll();
      return result;
    },
    async 'inbox.snooze'(request) {
      const result = await snooze(await signedInClient(), request);
      void poller.poll();
      return result;
    },
    async 'inbox.unsnooze'(request) {
      const count = await unsnooze(await signedInClient(), request);
      // They come back unread: only the service knows the count they make.
      const status = await poller.poll();
      return { success: true, count, unreadCount: status.kind === 'ok' ? status.count : null, undo: null };
    },
    async 'inbox.fetchSnoozed'({ cursor }) {
      return (await signedInClient()).inbox.fetch({ limit: INBOX_PAGE_SIZE, cursor, snoozed: true });
    },
    async 'inbox.undo'() {
      const count = await undoLast(await signedInClient());
      // The badge follows at once: only the service knows how many of those put back are unread.
      const status = await poller.poll();
      return { count, unreadCount: status.kind === 'ok' ? status.count : null };
    },
    'inbox.lastUndo': () => lastUndo(),
    'status.get': () => getStatus(),
    'status.refresh': () => poller.poll(),
    async 'connection.test'({ apiBaseUrl, token }) {
      const stored = token ?? (await session.token({ ...(await getSettings()), apiBaseUrl }));
      return testConnection({ apiBaseUrl, token: stored, fetch: ctx.fetch });
    },
    async 'auth.signIn'({ token }) {
      await session.signIn(token);
      await forgetAccount();
      return poller.poll();
    },
    async 'auth.signOut'() {
      await session.signOut();
      await forgetAccount();
      return poller.poll();
    },
    async 'options.open'() {
      await browser.runtime.openOptionsPage();
    },
    async 'profile.start'(_, { tabId, shows }) {
      // The profile is on its way while the page loads the buttons' frame, which asks for it.
      if (shows !== null)
        prefetched.set(tabId, { key: shows.toLowerCase(), at: Date.now(), answer: profileAnswer(shows) });
      const settings = await getSettings();
      const token = await session.token(settings);
      const config = {
        signedIn: token !== null,
        siteOrigin: settings.siteOrigin,
        profilePath: settings.profilePath,
        profileAnchor: settings.profileAnchor,
      };
      return { config, claim: tabId === undefined ? '' : await newClaim(tabId) };
    },
    async 'profile.frame'({ claim }, { tabId, frameId, shows }) {
      if (tabId === undefined || frameId === undefined || !(await claimFrame(tabId, frameId, claim))) {
        throw forbidden('This frame is not the tab’s buttons.');
      }
      if (shows === null) return null;
      const answer = await (takePrefetched(tabId, shows) ?? profileAnswer(shows));
      return { username: shows, answer, siteOrigin: (await getSettings()).siteOrigin };
    },
    async 'profile.get'(username) {
      const { client } = await session.client();
      return client.user(username).get();
    },
    async 'profile.follow'(username) {
      await (await signedInClient()).user(username).follow();
    },
    async 'profile.unfollow'(username) {
      await (await signedInClient()).user(username).unfollow();
    },
    async 'profile.report'({ username, reason, comment }) {
      return (await signedInClient()).user(username).report(reason, comment);
    },
  };
}

/**
 * Answers a message as the background does: refuses senders that may not ask, refuses data of
 * the wrong shape, runs the handler, and hands back errors as plain typed errors.
 */
export async function answer<T extends MessageType>(
  handlers: Handlers,
  ctx: Pick<HandlerContext, 'extension' | 'poller'>,
  type: T,
  data: unknown,
  sender: Sender,
): Promise<MessageReturn<T>> {
  try {
    const settings = await getSettings();
    const kind = senderKind(sender, ctx.extension, settings);
    if (!mayAsk(type, kind)) {
      throw forbidden(`This page may not ask for ${type}.`);
    }
    const parsed = v.safeParse(schemas[type], data);
    if (!parsed.success) throw new InvalidArgumentError('invalid_message', `The ${type} message is malformed.`);
    const shows = shownProfile(sender, kind, settings);
    const target = kind === 'extension' ? null : profileTarget(type, parsed.output);
    // A page acts only on the profile its tab shows: one that changed its address under the
    // buttons, or a frame it made itself and told another name, acts on nothing.
    if (target !== null && target.toLowerCase() !== shows?.toLowerCase()) {
      throw forbidden('This tab does not show that profile.');
    }
    const { tab, frameId } = sender;
    // Only the frame the content script placed acts; a copy the page embeds never had the claim.
    if (kind === 'frame' && type !== 'profile.frame') {
      if (tab?.id === undefined || frameId === undefined || !(await isClaimedFrame(tab.id, frameId))) {
        throw forbidden('This frame is not the tab’s buttons.');
      }
    }
    return await handlers[type](parsed.output, { tabId: tab?.id, frameId, shows });
  } catch (error) {
    throw plain(error, ctx.poller);
  }
}

/** Answers every message of the protocol until `signal` aborts. */
export function registerHandlers(ctx: HandlerContext, signal?: AbortSignal): void {
  const handlers = createHandlers(ctx);
  for (const type of Object.keys(schemas) as MessageType[]) {
    const remove = messaging.onMessage(type, (message) => answer(handlers, ctx, type, message.data, message.sender));
    signal?.addEventListener('abort', remove, { once: true });
  }
}
