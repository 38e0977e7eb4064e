/**
 * The one protocol between the background and every other context. The background answers
 * each message (see `lib/background/handlers/`); popup, options and the profile content script
 * only ever ask. Failures cross as the client library's typed errors, revived on arrival, so a
 * caller can tell `already_following` from a network failure.
 */
import { defineExtensionMessaging, type GetDataType, type GetReturnType } from '@webext-core/messaging';
import type { Account } from '../accounts';
import type {
  ByType,
  IdsSelection,
  Mute,
  Notification,
  NotificationType,
  Page,
  Policy,
  Profile,
  ReportReason,
  ReportResult,
} from '../api/contract';
import { type ApiError, crossedError, reviveError } from '../api/errors';
import type { About, Signal } from '../priority/model';

/** What the toolbar badge shows, and what the popup needs to choose its state. */
export type StatusKind =
  | 'signedOut'
  | 'ok'
  | 'unauthorized'
  | 'unreachable'
  | 'offline'
  | 'rateLimited'
  | 'notThisService'
  | 'noPermission';

/**
 * How the unread count reaches the badge while signed in: pushed over the live channel, polled
 * while the channel reconnects, or polled because this browser cannot hold the channel.
 * `off` while signed out or stopped by a problem the badge already shows.
 */
export type LiveMode = 'live' | 'reconnecting' | 'unavailable' | 'off';

export interface ConnectionStatus {
  kind: StatusKind;
  /** The last unread count the service gave, or null before the first. */
  count: number | null;
  /** When the count was last checked successfully (ms since the epoch). */
  checkedAt: number | null;
  /** When the next check is due (ms since the epoch), or null when none is scheduled. */
  nextCheckAt: number | null;
  /** The failure's code when the state is a failure, for diagnosis; never shown as words. */
  detail: string | null;
}

/** Notifications per page the background asks the service for on the popup's behalf. */
export const INBOX_PAGE_SIZE = 25;

/** The account the popup shows when it shows every signed-in account's notifications as one. */
export const ALL_ACCOUNTS = '*';

/** A notification as the popup lists it: with the account it belongs to, which triage acts as. */
export type InboxItem = Notification & { account: string };

export interface AccountPage {
  data: InboxItem[];
  cursor: string | null;
}

/** Every message about one account's inbox or profile names the account it acts as. */
export interface AccountRequest {
  account: string;
}

export interface InboxPageRequest extends AccountRequest {
  cursor: string | null;
  unreadOnly: boolean;
  /** Only these types; all when left out or null. */
  types?: NotificationType[] | null;
  /** Only notifications that contain every word of it (see `inbox.features` for whether the service can). */
  q?: string | null;
  /** Only the muted notifications. */
  muted?: boolean;
}

/** What the account's service can do beyond version 1's inbox: mutes, the strangers policy and search. */
export interface InboxFeatures {
  mutes: boolean;
  /** The strangers policy in force, when the service has one. */
  policy: Policy | null;
}

/** A person or a thread to mute, until an ISO 8601 time or (null) until the mute is removed. */
export interface MuteRequest extends AccountRequest {
  target: { actor: string } | { url: string };
  until: string | null;
}

export interface UnmuteRequest extends AccountRequest {
  id: string;
  /** The person a mute of a person holds back: a line about it waiting names them. */
  username?: string;
}

export interface MuteResult {
  /** While the mute waits in the outbox, its id is its change's key. */
  mute: Mute;
  /** The unread count after the mute, as the service reports it. */
  unreadCount: number | null;
  /** The service could not be reached: the mute is kept and will be sent when it is back. */
  waiting?: boolean;
}

export interface SnoozeRequest extends AccountRequest {
  ids: string[];
  /** As for `TriageRequest`. */
  join?: boolean;
  /** When they wake: ISO 8601 with an offset, 60 s to 365 days ahead. */
  until: string;
  /** How many of `ids` the caller knows to be unread, so the badge can drop them at once. */
  unread?: number;
}

export interface TriageRequest extends AccountRequest {
  ids: IdsSelection;
  /** How many of `ids` the caller knows to be unread, so a delete can lower the badge at once. */
  unread?: number;
  /**
   * This call carries on the one before, as one action over items of several accounts: Undo
   * puts back both.
   */
  join?: boolean;
  /**
   * For `all`: the ids the person saw. Kept for later, "all" would take in what arrived since,
   * unseen; these are what is kept instead.
   */
  seen?: string[];
}

export type UndoableAction = 'markRead' | 'markUnread' | 'delete' | 'snooze';

/**
 * The last triage action, while the service still takes its undo. The background keeps the undo
 * tokens themselves; other contexts see only what the action was.
 */
