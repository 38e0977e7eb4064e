/**
 * Every message passes here before a handler sees it: who sent it (see `sender.ts`) and whether
 * its data has the shape the protocol promises. Errors leave as plain typed errors, never
 * carrying a cause that could hold a request, its headers or the token.
 */
import * as v from 'valibot';
import {
  ApiError,
  InvalidArgumentError,
  LIMITS,
  NOTIFICATION_TYPES,
  REPORT_REASONS,
  reviveError,
  STRANGERS_POLICIES,
  UnauthenticatedError,
} from '../api';
import type { MessageData, MessageReturn, MessageType } from '../messaging';
import { SIGNALS } from '../priority/model';
import type { AccountRuntime } from './account-runtime';
import { accounts } from './account-store';
import { isClaimedFrame } from './profile-frames';
import { type Extension, mayAsk, type Sender, type SenderKind, senderKind } from './sender';

const Text = v.pipe(v.string(), v.maxLength(4096));
const AccountId = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
const Ids = v.union([v.literal('all'), v.array(v.string())]);
const Unread = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)));
const Join = v.optional(v.boolean());
const Seen = v.optional(v.array(v.string()));
const Triage = v.object({ account: AccountId, ids: Ids, unread: Unread, join: Join, seen: Seen });
const ListTriage = v.object({ account: AccountId, ids: v.array(v.string()), unread: Unread, join: Join });
const ProfileRequest = v.object({ account: AccountId, username: Text });
/** Not only spaces: the accounts store a token without the spaces around it. */
const Token = v.pipe(Text, v.regex(/\S/));
const Search = v.optional(v.nullable(v.pipe(v.string(), v.maxLength(LIMITS.searchMax * 2))));
const Absent = v.optional(v.undefined());
const MuteTarget = v.union([
  v.object({ actor: v.pipe(v.string(), v.maxLength(100)), url: Absent }),
  v.object({ url: v.pipe(v.string(), v.maxLength(LIMITS.muteUrlMax)), actor: Absent }),
]);

const schemas: { [T in MessageType]: v.GenericSchema<unknown, MessageData<T>> } = {
  'inbox.fetch': v.object({
    account: AccountId,
    cursor: v.nullable(Text),
    unreadOnly: v.boolean(),
    types: v.optional(
      v.nullable(v.pipe(v.array(v.picklist(NOTIFICATION_TYPES)), v.maxLength(NOTIFICATION_TYPES.length))),
    ),
    q: Search,
    muted: v.optional(v.boolean()),
  }),
  'inbox.features': v.object({ account: AccountId }),
  'inbox.mutes': v.object({ account: AccountId }),
  'inbox.mute': v.object({ account: AccountId, target: MuteTarget, until: v.nullable(Text) }),
  'inbox.unmute': v.object({ account: AccountId, id: Text, username: v.optional(Text) }),
  'inbox.setPolicy': v.object({ account: AccountId, strangers: v.picklist(STRANGERS_POLICIES) }),
  'inbox.countByType': v.object({ account: AccountId }),
  'inbox.markRead': Triage,
  'inbox.delete': Triage,
  'inbox.markUnread': ListTriage,
  'inbox.snooze': v.object({ account: AccountId, ids: v.array(v.string()), until: Text, unread: Unread, join: Join }),
  'inbox.unsnooze': v.object({ account: AccountId, ids: v.array(v.string()) }),
  'inbox.fetchSnoozed': v.object({ account: AccountId, cursor: v.nullable(Text) }),
  'inbox.undo': v.undefined(),
  'inbox.lastUndo': v.undefined(),
  'outbox.state': v.object({ account: AccountId }),
  'outbox.dismiss': v.object({ account: AccountId }),
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
  'profile.mute': ProfileRequest,
  'profile.unmute': ProfileRequest,
  'priority.note': v.object({
    account: AccountId,
    signal: v.picklist(SIGNALS),
    about: v.array(v.object({ actor: v.nullable(Text), url: v.nullable(Text), at: Text })),
  }),
  'priority.forget': ProfileRequest,
};

export const MESSAGE_TYPES = Object.keys(schemas) as MessageType[];

/**
 * Who asked: the kind of sender and the page it asked from (for the buttons' frame, the page of
 * its tab), and where that page is.
 */
export type Asker = { kind: NonNullable<SenderKind>; url: string; tabId?: number; frameId?: number } | null;

export type Handler<T extends MessageType> = (data: MessageData<T>, sender: Asker) => Promise<MessageReturn<T>>;

export type Handlers = { [T in MessageType]: Handler<T> };

export const forbidden = (detail: string) => new ApiError({ status: 403, code: 'forbidden', detail });

/**
 * A copy of the error with its fields only: no cause, nothing of the request it came from. A
 * token the service no longer accepts shows on the badge at once.
 */
export function plain(error: unknown, runtime?: Pick<AccountRuntime, 'poller'>): ApiError {
  const safe = reviveError(reviveError(error).toJSON());
  if (safe instanceof UnauthenticatedError && safe.status === 401) void runtime?.poller.poll();
  return safe;
}

/**
 * Answers a message as the background does: refuses senders that may not ask, refuses data of
 * the wrong shape, runs the handler, and hands back errors as plain typed errors.
 */
export async function answer<T extends MessageType>(
  handlers: Handlers,
  extension: Extension,
  type: T,
  data: unknown,
  sender: Sender,
): Promise<MessageReturn<T>> {
  try {
    const kind = senderKind(sender, extension, await accounts());
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
