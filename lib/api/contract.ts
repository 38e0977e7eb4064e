/**
 * The wire contract of the Inbox service: every shape, bound and error code that crosses HTTP.
 * The client library validates answers with these schemas and the reference service validates
 * requests with them, so the two cannot drift apart.
 */
import * as v from 'valibot';
import { NOTIFICATION_TYPES, type NotificationType } from './notification-types';

export { NOTIFICATION_TYPES, type NotificationType };

export const REPORT_REASONS = ['spam', 'harassment', 'impersonation', 'inappropriate', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const LIMITS = {
  pageSizeMin: 1,
  pageSizeMax: 100,
  pageSizeDefault: 20,
  idsPerCall: 500,
  reportCommentMax: 2000,
  reportsPerHour: 10,
  /** Seconds an undo token stays valid after its operation. */
  undoSeconds: 60,
  /** Far above any token the service issues; a longer one is refused unread. */
  undoTokenMax: 256,
  followCallsPerHour: 60,
  /** A follower puts at most one follow notification into the same inbox in this many hours. */
  followNoticeHours: 24,
  /** Characters of an operator notification's text. */
  notificationTextMax: 500,
  /** Seconds a live ticket stays valid after it was issued. */
  liveTicketSeconds: 60,
  /** The largest client frame the live channel takes, in bytes. */
  liveFrameMaxBytes: 1024,
  /** Seconds of client silence after which the service drops a live channel. */
  liveIdleSeconds: 75,
  /** Live channels one user may have open on one service instance, unless its operator set another number. */
  liveChannelsPerUser: 10,
  /** Live tickets one user may take from one service instance in a minute. */
  liveTicketsPerMinute: 30,
  /** Seconds ahead a snooze may end, at least and at most (365 days). */
  snoozeMinSeconds: 60,
  snoozeMaxSeconds: 365 * 24 * 60 * 60,
  /** Seconds an OAuth authorization code stays valid; it works once. */
  oauthCodeSeconds: 60,
  /** Wrong passwords from one client address within `signInWindowMinutes` before the sign-in form says to wait. */
  signInFailuresPerClient: 20,
  /** Wrong passwords from one client address for one username within `signInWindowMinutes`, likewise. */
  signInFailuresPerClientUsername: 5,
  signInWindowMinutes: 15,
  /** Mutes one user may have in force at once. */
  mutesPerUser: 1000,
  /** Characters of a muted URL. */
  muteUrlMax: 2000,
  /** Characters of a search, once trimmed. */
  searchMax: 100,
} as const;

export const USERNAME_PATTERN = /^[A-Za-z0-9_]{1,30}$/;
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Machine-readable `code` of every problem answer the service gives. */
export const ERROR_CODES = [
  'unauthenticated',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'invalid_cursor',
  'invalid_limit',
  'invalid_parameter',
  'invalid_ids',
  'invalid_until',
  'invalid_report',
  'invalid_undo',
  'undo_expired',
  'invalid_notification',
  'invalid_body',
  'payload_too_large',
  'unsupported_media_type',
  'upgrade_required',
  'user_not_found',
  'already_following',
  'not_following',
  'cannot_follow_self',
  'cannot_report_self',
  'rate_limited',
  'too_many_channels',
  'request_in_progress',
  'idempotency_key_reused',
  'invalid_mute',
  'too_many_mutes',
  'mute_not_found',
  'internal_error',
  'service_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const isUsername = (value: unknown): value is string =>
  typeof value === 'string' && USERNAME_PATTERN.test(value);

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);

const Timestamp = v.pipe(v.string(), v.isoTimestamp());
const Uuid = v.pipe(v.string(), v.regex(UUID_PATTERN));
const Username = v.pipe(v.string(), v.regex(USERNAME_PATTERN));
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

/**
 * Who caused a notification. `avatarUrl` is their picture as the service gives it: any string is
 * taken (the extension decides what it loads), and a service without pictures sends none.
 */
export const ActorSchema = v.object({
  username: Username,
  displayName: v.string(),
  avatarUrl: v.optional(v.nullable(v.string())),
});

/**
 * A notification. `snoozedUntil` is when a snoozed one wakes (null when not snoozed); `sortedAt`
 * is the later of `createdAt` and the moment it last woke, what the inbox is ordered by. A
 * service without snooze sends neither: the notification is then not snoozed and sorts by
 * `createdAt`.
 */
export const NotificationSchema = v.pipe(
  v.object({
    id: Uuid,
    read: v.boolean(),
    type: v.picklist(NOTIFICATION_TYPES),
    createdAt: Timestamp,
    actor: v.nullable(ActorSchema),
    text: v.string(),
    url: v.nullable(v.string()),
    snoozedUntil: v.optional(v.nullable(Timestamp), null),
    sortedAt: v.optional(Timestamp),
  }),
  v.transform(({ sortedAt, ...rest }) => ({ ...rest, sortedAt: sortedAt ?? rest.createdAt })),
);
export type Notification = v.InferOutput<typeof NotificationSchema>;
export type Actor = v.InferOutput<typeof ActorSchema>;

export const PageSchema = v.object({
  data: v.array(NotificationSchema),
  cursor: v.nullable(v.pipe(v.string(), v.minLength(1))),
});
export type Page = v.InferOutput<typeof PageSchema>;

/** Unread notifications not snoozed, of each type; every type is present. */
export const ByTypeSchema = v.object({
  // Written out rather than built from NOTIFICATION_TYPES, so that bundles that do not use it can
  // leave it out; `satisfies` keeps it to exactly the types.
  follow: Count,
  mention: Count,
  reply: Count,
  like: Count,
  system: Count,
} satisfies Record<NotificationType, typeof Count>);
export type ByType = v.InferOutput<typeof ByTypeSchema>;

/** Answer of GET /inbox/count. A service without counts by type sends no `byType`. */
export const CountSchema = v.object({ count: Count, byType: v.optional(ByTypeSchema) });
export type CountResult = v.InferOutput<typeof CountSchema>;

const UndoToken = v.pipe(v.string(), v.minLength(1), v.maxLength(LIMITS.undoTokenMax));

/** Answer of read, delete and unread: `undo` puts back what the call changed; null when it changed nothing. */
export const BulkResultSchema = v.object({ success: v.boolean(), count: Count, undo: v.nullable(UndoToken) });
export type BulkResult = v.InferOutput<typeof BulkResultSchema>;

/** Answer of POST /inbox/unsnooze: `count` notifications came back now. */
export const UnsnoozeResultSchema = v.object({ success: v.boolean(), count: Count });
export type UnsnoozeResult = v.InferOutput<typeof UnsnoozeResultSchema>;

/** Answer of POST /inbox/undo: `count` notifications were put back. */
export const UndoResultSchema = v.object({ success: v.boolean(), count: Count });
export type UndoResult = v.InferOutput<typeof UndoResultSchema>;

export const ProfileSchema = v.object({
  username: Username,
  displayName: v.string(),
  bio: v.string(),
  avatarUrl: v.nullable(v.string()),
  followersCount: Count,
  followingCount: Count,
  createdAt: Timestamp,
  following: v.optional(v.boolean()),
  followedBy: v.optional(v.boolean()),
  self: v.optional(v.boolean()),
});
export type Profile = v.InferOutput<typeof ProfileSchema>;

export const ReportResultSchema = v.object({
  id: Uuid,
  status: v.literal('received'),
  reason: v.picklist(REPORT_REASONS),
  createdAt: Timestamp,
});
export type ReportResult = v.InferOutput<typeof ReportResultSchema>;

/** RFC 9457 problem details, as every non-2xx answer carries them. */
export const ProblemSchema = v.object({
  type: v.string(),
  title: v.string(),
  status: v.pipe(v.number(), v.integer()),
  detail: v.optional(v.string()),
  code: v.string(),
});
export type ProblemDetails = v.InferOutput<typeof ProblemSchema>;

/** Body of POST /inbox/read and POST /inbox/delete. */
export const IdsBodySchema = v.object({
  ids: v.union([v.literal('all'), v.pipe(v.array(Uuid), v.maxLength(LIMITS.idsPerCall))]),
});
export type IdsSelection = v.InferOutput<typeof IdsBodySchema>['ids'];

/** Body of POST /inbox/unread: ids only, never "all". */
export const IdsListBodySchema = v.object({
  ids: v.pipe(v.array(Uuid), v.maxLength(LIMITS.idsPerCall)),
});
export type IdsList = v.InferOutput<typeof IdsListBodySchema>['ids'];

/** An ISO 8601 date and time with its offset (`Z` or `±hh:mm`), as `until` must be. */
export const OFFSET_TIMESTAMP_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|([+-])(\d{2}):(\d{2}))$/i;