export interface UndoOffer {
  /** The account the action acted on; the first of them when it took in several. */
  account: string;
  action: UndoableAction;
  /** It was "mark all read" or "delete all". */
  all: boolean;
  /** Notifications the action changed. */
  count: number;
  /** When the service stops taking the undo (ms since the epoch). */
  expiresAt: number;
  /** For a snooze: when the notifications wake (ISO 8601). */
  until?: string;
}

export interface TriageResult {
  success: boolean;
  /** Notifications the change applied to. */
  count: number;
  /** The unread count after the change, as far as the background knows it. */
  unreadCount: number | null;
  /** What "Undo" would put back; null when the change changed nothing. */
  undo: UndoOffer | null;
  /** The service could not be reached: the change is kept and will be sent when it is back. */
  waiting?: boolean;
}

/** What a change kept for later does: the client library's name for it. */
export type OutboxKind =
  | UndoableAction
  | 'unsnooze'
  | 'follow'
  | 'unfollow'
  | 'mute'
  | 'muteThread'
  | 'unmute'
  | 'removeMute';

/** A change kept until the service can be reached, with the key it is always sent with. */
export interface OutboxEntry {
  kind: OutboxKind;
  key: string;
  /** When the person made it (ms since the epoch). */
  madeAt: number;
  ids?: string[];
  /** How many of `ids` were unread, so Undo can put the badge back. */
  unread?: number;
  until?: string;
  username?: string;
  /**
   * The id of the mute an unmute removes; while that mute itself waits here, the key of its
   * change, which becomes the id the service gives it once it is sent.
   */
  mute?: string;
  /** What a mute holds back: a person (`username` too) or a thread. */
  target?: MuteRequest['target'];
}

/**
 * A kept change that will not be sent, and why: the service's error code class (`gone`,
 * `unauthorized`, `refused`), `expired` (older than the service keeps keys), `woke` (a snooze
 * whose time passed), `overflow` (`count` oldest dropped for room) or `moved` (made at an API
 * address the account no longer has).
 */
export interface OutboxDropped {
  kind: OutboxKind;
  why: string;
  count: number;
  username?: string;
  at: number;
  account?: string;
}

export interface OutboxState {
  /** Changes waiting to be sent. */
  count: number;
  /** The notifications they change. */
  ids: string[];
  dropped: OutboxDropped[];
}

/** A follow, unfollow or unmute: done, or kept to be sent when the service is back. */
export interface ProfileChange {
  waiting: boolean;
}

export interface UndoResult {
  /** Notifications put back. */
  count: number;
  /** The unread count after the undo, as the service reports it. */
  unreadCount: number | null;
}

export type ConnectionProblem =
  | 'invalidAddress'
  | 'permissionDenied'
  | 'unreachable'
  | 'timeout'
  | 'noToken'
  | 'unauthorized'
  | 'rateLimited'
  | 'serverError'
  | 'notThisService';

export type ConnectionTest =
  | { ok: true; unreadCount: number }
  | { ok: false; problem: ConnectionProblem; detail: string };

/** An account the in-page buttons may act as: its id and how it is named. */
export interface ProfileAccount {
  id: string;
  label: string;
}

/** What the profile content script needs to know about the site; never the token nor a profile. */
export interface ProfilePageConfig {
  signedIn: boolean;
  siteOrigin: string;
  profilePath: string;
  profileAnchor: string;
  /** The account the buttons act as (the first signed in on this site), or null when none is. */
  account: string | null;
  /** Every signed-in account on this site: with more than one, the person chooses. */
  accounts: ProfileAccount[];
}

/**
 * A profile as the in-page buttons show it: with the account's mute of the person, null when
 * there is none, left out when the account's service has no mutes or they could not be read.
 */
export type ShownProfile = Profile & { mute?: Mute | null };

/** The profile a page's URL names, or why the service would not give it (a typed error's fields). */
export type ProfileAnswer = { ok: true; profile: ShownProfile } | { ok: false; error: ReturnType<ApiError['toJSON']> };

/**
 * What the profile content script needs to place the buttons' frame. Asking for it also starts
 * fetching the profile the tab shows, so the frame's own `profile.frame` finds it on its way.
 */
export interface ProfilePageStart {
  config: ProfilePageConfig;
  /** What the content script hands its frame, so that the background knows that frame from the page's copies. */
  claim: string;
}

/** The extension page that holds the in-page buttons, framed into the site's profile pages. */
export const PROFILE_FRAME_PAGE = '/profile-frame.html' as const;

/**
 * Everything the buttons' frame needs before it shows, in one round trip: the profile its tab
 * shows (the background reads it from the tab's address, never from the frame), the account the
 * buttons act as (the one the content script's start chose), and the site's origin, the only
 * window the frame tells its size to. Null when the tab shows no profile.
 */
