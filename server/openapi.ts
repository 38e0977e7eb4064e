/**
 * Builds the OpenAPI 3.1 document of the API. The JSON Schema of every body and answer is generated
 * from the valibot schemas of the contract module, so the document cannot drift from what the client
 * and the service validate; its paths are the documented routes of `ROUTES` (`server/route-table.ts`),
 * so it cannot name a route the service lacks. This file adds only what HTTP needs (parameters,
 * headers, codes).
 * The built document is checked in as `server/openapi.json` and served at `/api/openapi.json`; a test
 * keeps the two equal, lints the document with Redocly and checks every documented answer occurs.
 *
 * To add an endpoint:
 *  1. Name its body and answer schemas from `lib/api/contract.ts` in `SCHEMAS` (each becomes
 *     `#/components/schemas/<Name>`).
 *  2. Route it in `ROUTES` with its handler and an `operationId`; a handler that needs the caller goes
 *     behind `signedIn` or `maybeSignedIn` (`server/api/auth.ts`) and reads `c.var.caller`.
 *  3. Describe it under that `operationId` in `operations` (the compiler asks for it) with a `summary`,
 *     `security` (`bearer`, `optionalBearer` or `noAuth`), `requestBody: body('Name')` when it takes
 *     one, and `responses` built with `answer(description, 'Name')`, `noContent(description)` and
 *     `problem(description, codes)`.
 *  4. Write the file again: `npx tsx server/openapi.ts`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type JsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import {
  ActorSchema,
  BulkResultSchema,
  CountSchema,
  ERROR_CODES,
  type ErrorCode,
  IdsBodySchema,
  IdsListBodySchema,
  LIMITS,
  LiveClientFrameSchema,
  LiveServerFrameSchema,
  LiveTicketSchema,
  MuteBodySchema,
  MuteSchema,
  MutesSchema,
  NOTIFICATION_TYPES,
  NotificationSchema,
  OperatorNotificationBodySchema,
  OperatorRevokeBodySchema,
  OperatorRevokeResultSchema,
  PageSchema,
  PolicyBodySchema,
  PolicySchema,
  ProblemSchema,
  ProfileSchema,
  ReportBodySchema,
  ReportResultSchema,
  SnoozeBodySchema,
  UndoBodySchema,
  UndoResultSchema,
  UnsnoozeResultSchema,
  USERNAME_PATTERN,
  UUID_PATTERN,
} from '../lib/api/contract';
import {
  DiscoverySchema,
  OAUTH_ERROR_CODES,
  OAuthErrorSchema,
  OAuthRevokeRequestSchema,
  OAuthTokenRequestSchema,
  OAuthTokenSchema,
} from '../lib/api/oauth-contract';
import { CHANNEL_SHARE_OF_CONNECTIONS } from './live/limits';
import { type Method, type OperationId, ROUTES, type Route } from './route-table';

/** The contract's schemas the document names, under the names it gives them. */
const SCHEMAS = {
  Actor: ActorSchema,
  Notification: NotificationSchema,
  Page: PageSchema,
  Count: CountSchema,
  BulkResult: BulkResultSchema,
  IdsBody: IdsBodySchema,
  IdsListBody: IdsListBodySchema,
  UndoBody: UndoBodySchema,
  UndoResult: UndoResultSchema,
  SnoozeBody: SnoozeBodySchema,
  UnsnoozeResult: UnsnoozeResultSchema,
  Mute: MuteSchema,
  Mutes: MutesSchema,
  MuteBody: MuteBodySchema,
  Policy: PolicySchema,
  PolicyBody: PolicyBodySchema,
  Profile: ProfileSchema,
  ReportBody: ReportBodySchema,
  ReportResult: ReportResultSchema,
  LiveTicket: LiveTicketSchema,
  LiveServerFrame: LiveServerFrameSchema,
  LiveClientFrame: LiveClientFrameSchema,
  OperatorNotificationBody: OperatorNotificationBodySchema,
  OperatorRevokeBody: OperatorRevokeBodySchema,
  Discovery: DiscoverySchema,
  OAuthTokenRequest: OAuthTokenRequestSchema,
  OAuthToken: OAuthTokenSchema,
  OAuthRevokeRequest: OAuthRevokeRequestSchema,
  OAuthError: OAuthErrorSchema,
  OperatorRevokeResult: OperatorRevokeResultSchema,
  Problem: ProblemSchema,
};
type SchemaName = keyof typeof SCHEMAS;