/** Milliseconds since the epoch of an ISO 8601 date and time with an offset; null for anything else. */
export function parseOffsetTimestamp(text: unknown): number | null {
  const match = typeof text === 'string' ? OFFSET_TIMESTAMP_PATTERN.exec(text) : null;
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '0', , sign, offsetHours = '0', offsetMinutes = '0'] = match;
  const offset = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  const at = Date.parse(text as string);
  if (Number.isNaN(at) || Number(offsetMinutes) > 59) return null;
  // Date.parse rolls 30 February over into March; the wall clock read back must be the one written.
  const wall = new Date(at + offset * 60_000);
  const same =
    wall.getUTCFullYear() === Number(year) &&
    wall.getUTCMonth() + 1 === Number(month) &&
    wall.getUTCDate() === Number(day) &&
    wall.getUTCHours() === Number(hour) &&
    wall.getUTCMinutes() === Number(minute) &&
    wall.getUTCSeconds() === Number(second);
  return same ? at : null;
}

/**
 * Why `until` cannot end a snooze that starts at `now` (milliseconds), or null when it can: it
 * must be a date and time with an offset, at least 60 s and at most 365 days ahead.
 */
export function untilProblem(until: unknown, now: number): string | null {
  const at = parseOffsetTimestamp(until);
  if (at === null) {
    return 'until must be an ISO 8601 date and time with an offset, such as 2026-11-23T09:00:00+01:00.';
  }
  if (at - now < LIMITS.snoozeMinSeconds * 1000) {
    return `until must be at least ${LIMITS.snoozeMinSeconds} seconds ahead.`;
  }
  if (at - now > LIMITS.snoozeMaxSeconds * 1000) return 'until must be at most 365 days ahead.';
  return null;
}

