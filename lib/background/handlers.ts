/**
 * The background's answer to every message of the protocol. Each message is checked twice
 * before anything happens: who sent it (see `sender.ts`) and whether its data has the shape the
 * protocol promises. Errors leave as plain typed errors, never carrying a cause that could hold
 * a request, its headers or the token.
 */

import * as v from 'valibot';
import { browser } from 'wxt/browser';
import { accountLabel, DEFAULT_ADDRESSES, validateAddresses } from '../account-addresses';
import type { Account } from '../accounts';
import {
  ApiError,
  InvalidArgumentError,
  NOTIFICATION_TYPES,
  REPORT_REASONS,
  reviveError,
  UnauthenticatedError,
} from '../api';
import { revokeEndpointOf, revokeToken } from '../api/revoke';
import { clearInboxCache, writeCachedFirstPage } from '../inbox-cache';
import {
  INBOX_PAGE_SIZE,
  type MessageData,
  type MessageReturn,
  type MessageType,
  messaging,
  type ProfileAccount,
  type ProfileAnswer,
  type TriageResult,
} from '../messaging';
import { isSiteUrl, usernameFromUrl } from '../profile-url';
import { settingsErrorText } from '../settings';
import type { AccountRuntime, Runtimes } from './account-runtime';
import { accounts, addAccount, removeAccount } from './account-store';
import { testConnection } from './connection-test';
import { giveBackPermissions } from './permissions';
import { claimFrame, isClaimedFrame, newClaim } from './profile-frames';
import { type Extension, mayAsk, type Sender, type SenderKind, senderKind } from './sender';
import { statusItem, unreadByTypeItem } from './stored-items';
import { checkToken, identity } from './token-check';
import {
  deleteNotifications,
  lastUndo,
  lastUndoItem,
  markRead,
  markUnread,
  snooze,
  type TriageAccount,
  undoLast,
  unsnooze,
} from './triage';

export interface HandlerContext {
  runtimes: Runtimes;
  extension: Extension;
  fetch?: typeof fetch;
}

const Text = v.pipe(v.string(), v.maxLength(4096));
const AccountId = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
const Ids = v.union([v.literal('all'), v.array(v.string())]);
const Unread = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)));
const Join = v.optional(v.boolean());
const Triage = v.object({ account: AccountId, ids: Ids, unread: Unread, join: Join });
const ListTriage = v.object({ account: AccountId, ids: v.array(v.string()), unread: Unread, join: Join });
const ProfileRequest = v.object({ account: AccountId, username: Text });
const Token = v.pipe(Text, v.trim(), v.minLength(1));

const schemas: { [T in MessageType]: v.GenericSchema<unknown, MessageData<T>> } = {
  'inbox.fetch': v.object({
    account: AccountId,
    cursor: v.nullable(Text),
    unreadOnly: v.boolean(),
    types: v.optional(
      v.nullable(v.pipe(v.array(v.picklist(NOTIFICATION_TYPES)), v.maxLength(NOTIFICATION_TYPES.length))),
    ),
  }),
  'inbox.countByType': v.object({ account: AccountId }),
  'inbox.markRead': Triage,
  'inbox.delete': Triage,
  'inbox.markUnread': ListTriage,
  'inbox.snooze': v.object({ account: AccountId, ids: v.array(v.string()), until: Text, unread: Unread, join: Join }),
  'inbox.unsnooze': v.object({ account: AccountId, ids: v.array(v.string()) }),
  'inbox.fetchSnoozed': v.object({ account: AccountId, cursor: v.nullable(Text) }),
  'inbox.undo': v.undefined(),
  'inbox.lastUndo': v.undefined(),
  'status.get': v.undefined(),
  'status.refresh': v.undefined(),
  'status.account': v.object({ account: AccountId }),
  'connection.test': v.object({ apiBaseUrl: Text, token: v.nullable(Text) }),
  'accounts.add': v.object({
    apiBaseUrl: Text,
    siteOrigin: Text,
    profilePath: Text,
    profileAnchor: Text,
    token: Token,
  }),
  'accounts.signIn': v.object({ account: AccountId, token: Token }),
  'accounts.signOut': v.object({ account: AccountId }),
  'accounts.remove': v.object({ account: AccountId }),
  'options.open': v.undefined(),
  'profile.start': v.object({ url: Text, account: v.optional(AccountId) }),
  'profile.frame': v.object({ claim: Text }),
  'profile.get': ProfileRequest,
  'profile.follow': ProfileRequest,
  'profile.unfollow': ProfileRequest,
  'profile.report': v.object({
    account: AccountId,
    username: Text,
    reason: v.picklist(REPORT_REASONS),
    comment: Text,
  }),
};