export type ProfileFrameStart = {
  username: string;
  answer: ProfileAnswer;
  account: string;
  siteOrigin: string;
  /** Every account signed in on this site: with more than one, the person chooses whom to act as. */
  accounts: ProfileAccount[];
} | null;

/**
 * The answer as `profile.get` would give it through `askPlain`: the profile, or its error thrown
 * as an Error with the typed error's fields.
 */
export function profileFrom(answer: ProfileAnswer): ShownProfile {
  if (answer.ok) return answer.profile;
  throw crossedError(answer.error);
}

export interface ProfileRequest extends AccountRequest {
  username: string;
}

export interface ReportRequest extends AccountRequest {
  username: string;
  reason: ReportReason;
  comment: string;
}

export interface ProtocolMap {
  /**
   * One page of the account's inbox, each item naming the account; the first page (cursor null)
   * also refreshes the popup's cache.
   */
  'inbox.fetch'(request: InboxPageRequest): AccountPage;
  /** The account's unread notifications of each type, asked of its service now. */
  'inbox.countByType'(request: AccountRequest): ByType;
  'inbox.markRead'(request: TriageRequest): TriageResult;
  'inbox.delete'(request: TriageRequest): TriageResult;
  /** Marks notifications unread: a list of ids, never "all". */
  'inbox.markUnread'(request: TriageRequest): TriageResult;
  /** Takes notifications out of the inbox and the count until `until`; undoable. */
  'inbox.snooze'(request: SnoozeRequest): TriageResult;
  /** Brings snoozed notifications back now, unread, at the top of the inbox. */
  'inbox.unsnooze'(request: AccountRequest & { ids: string[] }): TriageResult;
  /** One page of the snoozed notifications, soonest to wake first. */
  'inbox.fetchSnoozed'(request: AccountRequest & { cursor: string | null }): Page;
  /** What the account's service can do; asked once per account and address, again after a sign-in. */
  'inbox.features'(request: AccountRequest): InboxFeatures;
  /** The mutes in force, newest first. */
  'inbox.mutes'(request: AccountRequest): Mute[];
  /** Mutes a person or a thread: their notifications leave the inbox, the count and the alerts. */
  'inbox.mute'(request: MuteRequest): MuteResult;
  /** Removes a mute: what it held back comes back as it was. */
  'inbox.unmute'(request: UnmuteRequest): { unreadCount: number | null; waiting?: boolean };
  /** Holds back notifications from people the account does not follow, or shows them. */
  'inbox.setPolicy'(request: AccountRequest & Policy): Policy;
  /** Undoes the last triage action, once, while the service takes it. */
  'inbox.undo'(): UndoResult;
  /** The last triage action, while it can still be undone. */
  'inbox.lastUndo'(): UndoOffer | null;
  /** Changes waiting to be sent for the account (or every account, `ALL_ACCOUNTS`), and those dropped. */
  'outbox.state'(request: AccountRequest): OutboxState;
  /** Forgets the lines about changes dropped, once the person has read them. */
  'outbox.dismiss'(request: AccountRequest): void;
  'status.get'(): ConnectionStatus;
  /** Checks the unread count now, as when the popup opens. */
  'status.refresh'(): ConnectionStatus;
  /** One account's status. */
  'status.account'(request: AccountRequest): ConnectionStatus;
  /** Checks an address and token without saving them; without a token, whether the address is the service. */
  'connection.test'(request: { apiBaseUrl: string; token: string | null }): ConnectionTest;
  /** Adds an account, signed in with the token; checks the token first and learns who it is. */
  'accounts.add'(request: NewAccountRequest): Account;
  /** Signs an existing account in again with a new token. */
  'accounts.signIn'(request: AccountRequest & { token: string }): ConnectionStatus;
  /** Revokes the account's token at its service and forgets it and everything cached for it. */
  'accounts.signOut'(request: AccountRequest): ConnectionStatus;
  /** Signs the account out and forgets it, giving back the host permissions no other account needs. */
  'accounts.remove'(request: AccountRequest): void;
  'options.open'(): void;
  /** The site's settings: where the buttons' frame goes on a page of the site. */
  'profile.start'(request: { url: string; account?: string }): ProfilePageStart;
  /** The profile the sender's tab shows, for the buttons' frame that brings the tab's claim. */
  'profile.frame'(request: { claim: string }): ProfileFrameStart;
  'profile.get'(request: ProfileRequest): ShownProfile;
  'profile.follow'(request: ProfileRequest): ProfileChange;
  'profile.unfollow'(request: ProfileRequest): ProfileChange;
  'profile.report'(request: ReportRequest): ReportResult;
  /**
   * Mutes the person the tab shows, until removed (`waiting` while it is kept in the outbox);
   * null when the account's service has no mutes.
   */
  'profile.mute'(request: ProfileRequest): (Mute & { waiting?: boolean }) | null;
  /** Removes the account's mute of the person the tab shows: their notifications come back. */
  'profile.unmute'(request: ProfileRequest): ProfileChange;
  /** The account's priority model learns what the person did in the popup (see `lib/priority/model.ts`). */
  'priority.note'(request: PriorityNote): void;
  /** The account's priority model forgets what it learned of one person. */
  'priority.forget'(request: ProfileRequest): void;
}