/** Body of POST /inbox/snooze: ids only, and when they wake. */
export const SnoozeBodySchema = v.object({
  ids: v.pipe(v.array(Uuid), v.maxLength(LIMITS.idsPerCall)),
  until: v.string(),
});

/** Body of POST /inbox/undo. */
export const UndoBodySchema = v.object({ undo: UndoToken });

/** Body of POST /user/{username}/report. */
export const ReportBodySchema = v.object({
  reason: v.picklist(REPORT_REASONS),
  comment: v.pipe(v.string(), v.maxLength(LIMITS.reportCommentMax)),
});
export type ReportBody = v.InferOutput<typeof ReportBodySchema>;

/** Body of POST /operator/notifications: a notification for one user, from one actor or none. */
export const OperatorNotificationBodySchema = v.object({
  username: Username,
  type: v.picklist(NOTIFICATION_TYPES),
  text: v.pipe(
    v.string(),
    v.minLength(1),
    v.check((text) => text.trim().length > 0, 'text must not be only spaces'),
    v.maxLength(LIMITS.notificationTextMax),
    v.check((text) => !text.includes('\u0000'), 'text cannot contain NUL characters'),
  ),
  actor: v.optional(v.nullable(Username), null),
  url: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.maxLength(2000),
        v.url(),
        v.check((url) => /^https?:\/\//i.test(url), 'url must be http(s)'),
      ),
    ),
    null,
  ),
});
export type OperatorNotificationBody = v.InferOutput<typeof OperatorNotificationBodySchema>;

/** What happens to notifications from people the user does not follow. */
export const STRANGERS_POLICIES = ['accept', 'mute'] as const;
export type StrangersPolicy = (typeof STRANGERS_POLICIES)[number];

