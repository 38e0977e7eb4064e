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
const usernameParameter = { $ref: '#/components/parameters/username' };

const idsOperation = (summary: string, countMeaning: string, options: { all: boolean } = { all: true }) => ({
  summary,
  description:
    `One transaction. The answer's \`undo\` token puts back what this call changed, once, for ${LIMITS.undoSeconds} ` +
    'seconds (`POST /inbox/undo`); it is null when nothing changed.',
  security: bearer,
  requestBody: { required: true, content: json(ref(options.all ? 'IdsBody' : 'IdsListBody')) },
  responses: {
    200: { description: countMeaning, content: json(ref('BulkResult')) },
    400: problem(
      options.all
        ? 'The body is not `{ "ids": [uuid, …] }` or `{ "ids": "all" }`.'
        : 'The body is not `{ "ids": [uuid, …] }` (`"all"` is refused).',
      ['invalid_ids'],
    ),
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
        post: idsOperation(
          'Delete notifications',
          '`count` notifications were deleted: they leave `fetch` and `count` at once, and are removed for good ' +
            'once their undo has expired.',
        ),
      },
      '/inbox/unread': {
        post: idsOperation('Mark notifications unread', '`count` notifications went from read to unread.', {
          all: false,
        }),
      },
      '/inbox/undo': {
        post: {
          summary: 'Undo a triage call',
          description:
            'Puts back exactly what the call that gave the token changed, as it was before; a notification ' +
            'changed since by another call is left as it is and not counted. One transaction.',
          security: bearer,
          requestBody: { required: true, content: json(ref('UndoBody')) },
          responses: {
            200: { description: '`count` notifications were put back.', content: json(ref('UndoResult')) },
            400: problem('Malformed, forged, unknown, or another user’s token.', ['invalid_undo']),
            401: unauthenticated,
            410: problem(`Already used, or more than ${LIMITS.undoSeconds} seconds old.`, ['undo_expired']),
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
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
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
          required: ['success', 'count', 'undo'],
          properties: {
            success: { type: 'boolean' },
            count,
            undo: {
              type: ['string', 'null'],
              minLength: 1,
              maxLength: LIMITS.undoTokenMax,
              description: 'Opaque; null when `count` is 0.',
            },
          },
        },
        UndoResult: {
          type: 'object',
          required: ['success', 'count'],
          properties: { success: { type: 'boolean' }, count },
        },
        UndoBody: {
          type: 'object',
          required: ['undo'],
          properties: { undo: { type: 'string', minLength: 1, maxLength: LIMITS.undoTokenMax } },
        },
        IdsListBody: {
          type: 'object',
          required: ['ids'],
          properties: { ids: { type: 'array', items: uuid, maxItems: LIMITS.idsPerCall } },
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