/** Words for readers that a schema cannot carry, by schema and property. */
const DESCRIPTIONS: Partial<Record<SchemaName, Record<string, string>>> = {
  Actor: {
    avatarUrl:
      'The actor’s picture (the same as their profile’s `avatarUrl`): an http(s) URL, or null. Clients should accept any string here and decide what they load.',
  },
  Notification: {
    text: 'Plain text, never HTML.',
    snoozedUntil: 'When a snoozed notification wakes; null when it is not snoozed.',
    sortedAt: 'The later of `createdAt` and the moment it last woke; the inbox is ordered by it.',
  },
  Count: { byType: 'Unread notifications not snoozed, of each type; every type is present.' },
  SnoozeBody: {
    until: `ISO 8601 with an offset (\`Z\` or \`±hh:mm\`), ${LIMITS.snoozeMinSeconds} s to 365 days ahead.`,
  },
  Page: { cursor: 'null on the last page.' },
  Mute: {
    actor: 'The muted person’s username; null for a muted link.',
    url: 'The muted link, as notifications give it; null for a muted person.',
    until: 'When the mute ends; null: when it is removed.',
  },
  Policy: { strangers: '`mute`: notifications from people the user does not follow are muted (system ones never).' },
  BulkResult: { undo: 'Opaque; puts back what this call changed (`POST /inbox/undo`). null when `count` is 0.' },
  OperatorNotificationBody: {
    text: `Plain text, 1 to ${LIMITS.notificationTextMax} characters, not only spaces.`,
    url: 'An http(s) URL; one on the service’s own site is kept as a path there.',
  },
  Problem: { code: `One of: ${ERROR_CODES.join(', ')}.` },
  OAuthTokenRequest: {
    code: `The code the authorize page sent to \`redirect_uri\`; valid for ${LIMITS.oauthCodeSeconds} s, once.`,
    redirect_uri: 'Exactly the one given to the authorize page.',
    code_verifier: 'The PKCE verifier whose S256 challenge the authorize page was given.',
  },
  OAuthToken: {
    access_token: 'An ordinary user token: `Authorization: Bearer <access_token>`.',
    created_at: 'Unix seconds.',
  },
  OAuthError: { error: `One of: ${OAUTH_ERROR_CODES.join(', ')}.` },
  Discovery: {
    siteOrigin: 'The web site; profile pages are `{siteOrigin}{profilePath}`.',
    profilePath: 'The path of a profile page, with `:username` where the username stands.',
    apiBaseUrl: 'The API base URL every API path is relative to.',
    authorizationEndpoint: 'The authorize page (HTML, on the site) a browser opens to sign in.',
    tokenEndpoint: 'Exchanges an authorization code for a token (`POST /oauth/token`).',
    revocationEndpoint: 'Revokes a token (`POST /oauth/revoke`, RFC 7009).',
  },
};

function componentSchemas(): Record<SchemaName, JsonSchema> {
  const schemas = toJsonSchemaDefs(SCHEMAS, {
    target: 'draft-2020-12',
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
    // JSON Schema patterns have no flags; the one case-insensitive pattern is the UUID's.
    overrideAction: ({ valibotAction, jsonSchema }) => {
      // A check written in code has no JSON Schema; DESCRIPTIONS says it in words. The one
      // transform fills in the sort time an older service, one without snoozing, leaves out.
      if (valibotAction.type === 'check' || valibotAction.type === 'transform') return jsonSchema;
      if (!('requirement' in valibotAction) || valibotAction.requirement !== UUID_PATTERN) return undefined;
      const { pattern: _caseSensitive, ...uuid } = jsonSchema;
      return { ...uuid, format: 'uuid' };
    },
  });
  // This service always sends them; the contract's schema also reads an older service that has no snoozing
  // and sends neither.
  schemas.Notification.required = [...(schemas.Notification.required ?? []), 'snoozedUntil', 'sortedAt'];
  for (const [name, words] of Object.entries(DESCRIPTIONS)) {
    const properties = schemas[name as SchemaName].properties ?? {};
    for (const [property, description] of Object.entries(words)) {
      properties[property] = { ...(properties[property] as object), description };
    }
  }
  return schemas;
}

