import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { createFactory } from 'hono/factory';
import {
  type BulkResult,
  type CountResult,
  IdsBodySchema,
  type IdsList,
  IdsListBodySchema,
  type IdsSelection,
  LIMITS,
  type Page,
  UndoBodySchema,
  type UndoResult,
} from '../../lib/api/contract';
import type { Queryable } from '../db/database';
import {
  countUnreadAs,
  deleteNotifications,
  listNotificationsAs,
  markRead,
  markUnread,
  type StoredNotification,
  type TriageStamp,
} from '../store/notifications';
import { runOperation, type TriageKind, undoOperation } from '../store/triage-operations';
import { bearerToken, invalidToken, requireCaller, type SignedInEnv, signedIn } from './auth';
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

const invalidCursor = () =>
  new ProblemError(
    400,
    'invalid_cursor',
    'The cursor is not one this service gave for this inbox listing; start again without a cursor.',
  );

async function idsSelection(c: Context): Promise<IdsSelection> {
  const shape = '{ "ids": ["<uuid>", ...] } or { "ids": "all" }';
  const refusal = `ids must be "all" or an array of at most ${LIMITS.idsPerCall} notification UUIDs: ${shape}.`;
  return (await validBody(c, IdsBodySchema, { code: 'invalid_ids', shape, refusal })).ids;
}

async function idsList(c: Context): Promise<IdsList> {
  const shape = '{ "ids": ["<uuid>", ...] }';
  const refusal = `ids must be an array of at most ${LIMITS.idsPerCall} notification UUIDs ("all" is refused): ${shape}.`;
  return (await validBody(c, IdsListBodySchema, { code: 'invalid_ids', shape, refusal })).ids;
}

const UNDO_SHAPE = '{ "undo": "<token from a triage answer>" }';
/** One answer for every token that is not the caller's to use, so none reveals anything. */
const UNDO_REFUSAL = `The body must be ${UNDO_SHAPE} with a token this service gave you; nothing was changed.`;

const undoExpired = () =>
  new ProblemError(
    410,
    'undo_expired',
    `An undo works once and for ${LIMITS.undoSeconds} seconds after its operation; this one can no longer be used.`,
  );

export function inboxHandlers(deps: ApiDeps) {
  const { db, cursors, undoTokens } = deps;

  const toWire = (n: StoredNotification) => toWireNotification(n, deps.origin());

  /** What a page request asks for; its 400 problems come after a check of the token, as behind `signedIn`. */
  async function pageRequest(c: Context) {
    try {
      const limit = pageSize(c);
      const onlyUnread = unreadOnly(c);
      const cursor = singleQuery(c, 'cursor', 'invalid_cursor');
      const after = cursor === undefined ? null : cursors.read(cursor);
      if (cursor !== undefined && after === null) throw invalidCursor();
      return { limit, unreadOnly: onlyUnread, after };
    } catch (error) {
      await requireCaller(c, db);
      throw error;
    }
  }

  // The token lookup and the page or count are one statement: one round trip per request.
  async function fetchPage(c: Context) {
    const token = bearerToken(c);
    const { limit, unreadOnly, after } = await pageRequest(c);
    const found = await listNotificationsAs(db, token, {
      limit: limit + 1,
      unreadOnly,
      after: after?.position ?? null,
    });
    if (!found) throw invalidToken();
    const scope = { userId: found.owner.userId, unreadOnly };
    if (after && !after.signedFor(scope)) throw invalidCursor();
    const rows = found.notifications;
    const data = rows.slice(0, limit);
    const last = data[data.length - 1];
    const page: Page = {
      data: data.map(toWire),
      cursor: rows.length > limit && last ? cursors.encode({ createdAt: last.createdAt, id: last.id }, scope) : null,
    };
    c.header('cache-control', 'no-store');
    return c.json(page);
  }

  async function count(c: Context) {
    const found = await countUnreadAs(db, bearerToken(c));
    if (!found) throw invalidToken();
    const { owner, unread } = found;
    const tag = countTag(owner.userId, unread);
    c.header('etag', tag);
    c.header('x-poll-interval', String(deps.pollIntervalSeconds));
    c.header('cache-control', 'private, no-cache');
    c.header('vary', 'Authorization');
    if (matchesTag(c.req.header('if-none-match'), tag)) return c.body(null, 304);
    const body: CountResult = { count: unread };
    return c.json(body);
  }

  /** A triage endpoint: the change as one undoable operation, answered with its undo token. */
  function triage<Ids>(
    kind: TriageKind,
    readSelection: (c: Context) => Promise<Ids>,
    apply: (tx: Queryable, userId: number, ids: Ids, stamp: TriageStamp) => Promise<number>,
  ) {
    return async (c: Context<SignedInEnv>) => {
      const { caller } = c.var;
      const ids = await readSelection(c);
      const { count, operation } = await runOperation(db, caller.userId, kind, new Date(deps.now()), (tx, stamp) =>
        apply(tx, caller.userId, ids, stamp),
      );
      const result: BulkResult = {
        success: true,
        count,
        undo:
          operation && undoTokens.issue({ operationId: operation.id, expiresAt: operation.expiresAt }, caller.userId),
      };
      c.header('cache-control', 'no-store');
      return c.json(result);
    };
  }

  async function undo(c: Context<SignedInEnv>) {
    const { caller } = c.var;
    const body = await validBody(c, UndoBodySchema, { code: 'invalid_undo', shape: UNDO_SHAPE, refusal: UNDO_REFUSAL });
    const claim = undoTokens.open(body.undo, caller.userId);
    if (!claim) throw new ProblemError(400, 'invalid_undo', UNDO_REFUSAL);
    const now = new Date(deps.now());
    if (claim.expiresAt <= now) throw undoExpired();
    const count = await undoOperation(db, caller.userId, claim.operationId, now);
    if (count === null) throw undoExpired();
    const result: UndoResult = { success: true, count };
    c.header('cache-control', 'no-store');
    return c.json(result);
  }

  const { createHandlers } = createFactory();
  const auth = signedIn(db);
  return {
    fetchPage: createHandlers(fetchPage),
    count: createHandlers(count),
    markRead: createHandlers(auth, triage('read', idsSelection, markRead)),
    markUnread: createHandlers(auth, triage('unread', idsList, markUnread)),
    delete: createHandlers(auth, triage('delete', idsSelection, deleteNotifications)),
    undo: createHandlers(auth, undo),
  };
}
