import { hash } from 'node:crypto';
import type { Context } from 'hono';
import { createFactory } from 'hono/factory';
import * as v from 'valibot';
import {
  type BulkResult,
  IdsBodySchema,
  type IdsList,
  IdsListBodySchema,
  type IdsSelection,
  LIMITS,
  NOTIFICATION_TYPES,
  type NotificationType,
  UndoBodySchema,
  type UndoResult,
  type UnsnoozeResult,
  untilProblem,
} from '../../lib/api/contract';
import type { Queryable } from '../db/database';
import {
  countAnswerAs,
  deleteNotifications,
  type Listing,
  markRead,
  markUnread,
  pageOfNotificationsAs,
  pageOfNotificationsFor,
  snoozeNotifications,
  type TriageStamp,
  unsnoozeNotifications,
} from '../store/notifications';
import { runOperation, type TriageKind, undoOperation } from '../store/triage-operations';
import { jsonAnswer, plainAnswer } from './answer';
import { bearerToken, invalidToken, requireCaller, type SignedInEnv, signedIn } from './auth';
import type { ApiDeps } from './context';
import { kept } from './kept';
import { ProblemError } from './problem';
import { jsonBody, singleQuery, validBody } from './request';
import { withDrawnAvatars } from './wire';

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

function booleanQuery(c: Context, name: string): boolean {
  const value = singleQuery(c, name, 'invalid_parameter');
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new ProblemError(400, 'invalid_parameter', `${name} must be true or false.`);
}

/** The `types` filter, in the contract's order of types; null for none, or for every type. */
function typesFilter(c: Context): NotificationType[] | null {
  const value = singleQuery(c, 'types', 'invalid_parameter');
  if (value === undefined) return null;
  const named = value.split(',');
  const known: readonly string[] = NOTIFICATION_TYPES;
  if (named.some((type) => !known.includes(type)) || new Set(named).size !== named.length) {
    throw new ProblemError(
      400,
      'invalid_parameter',
      `types must be a comma-separated list of ${NOTIFICATION_TYPES.join(', ')}, each at most once.`,
    );
  }
  const types = NOTIFICATION_TYPES.filter((type) => named.includes(type));
  return types.length === NOTIFICATION_TYPES.length ? null : types;
}

/** The words of a search, or null for none; a search must be 1 to 100 characters once trimmed. */
function searchWords(c: Context): string[] | null {
  const value = singleQuery(c, 'q', 'invalid_parameter');
  if (value === undefined) return null;
  const q = value.trim();
  if (q.length < 1 || q.length > LIMITS.searchMax || q.includes('\u0000')) {
    throw new ProblemError(400, 'invalid_parameter', `q must be 1 to ${LIMITS.searchMax} characters once trimmed.`);
  }
  return q.split(/\s+/);
}

/**
 * The ETag of a user's count answer, kept: a user polls with the same counts until one changes,
 * so most requests find theirs instead of hashing again. One call rather than a Hash object: a
 * third of the time, on the request polling sends all day.
 */
const tagOfCounts = kept((counted) => `"${hash('sha256', counted, 'base64url').slice(0, 22)}"`);

/** Strong ETag of the count answer `counted`, bound to the user so a change of account revalidates. */
const countTag = (userId: number, counted: string) => tagOfCounts(`${userId}:${counted}`);

function matchesTag(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === tag) return true;
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

const IDS_LIST_SHAPE = '{ "ids": ["<uuid>", ...] }';
const idsListRefusal = (shape: string) =>
  `ids must be an array of at most ${LIMITS.idsPerCall} notification UUIDs ("all" is refused): ${shape}.`;

async function idsList(c: Context): Promise<IdsList> {
  const refusal = idsListRefusal(IDS_LIST_SHAPE);
  return (await validBody(c, IdsListBodySchema, { code: 'invalid_ids', shape: IDS_LIST_SHAPE, refusal })).ids;
}

const SNOOZE_SHAPE = '{ "ids": ["<uuid>", ...], "until": "<ISO 8601 with offset>" }';