/**
 * Who asked: the kind of sender and the page it asked from (for the buttons' frame, the page of
 * its tab), and where that page is.
 */
type Asker = { kind: NonNullable<SenderKind>; url: string; tabId?: number; frameId?: number } | null;

const forbidden = (detail: string) => new ApiError({ status: 403, code: 'forbidden', detail });

/** How long a profile fetched for a tab's content script waits for that tab's buttons' frame. */
const PREFETCH_MS = 10_000;

type Handlers = {
  [T in MessageType]: (data: MessageData<T>, sender: Asker) => Promise<MessageReturn<T>>;
};

const signedOut = () => new UnauthenticatedError({ status: 401, code: 'unauthenticated', detail: 'Signed out.' });

/**
 * A copy of the error with its fields only: no cause, nothing of the request it came from. A
 * token the service no longer accepts shows on the badge at once.
 */
function plain(error: unknown, runtime?: Pick<AccountRuntime, 'poller'>): ApiError {
  const safe = reviveError(reviveError(error).toJSON());
  if (safe instanceof UnauthenticatedError && safe.status === 401) void runtime?.poller.poll();
  return safe;
}

export function createHandlers(ctx: HandlerContext): Handlers {
  const { runtimes } = ctx;

  /** The running account a message names; an unknown one is refused like a signed-out one. */
  async function runtimeOf(id: string): Promise<AccountRuntime> {
    await runtimes.sync();
    const runtime = runtimes.get(id);
    if (!runtime) throw new InvalidArgumentError('unknown_account', 'No such account.');
    return runtime;
  }

  /** The account's client, refused when it is signed out: a request never goes out without its token. */
  async function signedIn(id: string) {
    const runtime = await runtimeOf(id);
    const { client } = await runtime.session.client();
    if (!(await runtime.session.token())) throw signedOut();
    return { runtime, client };
  }

  /**
   * An in-page button acts only as an account whose site the page is on: a content script on one
   * site can never act as an account of another. And only on the profile the page shows now: a
   * page that changed its address under the buttons acts on nothing.
   */
  async function onAccountSite(id: string, sender: Asker, username: string) {
    const runtime = await runtimeOf(id);
    const account = await runtime.session.account();
    if (sender?.kind === 'profile' || sender?.kind === 'frame') {
      if (!account || !isSiteUrl(sender.url, account)) throw forbidden('Not that account’s site.');
      if (usernameFromUrl(sender.url, account)?.toLowerCase() !== username.toLowerCase()) {
        throw forbidden('This tab does not show that profile.');
      }
    }
    return runtime;
  }

  async function profileAccount(id: string, sender: Asker, username: string) {
    await onAccountSite(id, sender, username);
    return signedIn(id);
  }

  const profileAnswer = (runtime: AccountRuntime, username: string): Promise<ProfileAnswer> =>
    runtime.session.client().then(({ client }) =>
      client
        .user(username)
        .get()
        .then(
          (profile): ProfileAnswer => ({ ok: true, profile }),
          (error): ProfileAnswer => ({ ok: false, error: plain(error, runtime).toJSON() }),
        ),
    );

  /**
   * The profile fetched when a tab's content script started, until that tab's frame takes it
   * (one a tab, so they stay few); one older than a few seconds is fetched again.
   */
  const prefetched = new Map<number | undefined, { key: string; at: number; answer: Promise<ProfileAnswer> }>();
  const takePrefetched = (tabId: number | undefined, key: string) => {
    const entry = prefetched.get(tabId);
    prefetched.delete(tabId);
    return entry?.key === key && Date.now() - entry.at <= PREFETCH_MS ? entry.answer : null;
  };

  async function forgetAccount(runtime: AccountRuntime) {
    const last = await lastUndoItem.getValue();
    await Promise.all([
      runtime.poller.reset(),
      clearInboxCache(runtime.id),
      runtime.notifier.reset(),
      unreadByTypeItem(runtime.id).removeValue(),
      last?.parts?.some((part) => part.account === runtime.id) ? lastUndoItem.setValue(null) : undefined,
    ]);
  }

  async function triage(
    request: { account: string },
    act: (account: TriageAccount) => Promise<TriageResult>,
  ): Promise<TriageResult> {
    const { runtime, client } = await signedIn(request.account);
    const result = await act({ id: runtime.id, client, status: runtime.status });
    runtime.confirmCount();
    return result;
  }

  async function pollAll() {
    await runtimes.sync();
    await Promise.all(runtimes.all().map((runtime) => runtime.poller.poll()));
    return statusItem.getValue();
  }

  async function signOut(runtime: AccountRuntime) {
    const [token, { settings }] = await Promise.all([runtime.session.token(), runtime.session.client()]);
    // The service stops taking it at once; should it not answer, the token is forgotten all the same.
    if (token) await revokeToken(revokeEndpointOf(settings.apiBaseUrl), token, ctx.fetch).catch(() => undefined);
    await runtime.session.signOut();
    await forgetAccount(runtime);
    return runtime.poller.poll();
  }

  return {
    async 'inbox.fetch'({ account, cursor, unreadOnly, types }) {
      const { client } = await signedIn(account);
      const filter = types && types.length > 0 ? { types } : {};
      const page = await client.inbox.fetch({ limit: INBOX_PAGE_SIZE, cursor, unreadOnly, ...filter });
      // The cache holds the whole inbox's first page, what the popup paints before any answer.
      if (cursor === null && !filter.types) await writeCachedFirstPage(account, unreadOnly, page);
      return { data: page.data.map((item) => ({ ...item, account })), cursor: page.cursor };
    },
    async 'inbox.countByType'({ account }) {
      const { client } = await signedIn(account);
      const byType = await client.inbox.countByType();
      await unreadByTypeItem(account).setValue(byType);
      return byType;
    },
    'inbox.markRead': (request) => triage(request, (account) => markRead(account, request)),
    'inbox.delete': (request) => triage(request, (account) => deleteNotifications(account, request)),
    'inbox.markUnread': (request) => triage(request, (account) => markUnread(account, request)),
    'inbox.snooze': (request) => triage(request, (account) => snooze(account, request)),
    async 'inbox.unsnooze'(request) {
      const { runtime, client } = await signedIn(request.account);
      const count = await unsnooze({ id: runtime.id, client, status: runtime.status }, request);
      // They come back unread: only the service knows the count they make.
      const status = await runtime.poller.poll();
      return { success: true, count, unreadCount: status.kind === 'ok' ? status.count : null, undo: null };
    },
    async 'inbox.fetchSnoozed'({ account, cursor }) {
      const { client } = await signedIn(account);
      return client.inbox.fetch({ limit: INBOX_PAGE_SIZE, cursor, snoozed: true });
    },
    async 'inbox.undo'() {
      const { accounts: undone, count } = await undoLast(async (id) => (await signedIn(id)).client);
      // The badge follows at once: only the service knows how many of those put back are unread.
      const statuses = await Promise.all(undone.map(async (id) => (await runtimeOf(id)).poller.poll()));
      const status = statuses.length === 1 ? statuses[0] : null;
      return { count, unreadCount: status?.kind === 'ok' ? status.count : null };
    },
    'inbox.lastUndo': () => lastUndo(),
    'status.get': () => statusItem.getValue(),
    'status.refresh': () => pollAll(),
    async 'status.account'({ account }) {
      return (await runtimeOf(account)).status.get();
    },
    'connection.test': ({ apiBaseUrl, token }) => testConnection({ apiBaseUrl, token, fetch: ctx.fetch }),
    async 'accounts.add'({ token, ...addresses }) {
      const errors = validateAddresses(addresses);
      const first = Object.values(errors)[0];
      if (first) throw new InvalidArgumentError('invalid_address', settingsErrorText(first));
      const profile = await checkToken(addresses.apiBaseUrl, token, ctx.fetch);
      const origin = new URL(addresses.apiBaseUrl).origin;
      const twin =
        profile &&
        (await accounts()).find((a) => a.username === profile.username && new URL(a.apiBaseUrl).origin === origin);
      // The detail is the account's name: the options page puts it into its own words.
      if (twin) throw new InvalidArgumentError('account_exists', accountLabel(twin));
      const account = await addAccount({ ...addresses, ...(profile ? identity(profile) : {}) }, token);
      await runtimes.sync();
      await runtimes.get(account.id)?.poller.poll();
      return account;
    },
    async 'accounts.signIn'({ account, token }) {
      const runtime = await runtimeOf(account);
      await runtime.session.signIn(token);
      await forgetAccount(runtime);
      const status = await runtime.poller.poll();
      await runtime.identify(true);
      return status;
    },
    async 'accounts.signOut'({ account }) {
      return signOut(await runtimeOf(account));
    },
    async 'accounts.remove'({ account }) {
      const runtime = await runtimeOf(account);
      const removed = await runtime.session.account();
      await signOut(runtime);
      await removeAccount(account);
      await runtimes.sync();
      if (removed) await giveBackPermissions(removed, await accounts());
    },
    async 'options.open'() {
      await browser.runtime.openOptionsPage();
    },
    async 'profile.start'({ url, account: wanted }, sender) {
      await runtimes.sync();
      const onSite: { runtime: AccountRuntime; account: Account; signedIn: boolean }[] = [];
      for (const account of await accounts()) {
        const runtime = runtimes.get(account.id);
        if (!runtime || !isSiteUrl(url, account)) continue;
        if (sender?.kind === 'profile' && !isSiteUrl(sender.url, account)) continue;
        onSite.push({ runtime, account, signedIn: (await runtime.session.token()) !== null });
      }
      const signedInHere = onSite.filter((entry) => entry.signedIn);
      const chosen = signedInHere.find((entry) => entry.account.id === wanted) ?? signedInHere[0] ?? onSite[0] ?? null;
      const shape = chosen?.account ?? DEFAULT_ADDRESSES;
      const username = usernameFromUrl(url, shape);
      const config = {
        signedIn: chosen?.signedIn ?? false,
        siteOrigin: shape.siteOrigin,
        profilePath: shape.profilePath,
        profileAnchor: shape.profileAnchor,
        account: chosen?.account.id ?? null,
        accounts: signedInHere.map(({ account }) => ({ id: account.id, label: accountLabel(account) })),
      };
      // The profile is on its way while the page loads the buttons' frame, which asks for it.
      if (username !== null && chosen !== null) {
        const key = `${chosen.account.id} ${username.toLowerCase()}`;
        prefetched.set(sender?.tabId, { key, at: Date.now(), answer: profileAnswer(chosen.runtime, username) });
      }
      const tabId = sender?.tabId;
      return { config, claim: tabId === undefined ? '' : await newClaim(tabId, config.account) };
    },
    async 'profile.frame'({ claim }, sender) {
      const { tabId, frameId } = sender ?? {};
      const id = tabId === undefined || frameId === undefined ? undefined : await claimFrame(tabId, frameId, claim);
      if (id === undefined) throw forbidden('This frame is not the tab’s buttons.');
      if (id === null || !sender) return null;
      const runtime = await runtimeOf(id);
      const account = await runtime.session.account();
      const username = account && isSiteUrl(sender.url, account) ? usernameFromUrl(sender.url, account) : null;
      if (!account || username === null) return null;
      const answer = await (takePrefetched(tabId, `${id} ${username.toLowerCase()}`) ??
        profileAnswer(runtime, username));
      const here: ProfileAccount[] = [];
      for (const other of await accounts()) {
        const token = isSiteUrl(sender.url, other) ? await runtimes.get(other.id)?.session.token() : null;
        if (token) here.push({ id: other.id, label: accountLabel(other) });
      }
      return { username, answer, account: id, siteOrigin: account.siteOrigin, accounts: here };
    },
    async 'profile.get'({ account, username }, sender) {
      // A profile reads without a token too: signed out, it shows who the person is, without buttons.
      const runtime = await onAccountSite(account, sender, username);
      return (await runtime.session.client()).client.user(username).get();
    },
    async 'profile.follow'({ account, username }, sender) {
      await (await profileAccount(account, sender, username)).client.user(username).follow();
    },
    async 'profile.unfollow'({ account, username }, sender) {
      await (await profileAccount(account, sender, username)).client.user(username).unfollow();
    },
    async 'profile.report'({ account, username, reason, comment }, sender) {
      return (await profileAccount(account, sender, username)).client.user(username).report(reason, comment);
    },
  };
}