type Headers = Record<string, { schema: object; description?: string }>;
interface Answer {
  description: string;
  headers?: Headers;
  content?: Record<string, { schema: object }>;
}
/** An operation as the document describes it; its `operationId` is its name in `ROUTES`. */
interface Operation {
  summary: string;
  description?: string;
  security: object[];
  parameters?: object[];
  requestBody?: object;
  responses: Record<number, Answer>;
}
type PathItem = { parameters?: object[]; servers?: object[] } & {
  [method in Lowercase<Method>]?: Operation & { operationId: OperationId };
};

/** The reference service's site origin, where the paths outside the API live. */
const SITE_SERVER = { url: 'http://127.0.0.1:8787', description: 'The site origin (not under the API base URL)' };

const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });

/** A JSON request body of the named contract schema. */
const body = (name: SchemaName) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });

/** A JSON answer of the named contract schema. */
const answer = (description: string, name: SchemaName, headers?: Headers): Answer => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ref(name) } },
});

const noContent = (description: string): Answer => ({ description });

/** A form request body (`application/x-www-form-urlencoded`) of the named contract schema. */
const formBody = (name: SchemaName) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: ref(name) } },
});

/** OAuth's own error answer (RFC 6749 §5.2), whose `error` is one of `errors`. */
const oauthError = (description: string, errors: readonly string[]): Answer => ({
  description,
  content: {
    'application/json': { schema: { allOf: [ref('OAuthError'), { properties: { error: { enum: errors } } }] } },
  },
});

const formOnly = problem('The body was not sent as `application/x-www-form-urlencoded` (UTF-8).', [
  'unsupported_media_type',
]);

/** A problem+json answer whose `code` is one of `codes`. */
function problem(description: string, codes: readonly ErrorCode[], headers?: Headers): Answer {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: {
      'application/problem+json': {
        schema: { allOf: [ref('Problem'), { properties: { code: { enum: codes } } }] },
      },
    },
  };
}

const unauthenticated = problem('Missing, unknown or revoked token.', ['unauthenticated'], {
  'WWW-Authenticate': { schema: { type: 'string' }, description: 'Always `Bearer …`.' },
});
const userNotFound = problem('No such user.', ['user_not_found']);
const unsupportedMediaType = problem('The body was not sent as `application/json` (UTF-8).', [
  'unsupported_media_type',
]);
/** For calls that take no body: one sent anyway must still be labelled JSON. */
const strayBodyType = problem('A body was sent (none is needed), and not as `application/json`.', [
  'unsupported_media_type',
]);
const retryAfter = { 'Retry-After': { schema: { type: 'integer', minimum: 1 }, description: 'Seconds to wait.' } };
const followLimited = problem(
  `More than ${LIMITS.followCallsPerHour} follows and unfollows in an hour.`,
  ['rate_limited'],
  retryAfter,
);
const bearer = [{ bearerAuth: [] }];
const optionalBearer = [{}, { bearerAuth: [] }];
const operatorOnly = [{ operatorAuth: [] }];
const forbidden = problem('A user’s token: the operator API takes operator tokens only.', ['forbidden']);
const noAuth: object[] = [];

/** A triage call; `all: false` for one that takes a list of ids only. */
const idsOperation = (summary: string, countMeaning: string, options: { all: boolean } = { all: true }): Operation => ({
  summary,
  description:
    `One transaction. The answer's \`undo\` token puts back what this call changed, once, for ${LIMITS.undoSeconds} ` +
    'seconds (`POST /inbox/undo`); it is null when nothing changed.',
  security: bearer,
  requestBody: body(options.all ? 'IdsBody' : 'IdsListBody'),
  responses: {
    200: answer(countMeaning, 'BulkResult'),
    400: problem(
      options.all
        ? 'The body is not `{ "ids": [uuid, …] }` or `{ "ids": "all" }`.'
        : 'The body is not `{ "ids": [uuid, …] }` (`"all"` is refused).',
      ['invalid_ids'],
    ),
    401: unauthenticated,
    415: unsupportedMediaType,
  },
});