/** Answer of GET and PUT /inbox/policy, and the body of PUT. */
export const PolicySchema = v.object({ strangers: v.picklist(STRANGERS_POLICIES) });
export type Policy = v.InferOutput<typeof PolicySchema>;
export const PolicyBodySchema = v.strictObject({ strangers: v.picklist(STRANGERS_POLICIES) });

const MuteUrl = v.pipe(
  v.string(),
  v.maxLength(LIMITS.muteUrlMax),
  v.url(),
  v.check((url) => /^https?:\/\//i.test(url), 'url must be http(s)'),
);

/** A person or a link whose notifications are muted, until `until` or until removed. */
export const MuteSchema = v.object({
  id: Uuid,
  actor: v.nullable(Username),
  url: v.nullable(v.string()),
  until: v.nullable(Timestamp),
  createdAt: Timestamp,
});
export type Mute = v.InferOutput<typeof MuteSchema>;

/** Answer of GET /inbox/mutes: the mutes in force, newest first. */
export const MutesSchema = v.object({ data: v.array(MuteSchema) });

/** Body of POST /inbox/mutes: exactly one of `actor` and `url`; `until` is checked against the clock. */
export const MuteBodySchema = v.union([
  v.strictObject({ actor: Username, until: v.optional(v.nullable(v.string()), null) }),
  v.strictObject({ url: MuteUrl, until: v.optional(v.nullable(v.string()), null) }),
]);
export type MuteBody = v.InferOutput<typeof MuteBodySchema>;
export type MuteTarget = { actor: string } | { url: string };

/** Body of POST /operator/tokens/revoke. */
export const OperatorRevokeBodySchema = v.object({ token: v.pipe(v.string(), v.minLength(1), v.maxLength(512)) });
export type OperatorRevokeBody = v.InferOutput<typeof OperatorRevokeBodySchema>;

export const OperatorRevokeResultSchema = v.object({ revoked: v.boolean() });
export type OperatorRevokeResult = v.InferOutput<typeof OperatorRevokeResultSchema>;

/** Answer of POST /inbox/live/ticket: what opens one live channel, once, before `expiresAt`. */
export const LiveTicketSchema = v.object({
  ticket: v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
  expiresAt: Timestamp,
});
export type LiveTicket = v.InferOutput<typeof LiveTicketSchema>;

/** The unread count and its part of each type, at once on open and after every change. */
export const LiveCountFrameSchema = v.object({
  type: v.literal('count'),
  count: Count,
  byType: v.optional(ByTypeSchema),
});
export const LiveNotificationFrameSchema = v.object({
  type: v.literal('notification'),
  notification: NotificationSchema,
});
export const LivePongFrameSchema = v.object({ type: v.literal('pong') });

const LIVE_SERVER_FRAMES = [LiveCountFrameSchema, LiveNotificationFrameSchema, LivePongFrameSchema] as const;

/** A text frame the service sends on the live channel, one JSON object each. */
export const LiveServerFrameSchema = v.variant('type', LIVE_SERVER_FRAMES);

/**
 * The same frames as the client reads them: a union takes what the variant takes and refuses what
 * it refuses, and spares the background valibot's variant (273 B gzip); the variant, which the
 * OpenAPI document gives as `oneOf`, stays the contract's word.
 */
export const LiveServerFrameUnion = v.union(LIVE_SERVER_FRAMES);
export type LiveServerFrame = v.InferOutput<typeof LiveServerFrameSchema>;

/** The one frame a client sends: a ping every 20–25 s keeps the channel open. */
export const LiveClientFrameSchema = v.object({ type: v.literal('ping') });
export type LiveClientFrame = v.InferOutput<typeof LiveClientFrameSchema>;

/** Close codes of the live channel. */
export const LIVE_CLOSE_CODES = {
  /** The service is stopping, or lost its database for a moment: open a new channel. */
  goingAway: 1001,
  /** A client frame that is not a ping, not JSON, or comes too often. */
  policyViolation: 1008,
  /** A client frame over `LIMITS.liveFrameMaxBytes`. */
  tooBig: 1009,
  /** The service could not keep the channel (its database connection dropped): reconnect. */
  tryAgainLater: 1013,
  /** The token behind the channel was revoked or its user deleted: sign in again. */
  unauthenticated: 4401,
} as const;
