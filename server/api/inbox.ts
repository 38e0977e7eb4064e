import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { createFactory } from 'hono/factory';
import {
  type BulkResult,
  type CountResult,
  IdsBodySchema,
  type IdsSelection,
  LIMITS,
  type Page,
} from '../../lib/api/contract';
import {
  countUnread,
  deleteNotifications,
  listNotifications,
  markRead,
  type StoredNotification,
} from '../store/notifications';
import { type SignedInEnv, signedIn } from './auth';
import type { ApiDeps } from './context';
import { ProblemError } from './problem';
import { singleQuery, validBody } from './request';
import { toWireNotification } from './wire';

const LIMIT_PATTERN = /^[0-9]{1,3}$/;

function pageSize(c: Context): number {
  const value = singleQuery(c, 'limit', 'invalid_limit');
  if (value === undefined) return LIMITS.pageSizeDefault;
  const limit = LIMIT_PATTERN.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= LIMITS.pageSizeMin && limit <= LIMITS.pageSizeMax)) {
    throw new ProblemError(
      400,
      'invalid_limit',
      `limit must be a whole number from ${LIMITS.pageSizeMin} to ${LIMITS.pageSizeMax}.`,
    );
  }
  return limit;
}

function unreadOnly(c: Context): boolean {
  const value = singleQuery(c, 'unreadOnly', 'invalid_parameter');
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new ProblemError(400, 'invalid_parameter', 'unreadOnly must be true or false.');
}

/** Strong ETag of the unread count, bound to the user so a change of account revalidates. */
function countTag(userId: number, count: number): string {
  return `"${createHash('sha256').update(`${userId}:${count}`).digest('base64url').slice(0, 22)}"`;
}

function matchesTag(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value.replace(/^W\//, '') === tag;
  });
}

async function idsSelection(c: Context): Promise<IdsSelection> {
  const shape = '{ "ids": ["<uuid>", ...] } or { "ids": "all" }';
  const refusal = `ids must be "all" or an array of at most ${LIMITS.idsPerCall} notification UUIDs: ${shape}.`;
  return (await validBody(c, IdsBodySchema, { code: 'invalid_ids', shape, refusal })).ids;
}

export function inboxHandlers(deps: ApiDeps) {
  const { db, cursors } = deps;

  const toWire = (n: StoredNotification) => toWireNotification(n, deps.origin());

  async function fetchPage(c: Context<SignedInEnv>) {
    const { caller } = c.var;
    const limit = pageSize(c);
    const scope = { userId: caller.userId, unreadOnly: unreadOnly(c) };
    const cursor = singleQuery(c, 'cursor', 'invalid_cursor');
    const after = cursor === undefined ? null : cursors.decode(cursor, scope);
    if (cursor !== undefined && after === null) {
      throw new ProblemError(
        400,
        'invalid_cursor',
        'The cursor is not one this service gave for this inbox listing; start again without a cursor.',
      );
    }
    const rows = await listNotifications(db, caller.userId, { limit: limit + 1, unreadOnly: scope.unreadOnly, after });
    const data = rows.slice(0, limit);
    const last = data[data.length - 1];
    const page: Page = {
      data: data.map(toWire),
      cursor: rows.length > limit && last ? cursors.encode({ createdAt: last.createdAt, id: last.id }, scope) : null,
    };
    c.header('cache-control', 'no-store');
    return c.json(page);
  }

  async function count(c: Context<SignedInEnv>) {
    const { caller } = c.var;
    const unread = await countUnread(db, caller.userId);
    const tag = countTag(caller.userId, unread);
    c.header('etag', tag);
    c.header('x-poll-interval', String(deps.pollIntervalSeconds));
    c.header('cache-control', 'private, no-cache');
    c.header('vary', 'Authorization');
    if (matchesTag(c.req.header('if-none-match'), tag)) return c.body(null, 304);
    const body: CountResult = { count: unread };
    return c.json(body);
  }

  function bulk(apply: typeof markRead) {
    return async (c: Context<SignedInEnv>) => {
      const { caller } = c.var;
      const ids = await idsSelection(c);
      const result: BulkResult = { success: true, count: await apply(db, caller.userId, ids) };
      c.header('cache-control', 'no-store');
      return c.json(result);
    };
  }

  const { createHandlers } = createFactory();
  const auth = signedIn(db);
  return {
    fetchPage: createHandlers(auth, fetchPage),
    count: createHandlers(auth, count),
    markRead: createHandlers(auth, bulk(markRead)),
    delete: createHandlers(auth, bulk(deleteNotifications)),
  };
}