const operations: Record<OperationId, Operation> = {
  fetchInbox: {
    summary: 'One page of the inbox, newest first, or of the snoozed notifications',
    description:
      'The inbox is ordered by `sortedAt`, then `id`, newest first, and leaves snoozed notifications out; ' +
      'with `snoozed=true` only the snoozed ones are listed, soonest to wake first (then `id`). ' +
      'Keyset pagination: pass each answer’s `cursor` back until it is null. A cursor is valid only for ' +
      'the user and the listing (`unreadOnly`, `snoozed`, `types`, `muted`, `q`) it was issued for. Muted ' +
      'notifications are left out unless `muted=true` asks for them alone.',
    security: bearer,
    parameters: [
      {
        name: 'limit',
        in: 'query',
        schema: {
          type: 'integer',
          minimum: LIMITS.pageSizeMin,
          maximum: LIMITS.pageSizeMax,
          default: LIMITS.pageSizeDefault,
        },
      },
      { name: 'cursor', in: 'query', schema: { type: 'string' } },
      { name: 'unreadOnly', in: 'query', schema: { type: 'string', enum: ['true', 'false'], default: 'false' } },
      { name: 'snoozed', in: 'query', schema: { type: 'string', enum: ['true', 'false'], default: 'false' } },
      {
        name: 'muted',
        in: 'query',
        description: 'The muted notifications instead of the others (with `snoozed=true`, the muted snoozed ones).',
        schema: { type: 'string', enum: ['true', 'false'], default: 'false' },
      },
      {
        name: 'q',
        in: 'query',
        description:
          'Only notifications whose text, actor username or actor display name contains every word, ignoring case ' +
          `and accents; 1 to ${LIMITS.searchMax} characters once trimmed.`,
        schema: { type: 'string', minLength: 1, maxLength: LIMITS.searchMax },
      },
      {
        name: 'types',
        in: 'query',
        description: `Only these types: a comma-separated list of ${NOTIFICATION_TYPES.join(', ')}, each at most once.`,
        schema: { type: 'string' },
      },
    ],
    responses: {
      200: answer('A page.', 'Page'),
      400: problem('A bad query parameter.', ['invalid_limit', 'invalid_cursor', 'invalid_parameter']),
      401: unauthenticated,
    },
  },
  countUnread: {
    summary: 'The unread count, in all and of each type',
    description: 'Snoozed notifications are not counted until they wake. The ETag covers `byType`.',
    security: bearer,
    parameters: [{ name: 'If-None-Match', in: 'header', schema: { type: 'string' } }],
    responses: {
      200: answer('The count.', 'Count', {
        ETag: { schema: { type: 'string' } },
        'X-Poll-Interval': {
          schema: { type: 'integer', minimum: 1 },
          description: 'The least number of seconds between two polls.',
        },
      }),
      304: {
        description: 'The count is unchanged since the ETag given in If-None-Match.',
        headers: { ETag: { schema: { type: 'string' } }, 'X-Poll-Interval': { schema: { type: 'integer' } } },
      },
      401: unauthenticated,
    },
  },
  markRead: idsOperation('Mark notifications read', '`count` notifications went from unread to read.'),
  deleteNotifications: idsOperation(
    'Delete notifications',
    '`count` notifications were deleted: they leave `fetch` and `count` at once, and are removed for good ' +
      'once their undo has expired.',
  ),
  markUnread: idsOperation('Mark notifications unread', '`count` notifications went from read to unread.', {
    all: false,
  }),
  snoozeNotifications: {
    summary: 'Snooze notifications until a time',
    description:
      'They leave the inbox and the count until `until`, then come back unread at the top; snoozing a ' +
      'snoozed notification moves its wake time. One transaction. The answer’s `undo` token puts back the ' +
      `snooze state each had before, once, for ${LIMITS.undoSeconds} seconds; it is null when nothing changed.`,
    security: bearer,
    requestBody: body('SnoozeBody'),
    responses: {
      200: answer('`count` notifications were snoozed.', 'BulkResult'),
      400: problem(
        '`ids` is not a list of at most 500 UUIDs (`invalid_ids`), or `until` is not ISO 8601 with an offset, ' +
          `${LIMITS.snoozeMinSeconds} s to 365 days ahead (\`invalid_until\`).`,
        ['invalid_ids', 'invalid_until'],
      ),
      401: unauthenticated,
      415: unsupportedMediaType,
    },
  },
  unsnoozeNotifications: {
    summary: 'Bring snoozed notifications back now',
    description: 'They come back now, unread, as if woken. One transaction.',
    security: bearer,
    requestBody: body('IdsListBody'),
    responses: {
      200: answer('`count` notifications were woken.', 'UnsnoozeResult'),
      400: problem('The body is not `{ "ids": [uuid, …] }` (`"all"` is refused).', ['invalid_ids']),
      401: unauthenticated,
      415: unsupportedMediaType,
    },
  },
  undoTriage: {
    summary: 'Undo a triage call',
    description:
      'Puts back exactly what the call that gave the token changed, as it was before; a notification ' +
      'changed since by another call is left as it is and not counted. One transaction.',
    security: bearer,
    requestBody: body('UndoBody'),
    responses: {
      200: answer('`count` notifications were put back.', 'UndoResult'),
      400: problem('Malformed, forged, unknown, or another user’s token.', ['invalid_undo']),
      401: unauthenticated,
      410: problem(`Already used, or more than ${LIMITS.undoSeconds} seconds old.`, ['undo_expired']),
      415: unsupportedMediaType,
    },
  },
  listMutes: {
    summary: 'The mutes in force, newest first',
    description: 'A mute that has ended is gone from the list.',
    security: bearer,
    responses: { 200: answer('The mutes.', 'Mutes'), 401: unauthenticated },
  },
  addMute: {
    summary: 'Mute a person or a link',
    description:
      'While it holds, notifications whose actor is that person, or whose `url` is that link, leave the ' +
      'default `fetch`, the counts and the live channel’s `notification` frames, those already there and those to ' +
      'come; `fetch?muted=true` lists them. Muting what is already muted answers 200 with that mute, its `until` ' +
      `moved. At most ${LIMITS.mutesPerUser} mutes per user. Follows and reports are left as they are.`,
    security: bearer,
    requestBody: body('MuteBody'),
    responses: {
      200: answer('It was muted already; `until` is the one given now.', 'Mute'),
      201: answer('Muted.', 'Mute'),
      400: problem(
        'Not exactly one of `actor` and `url`, a bad URL, `until` not ISO 8601 with an offset ' +
          `${LIMITS.snoozeMinSeconds} s to 365 days ahead, or yourself (\`invalid_mute\`); ` +
          `${LIMITS.mutesPerUser} mutes already (\`too_many_mutes\`).`,
        ['invalid_mute', 'too_many_mutes'],
      ),
      401: unauthenticated,
      404: userNotFound,
      415: unsupportedMediaType,
    },
  },
  removeMute: {
    summary: 'Remove a mute',
    description: 'Its notifications come back as they are (read state kept), with no `notification` frame.',
    security: bearer,
    responses: {
      204: noContent('Removed.'),
      401: unauthenticated,
      404: problem('No mute of the caller’s with this id is in force.', ['mute_not_found']),
      415: strayBodyType,
    },
  },
  getInboxPolicy: {
    summary: 'What happens to notifications from people the user does not follow',
    description: 'A service that answers this route has mutes and search.',
    security: bearer,
    responses: { 200: answer('The policy; `accept` until changed.', 'Policy'), 401: unauthenticated },
  },
  setInboxPolicy: {
    summary: 'Change the strangers policy',
    description: 'With `mute`, following someone later brings their notifications back; unfollowing mutes them again.',
    security: bearer,
    requestBody: body('PolicyBody'),
    responses: {
      200: answer('The policy now.', 'Policy'),
      400: problem('The body is not `{ "strangers": "accept" | "mute" }`.', ['invalid_body']),
      401: unauthenticated,
      415: unsupportedMediaType,
    },
  },
  issueLiveTicket: {
    summary: 'A ticket to open the live channel with',
    description:
      `Single-use, valid for ${LIMITS.liveTicketSeconds} s, bound to the caller and the token that asked ` +
      'for it. A browser cannot put a token on a WebSocket, and a token never goes into a URL. While the ' +
      'instance’s live channels are full (see `openLiveChannel`), it is a 503 `service_unavailable` with ' +
      'Retry-After instead.',
    security: bearer,
    responses: {
      201: answer('The ticket.', 'LiveTicket'),
      401: unauthenticated,
      415: strayBodyType,
      429: problem(
        `The caller's user already has ${LIMITS.liveChannelsPerUser} live channels open on this instance (by ` +
          `default; \`too_many_channels\`), or took ${LIMITS.liveTicketsPerMinute} tickets in the last minute ` +
          '(`rate_limited`). A client keeps one channel and waits at least Retry-After.',
        ['too_many_channels', 'rate_limited'],
        retryAfter,
      ),
    },
  },
  openLiveChannel: {
    summary: 'The live channel (WebSocket)',
    description:
      'Opened with a WebSocket upgrade. The service sends text frames, one JSON object each ' +
      '(`LiveServerFrame`): the unread count and its counts by type at once and after every change, a ' +
      'wake included (changes closer than 100 ms apart may be coalesced; the last value always ' +
      'arrives), each new notification, and a pong for ' +
      `each ping. The client sends only \`{ "type": "ping" }\` (\`LiveClientFrame\`), every 20–25 s; a ` +
      `channel silent for ${LIMITS.liveIdleSeconds} s is closed. Close codes: 1008 for a frame that is not ` +
      `a ping or not JSON, or frames too often; 1009 for a frame over ${LIMITS.liveFrameMaxBytes} bytes; ` +
      '4401 when the token is revoked or its user deleted; 1001 when the service stops or the channel ' +
      'was idle; 1013 when the service lost its database for a moment (reconnect with a new ticket). ' +
      `Live channels hold at most ${CHANNEL_SHARE_OF_CONNECTIONS * 100} % of an instance’s connections, the rest being kept for requests: past ` +
      'that, and while the instance cannot hear its database, the upgrade is a 503 `service_unavailable` ' +
      'with Retry-After, and the ticket is still good.',
    security: noAuth,
    parameters: [{ name: 'ticket', in: 'query', required: true, schema: { type: 'string' } }],
    responses: {
      101: noContent('Switching to the WebSocket protocol: the channel is open.'),
      401: problem('A missing, unknown, expired or already used ticket; nothing was upgraded.', ['unauthenticated']),
      426: problem('A plain GET, without a WebSocket upgrade.', ['upgrade_required'], {
        Upgrade: { schema: { type: 'string', const: 'websocket' } },
      }),
      429: problem(
        'The ticket’s user already has as many live channels open on this instance as it may; the ticket is spent.',
        ['too_many_channels'],
        retryAfter,
      ),
    },
  },
  deliverNotification: {
    summary: 'Deliver a notification to a user (operator API)',
    description: 'How other parts of a deployment put notifications into inboxes; live channels hear of it at once.',
    security: operatorOnly,
    requestBody: body('OperatorNotificationBody'),
    responses: {
      201: answer('The notification as the user will see it.', 'Notification'),
      400: problem('A field is not valid.', ['invalid_notification']),
      401: unauthenticated,
      403: forbidden,
      404: problem('No such user or actor.', ['user_not_found']),
      415: unsupportedMediaType,
    },
  },
  revokeUserToken: {
    summary: 'Revoke a user’s token (operator API)',
    description: 'The token stops working at once; live channels opened with it close with 4401.',
    security: operatorOnly,
    requestBody: body('OperatorRevokeBody'),
    responses: {
      200: answer('`revoked` is false for a token that was unknown or already revoked.', 'OperatorRevokeResult'),
      400: problem('The body is not `{ "token": "…" }`.', ['invalid_body']),
      401: unauthenticated,
      403: forbidden,
      415: unsupportedMediaType,
    },
  },
  exchangeAuthorizationCode: {
    summary: 'Exchange an authorization code for a token (OAuth 2.1, PKCE)',
    description:
      'The code comes from the authorize page (`authorizationEndpoint` of the discovery document) through ' +
      '`redirect_uri`. It works once: a second use fails and revokes the token the first one got. Answers ' +
      'carry `Cache-Control: no-store`; any origin may call it (CORS).',
    security: noAuth,
    requestBody: formBody('OAuthTokenRequest'),
    responses: {
      200: answer('An ordinary user token.', 'OAuthToken'),
      400: oauthError(
        '`invalid_grant`: the code is unknown, expired or used, or the redirect URI or verifier does not match. ' +
          '`invalid_client`: not the known client. `invalid_request`: a parameter is missing or repeated.',
        OAUTH_ERROR_CODES,
      ),
      415: formOnly,
    },
  },
  revokeToken: {
    summary: 'Revoke a token (RFC 7009)',
    description:
      'The token stops working at once and live channels opened with it close with 4401. The answer is the ' +
      'same whether the token was valid, unknown or already revoked. Any origin may call it (CORS).',
    security: noAuth,
    requestBody: formBody('OAuthRevokeRequest'),
    responses: {
      200: noContent('The token, if it was one, no longer works.'),
      400: oauthError('No `token` parameter, or more than one.', ['invalid_request']),
      415: formOnly,
    },
  },
  getMe: {
    summary: 'The profile of the token’s owner',
    description:
      'Who the token belongs to, as an app learns after signing in (the shape of `getProfile`, with `self` true).',
    security: bearer,
    responses: {
      200: answer('The caller’s own profile.', 'Profile'),
      401: unauthenticated,
    },
  },
  getProfile: {
    summary: 'A profile',
    description: '`following`, `followedBy` and `self` are present only on an authenticated request.',
    security: optionalBearer,
    responses: {
      200: answer('The profile.', 'Profile'),
      401: unauthenticated,
      404: userNotFound,
    },
  },
  followUser: {
    summary: 'Follow a user',
    description:
      'A new follow puts a `follow` notification into the followed user’s inbox, at most once per ' +
      `follower and followed user in ${LIMITS.followNoticeHours} hours.`,
    security: bearer,
    responses: {
      204: noContent('Now following.'),
      400: problem('Already following, or following yourself.', ['already_following', 'cannot_follow_self']),
      401: unauthenticated,
      404: userNotFound,
      415: strayBodyType,
      429: followLimited,
    },
  },
  unfollowUser: {
    summary: 'Unfollow a user',
    security: bearer,
    responses: {
      204: noContent('No longer following.'),
      400: problem('Not following, or yourself.', ['not_following', 'cannot_follow_self']),
      401: unauthenticated,
      404: userNotFound,
      415: strayBodyType,
      429: followLimited,
    },
  },
  reportUser: {
    summary: 'Report a user',
    security: bearer,
    requestBody: body('ReportBody'),
    responses: {
      201: answer('The report was received.', 'ReportResult'),
      400: problem('A bad reason or comment, or yourself.', ['invalid_report', 'cannot_report_self']),
      401: unauthenticated,
      404: userNotFound,
      415: unsupportedMediaType,
      429: problem(`More than ${LIMITS.reportsPerHour} reports in an hour.`, ['rate_limited'], retryAfter),
    },
  },
  discoverService: {
    summary: 'Where the API and the site are, and how to sign in',
    description:
      'On the site origin, not under the API base URL: a client finds it from any address of the service a ' +
      'person types. Sign-in is OAuth 2.1 with PKCE (S256 only): open `authorizationEndpoint` (an HTML page) ' +
      'with `response_type=code`, `client_id`, `redirect_uri`, `code_challenge`, `code_challenge_method=S256`, ' +
      '`state` and `scope`, then exchange the code at `tokenEndpoint`. Any origin may read it (CORS).',
    security: noAuth,
    responses: {
      200: answer('The discovery document.', 'Discovery'),
    },
  },
  getOpenApiDocument: {
    summary: 'This document',
    security: noAuth,
    responses: {
      200: { description: 'The OpenAPI document.', content: { 'application/json': { schema: { type: 'object' } } } },
    },
  },
  checkHealth: {
    summary: 'Whether this instance can serve now, for a load balancer’s checks',
    description:
      'On the site origin. The instance asks its database a trivial question and answers 200 when it is ' +
      'answered within a short time (2 s by default); a balancer leaves an instance answering anything else ' +
      'out. No authentication, nothing kept.',
    security: noAuth,
    responses: {
      200: {
        description: 'The instance and its database answer.',
        content: {
          'application/json': {
            schema: { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } },
          },
        },
      },
      503: problem(
        'The database did not answer in time or cannot be reached, or the instance is shutting down.',
        ['service_unavailable'],
        retryAfter,
      ),
    },
  },
};