/** The ids of a parsed snooze body. */
function idsListOf(body: unknown): { ids: IdsList } {
  const result = v.safeParse(IdsListBodySchema, body);
  if (!result.success) throw new ProblemError(400, 'invalid_ids', idsListRefusal(SNOOZE_SHAPE));
  return result.output;
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
  const pollInterval = String(deps.pollIntervalSeconds);

  /** What a page request asks for; its 400 problems come after a check of the token, as behind `signedIn`. */
  async function pageRequest(c: Context) {
    try {
      const limit = pageSize(c);
      const listing: Listing = {
        unreadOnly: booleanQuery(c, 'unreadOnly'),
        snoozed: booleanQuery(c, 'snoozed'),
        types: typesFilter(c),
        muted: booleanQuery(c, 'muted'),
        words: searchWords(c),
      };
      const cursor = singleQuery(c, 'cursor', 'invalid_cursor');
      const after = cursor === undefined ? null : cursors.read(cursor);
      if (cursor !== undefined && after === null) throw invalidCursor();
      return { limit, listing, after };
    } catch (error) {
      await requireCaller(c, db);
      throw error;
    }
  }

  // The token lookup and the page or count are one statement: one round trip per request.
  async function fetchPage(c: Context) {
    const token = bearerToken(c);
    const { limit, listing, after } = await pageRequest(c);
    const options = { ...listing, limit, after: after?.position ?? null };
    const origin = deps.origin();
    // A search goes in a statement of its own, not in a batch: see `pageOfNotificationsFor`.
    const found = listing.words
      ? await pageOfNotificationsFor(db, token, options, origin)
      : await pageOfNotificationsAs(db, token, options, origin);
    if (!found) throw invalidToken();
    const scope = { ...listing, userId: found.owner.userId };
    if (after && !after.signedFor(scope)) throw invalidCursor();
    const { data, drawn, next } = found.page;
    const cursor = next && cursors.encode(next, scope);
    // The database wrote the notifications as the contract does (`Page`): they go out as they came.
    const body = `{"data":${drawn ? withDrawnAvatars(data, origin) : data},"cursor":${cursor === null ? 'null' : JSON.stringify(cursor)}}`;
    return jsonAnswer(body, { 'cache-control': 'no-store' });
  }

  async function count(c: Context) {
    const found = await countAnswerAs(db, bearerToken(c));
    if (!found) throw invalidToken();
    const { owner, counted } = found;
    const tag = countTag(owner.userId, counted);
    const headers: Record<string, string> = {
      etag: tag,
      'x-poll-interval': pollInterval,
      'cache-control': 'private, no-cache',
      vary: 'Authorization',
    };
    if (matchesTag(c.req.header('if-none-match'), tag)) return plainAnswer(null, 304, headers);
    // The database wrote the answer (`CountResult`) as JSON.stringify does: it goes out as it came.
    return jsonAnswer(counted, headers);
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

  /** The ids and wake time of a snooze; `until` is judged by the service's clock. */
  async function snoozeRequest(c: Context): Promise<{ ids: IdsList; until: string }> {
    const body = await jsonBody(c, 'invalid_ids', SNOOZE_SHAPE);
    const { ids } = idsListOf(body);
    const until = (body as { until?: unknown }).until;
    const problem = untilProblem(until, deps.now());
    if (problem) throw new ProblemError(400, 'invalid_until', problem);
    return { ids, until: new Date(until as string).toISOString() };
  }

  async function unsnooze(c: Context<SignedInEnv>) {
    const ids = await idsList(c);
    const result: UnsnoozeResult = { success: true, count: await unsnoozeNotifications(db, c.var.caller.userId, ids) };
    c.header('cache-control', 'no-store');
    return c.json(result);
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
    snooze: createHandlers(
      auth,
      triage('snooze', snoozeRequest, (tx, userId, { ids, until }, stamp) =>
        snoozeNotifications(tx, userId, ids, stamp, until),
      ),
    ),
    unsnooze: createHandlers(auth, unsnooze),
    undo: createHandlers(auth, undo),
  };
}