/** What the person did to notifications in the popup, for the account's priority model to learn from. */
export interface PriorityNote extends AccountRequest {
  signal: Signal;
  about: About[];
}

export interface NewAccountRequest {
  apiBaseUrl: string;
  siteOrigin: string;
  profilePath: string;
  profileAnchor: string;
  token: string;
}

export type MessageType = keyof ProtocolMap;

/**
 * Who may send each message. Extension pages may send all of them; the profile content script
 * and the buttons' frame only the `profile` ones, and only in a tab of an account's site.
 */
export const MESSAGE_SCOPE: Record<MessageType, 'extension' | 'profile'> = {
  'inbox.fetch': 'extension',
  'inbox.countByType': 'extension',
  'inbox.markRead': 'extension',
  'inbox.delete': 'extension',
  'inbox.markUnread': 'extension',
  'inbox.snooze': 'extension',
  'inbox.unsnooze': 'extension',
  'inbox.fetchSnoozed': 'extension',
  'inbox.features': 'extension',
  'inbox.mutes': 'extension',
  'inbox.mute': 'extension',
  'inbox.unmute': 'extension',
  'inbox.setPolicy': 'extension',
  'inbox.undo': 'extension',
  'inbox.lastUndo': 'extension',
  'outbox.state': 'extension',
  'outbox.dismiss': 'extension',
  'status.get': 'extension',
  'status.refresh': 'extension',
  'status.account': 'extension',
  'connection.test': 'extension',
  'accounts.add': 'extension',
  'accounts.signIn': 'extension',
  'accounts.signOut': 'extension',
  'accounts.remove': 'extension',
  'options.open': 'profile',
  'profile.start': 'profile',
  'profile.frame': 'profile',
  'profile.get': 'profile',
  'profile.follow': 'profile',
  'profile.unfollow': 'profile',
  'profile.report': 'profile',
  'profile.mute': 'profile',
  'profile.unmute': 'profile',
  'priority.note': 'extension',
  'priority.forget': 'extension',
};

const quiet = { debug() {}, log() {}, warn: console.warn, error: console.error };

export const messaging = /* @__PURE__ */ defineExtensionMessaging<ProtocolMap>({ logger: quiet });

export type MessageData<T extends MessageType> = GetDataType<ProtocolMap[T]>;
export type MessageReturn<T extends MessageType> = GetReturnType<ProtocolMap[T]>;

/** Asks the background; a failure arrives as the client library's typed error. */
export async function ask<T extends MessageType>(
  type: T,
  ...data: MessageData<T> extends undefined ? [] : [MessageData<T>]
): Promise<MessageReturn<T>> {
  try {
    return await (messaging.sendMessage as (type: T, data?: MessageData<T>) => Promise<MessageReturn<T>>)(
      type,
      data[0],
    );
  } catch (error) {
    throw reviveError(error);
  }
}

/** The most ids one broadcast carries. */
export const MAX_ARRIVED_IDS = 100;

/**
 * What the background tells open extension pages without being asked. Nobody answers; a page
 * that is not open simply does not hear it.
 */
export interface BroadcastMap {
  /** Notifications the live channel just brought, newest first: an open popup offers to load them. */
  'inbox.arrived'(arrival: { ids: string[] }): void;
  /** An account's outbox changed: an open popup asks for its state again. */
  'outbox.changed'(change: { account: string }): void;
}

/** The channel broadcasts travel on; `on-broadcast.ts` hears them. */
export const broadcasts = /* @__PURE__ */ defineExtensionMessaging<BroadcastMap>({ logger: quiet });

/** Tells every open extension page; none being open is not a failure. */
export async function broadcast<T extends keyof BroadcastMap>(
  type: T,
  data: GetDataType<BroadcastMap[T]>,
): Promise<void> {
  try {
    await (broadcasts.sendMessage as (type: T, data: GetDataType<BroadcastMap[T]>) => Promise<void>)(type, data);
  } catch {
    // No extension page is open to hear it.
  }
}

/** Stops hearing every broadcast, as a test's set-up does. */
export const removeBroadcastListeners = () => broadcasts.removeAllListeners();