const idempotencyKeyReused = problem(
  'The `Idempotency-Key` was used in the last 24 hours for a different method, path or body; nothing was done.',
  ['idempotency_key_reused'],
);
const requestInProgress = problem(
  'A request with this `Idempotency-Key` is still running; send it again after Retry-After.',
  ['request_in_progress'],
  { 'Retry-After': { schema: { type: 'integer', minimum: 1 }, description: 'Seconds to wait: 1.' } },
);
const replayed = {
  'Idempotent-Replayed': {
    schema: { type: 'string', enum: ['true'] },
    description: 'Present when this is the kept answer of an earlier request with the same `Idempotency-Key`.',
  },
};

/**
 * An API POST or DELETE with `Idempotency-Key`: its kept answers (2xx, 400, 404) may be replays,
 * and a reused key or one still in use has an answer of its own.
 */
function withIdempotencyKey(operation: Operation): Operation {
  const responses: Record<number, Answer> = {};
  for (const [status, answered] of Object.entries(operation.responses)) {
    const kept = Number(status) < 300 || status === '400' || status === '404';
    responses[Number(status)] = kept ? { ...answered, headers: { ...answered.headers, ...replayed } } : answered;
  }
  return {
    ...operation,
    parameters: [...(operation.parameters ?? []), { $ref: '#/components/parameters/IdempotencyKey' }],
    responses: { ...responses, 409: requestInProgress, 422: idempotencyKeyReused },
  };
}