/**
 * Answers a message as the background does: refuses senders that may not ask, refuses data of
 * the wrong shape, runs the handler, and hands back errors as plain typed errors.
 */
export async function answer<T extends MessageType>(
  handlers: Handlers,
  ctx: Pick<HandlerContext, 'extension'>,
  type: T,
  data: unknown,
  sender: Sender,
): Promise<MessageReturn<T>> {
  try {
    const kind = senderKind(sender, ctx.extension, await accounts());
    if (!mayAsk(type, kind)) throw forbidden(`This page may not ask for ${type}.`);
    const parsed = v.safeParse(schemas[type], data);
    if (!parsed.success) throw new InvalidArgumentError('invalid_message', `The ${type} message is malformed.`);
    const { tab, frameId } = sender;
    // Only the frame the content script placed acts; a copy the page embeds never had the claim.
    if (kind === 'frame' && type !== 'profile.frame') {
      if (tab?.id === undefined || frameId === undefined || !(await isClaimedFrame(tab.id, frameId))) {
        throw forbidden('This frame is not the tab’s buttons.');
      }
    }
    const url = (kind === 'frame' ? tab?.url : sender.url) ?? '';
    return await handlers[type](parsed.output, kind && { kind, url, tabId: tab?.id, frameId });
  } catch (error) {
    throw plain(error);
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
