/**
 * Builds the OpenAPI 3.1 document of the API from the contract module, so its bounds, lists and
 * codes cannot drift from what the service enforces. The built document is checked in as
 * `server/openapi.json` and served at `/api/openapi.json`; a test keeps the two equal and the
 * document true to the routes. Run this file to write it again: `npx tsx server/openapi.ts`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  ERROR_CODES,
  type ErrorCode,
  LIMITS,
  NOTIFICATION_TYPES,
  REPORT_REASONS,
  USERNAME_PATTERN,
} from '../lib/api/contract';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const uuid = { type: 'string', format: 'uuid' };
const timestamp = { type: 'string', format: 'date-time' };
const count = { type: 'integer', minimum: 0 };

function problem(description: string, codes: readonly ErrorCode[], headers?: object) {
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
const bearer = [{ bearerAuth: [] }];
const operatorOnly = [{ operatorAuth: [] }];
const forbidden = problem('A user’s token: the operator API takes operator tokens only.', ['forbidden']);
const usernameParameter = { $ref: '#/components/parameters/username' };

const idsOperation = (summary: string, countMeaning: string) => ({
  summary,
  security: bearer,
  requestBody: { required: true, content: json(ref('IdsBody')) },
  responses: {
    200: { description: countMeaning, content: json(ref('BulkResult')) },
    400: problem('The body is not `{ "ids": [uuid, …] }` or `{ "ids": "all" }`.', ['invalid_ids']),
    401: unauthenticated,
  },
});

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
        '`method_not_allowed` with an `Allow` header; a body over the size limit answers 413 `payload_too_large`.',
    },
    servers: [{ url: 'http://127.0.0.1:8787/api', description: 'The reference service, run locally' }],
    paths: {
      '/inbox/fetch': {
        get: {
          summary: 'One page of the inbox, newest first',
          description:
            'Keyset pagination: pass each answer’s `cursor` back until it is null. A cursor is valid only for ' +
            'the user and the `unreadOnly` value it was issued for.',
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
          ],
          responses: {
            200: { description: 'A page.', content: json(ref('Page')) },
            400: problem('A bad query parameter.', ['invalid_limit', 'invalid_cursor', 'invalid_parameter']),
            401: unauthenticated,
          },
        },
      },
      '/inbox/count': {
        get: {
          summary: 'The unread count',
          security: bearer,
          parameters: [{ name: 'If-None-Match', in: 'header', schema: { type: 'string' } }],
          responses: {
            200: {
              description: 'The count.',
              headers: {
                ETag: { schema: { type: 'string' } },
                'X-Poll-Interval': {
                  schema: { type: 'integer', minimum: 1 },
                  description: 'The least number of seconds between two polls.',
                },
              },
              content: json(ref('Count')),
            },
            304: {
              description: 'The count is unchanged since the ETag given in If-None-Match.',
              headers: { ETag: { schema: { type: 'string' } }, 'X-Poll-Interval': { schema: { type: 'integer' } } },
            },
            401: unauthenticated,
          },
        },
      },
      '/inbox/read': {
        post: idsOperation('Mark notifications read', '`count` notifications went from unread to read.'),
      },
      '/inbox/delete': {
        post: idsOperation('Delete notifications permanently', '`count` notifications were deleted.'),
      },
      '/inbox/live/ticket': {
        post: {
          summary: 'A ticket to open the live channel with',
          description:
            `Single-use, valid for ${LIMITS.liveTicketSeconds} s, bound to the caller and the token that asked ` +
            'for it. A browser cannot put a token on a WebSocket, and a token never goes into a URL.',
          security: bearer,
          responses: {
            201: { description: 'The ticket.', content: json(ref('LiveTicket')) },
            401: unauthenticated,
          },
        },
      },
      '/inbox/live': {
        get: {
          summary: 'The live channel (WebSocket)',
          description:
            'Opened with a WebSocket upgrade. The service sends text frames, one JSON object each ' +
            '(`LiveServerFrame`): the unread count at once and after every change (changes closer than 100 ms ' +
            'apart may be coalesced; the last value always arrives), each new notification, and a pong for ' +
            `each ping. The client sends only \`{ "type": "ping" }\` (\`LiveClientFrame\`), every 20–25 s; a ` +
            `channel silent for ${LIMITS.liveIdleSeconds} s is closed. Close codes: 1008 for a frame that is not ` +
            `a ping or not JSON, or frames too often; 1009 for a frame over ${LIMITS.liveFrameMaxBytes} bytes; ` +
            '4401 when the token is revoked or its user deleted; 1001 when the service stops or the channel ' +
            'was idle, 1013 when the service lost its database for a moment (reconnect with a new ticket).',
          parameters: [{ name: 'ticket', in: 'query', required: true, schema: { type: 'string' } }],
          responses: {
            101: { description: 'Switching to the WebSocket protocol: the channel is open.' },
            401: problem('A missing, unknown, expired or already used ticket; nothing was upgraded.', [
              'unauthenticated',
            ]),
            426: problem('A plain GET, without a WebSocket upgrade.', ['upgrade_required'], {
              Upgrade: { schema: { type: 'string', const: 'websocket' } },
            }),
          },
        },
      },
      '/operator/notifications': {
        post: {
          summary: 'Deliver a notification to a user (operator API)',
          description:
            'How other parts of a deployment put notifications into inboxes; live channels hear of it at once.',
          security: operatorOnly,
          requestBody: { required: true, content: json(ref('OperatorNotificationBody')) },
          responses: {
            201: { description: 'The notification as the user will see it.', content: json(ref('Notification')) },
            400: problem('A field is not valid.', ['invalid_notification']),
            401: unauthenticated,
            403: forbidden,
            404: problem('No such user or actor.', ['user_not_found']),
          },
        },
      },
      '/operator/tokens/revoke': {
        post: {
          summary: 'Revoke a user’s token (operator API)',
          description: 'The token stops working at once; live channels opened with it close with 4401.',
          security: operatorOnly,
          requestBody: { required: true, content: json(ref('OperatorRevokeBody')) },
          responses: {
            200: {
              description: '`revoked` is false for a token that was unknown or already revoked.',
              content: json(ref('OperatorRevokeResult')),
            },
            400: problem('The body is not `{ "token": "…" }`.', ['invalid_body']),
            401: unauthenticated,
            403: forbidden,
          },
        },
      },
      '/user/{username}': {
        parameters: [usernameParameter],
        get: {
          summary: 'A profile',
          description: '`following`, `followedBy` and `self` are present only on an authenticated request.',
          security: [{}, { bearerAuth: [] }],
          responses: {
            200: { description: 'The profile.', content: json(ref('Profile')) },
            401: unauthenticated,
            404: userNotFound,
          },
        },
      },
      '/user/{username}/follow': {
        parameters: [usernameParameter],
        post: {
          summary: 'Follow a user',
          description: 'A new follow puts a `follow` notification into the followed user’s inbox.',
          security: bearer,
          responses: {
            204: { description: 'Now following.' },
            400: problem('Already following, or following yourself.', ['already_following', 'cannot_follow_self']),
            401: unauthenticated,
            404: userNotFound,
          },
        },
        delete: {
          summary: 'Unfollow a user',
          security: bearer,
          responses: {
            204: { description: 'No longer following.' },
            400: problem('Not following, or yourself.', ['not_following', 'cannot_follow_self']),
            401: unauthenticated,
            404: userNotFound,
          },
        },
      },
      '/user/{username}/report': {
        parameters: [usernameParameter],
        post: {
          summary: 'Report a user',
          security: bearer,
          requestBody: { required: true, content: json(ref('ReportBody')) },
          responses: {
            201: { description: 'The report was received.', content: json(ref('ReportResult')) },
            400: problem('A bad reason or comment, or yourself.', ['invalid_report', 'cannot_report_self']),
            401: unauthenticated,
            404: userNotFound,
            429: problem(`More than ${LIMITS.reportsPerHour} reports in an hour.`, ['rate_limited'], {
              'Retry-After': { schema: { type: 'integer', minimum: 1 }, description: 'Seconds to wait.' },
            }),
          },
        },
      },
      '/openapi.json': {
        get: {
          summary: 'This document',
          responses: { 200: { description: 'The OpenAPI document.', content: json({ type: 'object' }) } },
        },
      },
    },
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
        username: {
          name: 'username',
          in: 'path',
          required: true,
          description: 'Compared case-insensitively.',
          schema: { type: 'string', pattern: USERNAME_PATTERN.source },
        },
      },
      schemas: {
        Actor: {
          type: 'object',
          required: ['username', 'displayName'],
          properties: {
            username: { type: 'string', pattern: USERNAME_PATTERN.source },
            displayName: { type: 'string' },
          },
        },
        Notification: {
          type: 'object',
          required: ['id', 'read', 'type', 'createdAt', 'actor', 'text', 'url'],
          properties: {
            id: uuid,
            read: { type: 'boolean' },
            type: { type: 'string', enum: [...NOTIFICATION_TYPES] },
            createdAt: timestamp,
            actor: { oneOf: [ref('Actor'), { type: 'null' }] },
            text: { type: 'string', description: 'Plain text, never HTML.' },
            url: { type: ['string', 'null'], format: 'uri' },
          },
        },
        Page: {
          type: 'object',
          required: ['data', 'cursor'],
          properties: {
            data: { type: 'array', items: ref('Notification'), maxItems: LIMITS.pageSizeMax },
            cursor: { type: ['string', 'null'], minLength: 1, description: 'null on the last page.' },
          },
        },
        Count: { type: 'object', required: ['count'], properties: { count } },
        BulkResult: {
          type: 'object',
          required: ['success', 'count'],
          properties: { success: { type: 'boolean' }, count },
        },
        IdsBody: {
          type: 'object',
          required: ['ids'],
          properties: {
            ids: {
              oneOf: [
                { type: 'array', items: uuid, maxItems: LIMITS.idsPerCall },
                { type: 'string', const: 'all' },
              ],
            },
          },
        },
        Profile: {
          type: 'object',
          required: ['username', 'displayName', 'bio', 'avatarUrl', 'followersCount', 'followingCount', 'createdAt'],
          properties: {
            username: { type: 'string', pattern: USERNAME_PATTERN.source },
            displayName: { type: 'string' },
            bio: { type: 'string' },
            avatarUrl: { type: ['string', 'null'] },
            followersCount: count,
            followingCount: count,
            createdAt: timestamp,
            following: { type: 'boolean' },
            followedBy: { type: 'boolean' },
            self: { type: 'boolean' },
          },
        },
        ReportBody: {
          type: 'object',
          required: ['reason', 'comment'],
          properties: {
            reason: { type: 'string', enum: [...REPORT_REASONS] },
            comment: { type: 'string', maxLength: LIMITS.reportCommentMax },
          },
        },
        ReportResult: {
          type: 'object',
          required: ['id', 'status', 'reason', 'createdAt'],
          properties: {
            id: uuid,
            status: { type: 'string', const: 'received' },
            reason: { type: 'string', enum: [...REPORT_REASONS] },
            createdAt: timestamp,
          },
        },
        LiveTicket: {
          type: 'object',
          required: ['ticket', 'expiresAt'],
          properties: { ticket: { type: 'string', minLength: 1 }, expiresAt: timestamp },
        },
        LiveServerFrame: {
          oneOf: [
            {
              type: 'object',
              required: ['type', 'count'],
              properties: { type: { type: 'string', const: 'count' }, count },
            },
            {
              type: 'object',
              required: ['type', 'notification'],
              properties: { type: { type: 'string', const: 'notification' }, notification: ref('Notification') },
            },
            { type: 'object', required: ['type'], properties: { type: { type: 'string', const: 'pong' } } },
          ],
        },
        LiveClientFrame: {
          type: 'object',
          required: ['type'],
          properties: { type: { type: 'string', const: 'ping' } },
        },
        OperatorNotificationBody: {
          type: 'object',
          required: ['username', 'type', 'text'],
          properties: {
            username: { type: 'string', pattern: USERNAME_PATTERN.source },
            type: { type: 'string', enum: [...NOTIFICATION_TYPES] },
            text: { type: 'string', minLength: 1, maxLength: LIMITS.notificationTextMax },
            actor: { type: ['string', 'null'], pattern: USERNAME_PATTERN.source, default: null },
            url: { type: ['string', 'null'], format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', default: null },
          },
        },
        OperatorRevokeBody: {
          type: 'object',
          required: ['token'],
          properties: { token: { type: 'string', minLength: 1 } },
        },
        OperatorRevokeResult: {
          type: 'object',
          required: ['revoked'],
          properties: { revoked: { type: 'boolean' } },
        },
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'code'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            code: { type: 'string', enum: [...ERROR_CODES] },
          },
        },
      },
    },
  };
}

export const openApiJson = () => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('./openapi.json', import.meta.url), openApiJson());
}