/**
 * The documented routes of `ROUTES`, in its order, with OpenAPI's `{name}` for a `:name` parameter
 * (each described once under `components.parameters`).
 */
function documentedPaths(): Record<string, PathItem> {
  const paths: Record<string, PathItem> = {};
  for (const { path, site, bodyType, methods } of ROUTES as readonly Route[]) {
    const documented = Object.entries(methods).filter(([, method]) => method.operationId !== undefined);
    if (documented.length === 0) continue;
    const item: PathItem = {};
    if (site) item.servers = [SITE_SERVER];
    const parameters = [...path.matchAll(/:(\w+)/g)].map(([, name]) => ({ $ref: `#/components/parameters/${name}` }));
    if (parameters.length > 0) item.parameters = parameters;
    for (const [method, { operationId }] of documented) {
      const id = operationId as OperationId;
      const keyed = !site && bodyType === undefined && (method === 'POST' || method === 'DELETE');
      const operation = keyed ? withIdempotencyKey(operations[id]) : operations[id];
      item[method.toLowerCase() as Lowercase<Method>] = { operationId: id, ...operation };
    }
    paths[path.replace(/:(\w+)/g, '{$1}')] = item;
  }
  return paths;
}

export function buildOpenApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Inbox API',
      version: '1.0.0',
      description:
        'The notification inbox and profile actions of the service Inbox Companion works with. ' +
        'Every non-2xx answer is RFC 9457 problem details with a machine-readable `code`. ' +
        'An unknown path answers 404 `not_found`; a known path with another method answers 405 ' +
        '`method_not_allowed` with an `Allow` header; a body over the size limit answers 413 `payload_too_large`; ' +
        'a body sent as anything but `application/json` answers 415 `unsupported_media_type`.',
    },
    servers: [{ url: 'http://127.0.0.1:8787/api', description: 'The reference service, run locally' }],
    paths: documentedPaths(),
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer' },
        operatorAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An operator token (`npm run server -- operator-token`), never a user’s token.',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Any 1 to 255 visible ASCII characters, new for each intent and the same on each retry of it. For 24 ' +
            'hours the same request with the same key gets the first answer again (2xx, 400, 404 or 422), with ' +
            '`Idempotent-Replayed: true`, and nothing is done twice; 401, 403, 408, 409, 429 and 5xx are not kept.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
        },
        id: {
          name: 'id',
          in: 'path',
          required: true,
          description: 'A mute’s id.',
          schema: { type: 'string' },
        },
        username: {
          name: 'username',
          in: 'path',
          required: true,
          description: 'Compared case-insensitively.',
          schema: { type: 'string', pattern: USERNAME_PATTERN.source },
        },
      },
      schemas: componentSchemas(),
    },
  };
}

export const openApiJson = () => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('./openapi.json', import.meta.url), openApiJson());
}
