import {
  type BulkResult,
  BulkResultSchema,
  type ByType,
  CountSchema,
  type IdsList,
  type IdsSelection,
  isUsername,
  isUuid,
  LIMITS,
  type Mute,
  MuteSchema,
  MutesSchema,
  type MuteTarget,
  NOTIFICATION_TYPES,
  type Notification,
  type NotificationType,
  type Page,
  PageSchema,
  type Policy,
  PolicySchema,
  parseOffsetTimestamp,
  STRANGERS_POLICIES,
  type UndoResult,
  UndoResultSchema,
  type UnsnoozeResult,
  UnsnoozeResultSchema,
} from './contract';
import { InvalidArgumentError, InvalidResponseError } from './errors';
import { type ChangeOptions, parseAnswer, type Transport } from './http';

export interface FetchOptions {
  /** Notifications per page, 1 to 100; the service's default (20) when left out. */
  limit?: number;
  /** A cursor from an earlier page's answer; the first page when left out. */
  cursor?: string | null;
  unreadOnly?: boolean;
  /** Only the snoozed notifications, soonest to wake first; otherwise snoozed ones are left out. */
  snoozed?: boolean;
  /** Only notifications of these types; all types when left out. */
  types?: readonly NotificationType[];
  /** Only the muted notifications; otherwise muted ones are left out. */
  muted?: boolean;
  /** Only notifications whose text or actor's names contain every word, ignoring case and accents. */
  q?: string;
}

export type WalkOptions = Omit<FetchOptions, 'cursor'>;

export type CountCheck =
  | {
      changed: true;
      count: number;
      /** The unread count of each type; left out by a service without counts by type. */
      byType?: ByType;
      etag: string | null;
      pollInterval: number | null;
    }
  | { changed: false; etag: string; pollInterval: number | null };

function checkLimit(limit: number | undefined): void {
  if (limit === undefined) return;
  if (!Number.isInteger(limit) || limit < LIMITS.pageSizeMin || limit > LIMITS.pageSizeMax) {
    throw new InvalidArgumentError(
      'invalid_limit',
      `limit must be a whole number from ${LIMITS.pageSizeMin} to ${LIMITS.pageSizeMax}.`,
    );
  }
}

function typesQuery(types: readonly NotificationType[]): string {
  const known: readonly string[] = NOTIFICATION_TYPES;
  if (
    !Array.isArray(types) ||
    types.length === 0 ||
    types.some((type) => !known.includes(type)) ||
    new Set(types).size !== types.length
  ) {
    throw new InvalidArgumentError(
      'invalid_parameter',
      `types must name each of ${NOTIFICATION_TYPES.join(', ')} at most once, and at least one.`,
    );
  }
  return types.join(',');
}

function searchQuery(q: string): string {
  const trimmed = typeof q === 'string' ? q.trim() : '';
  if (trimmed.length < 1 || trimmed.length > LIMITS.searchMax) {
    throw new InvalidArgumentError('invalid_parameter', `q must be 1 to ${LIMITS.searchMax} characters once trimmed.`);
  }
  return trimmed;
}

function fetchQuery({ limit, cursor, unreadOnly, snoozed, types, muted, q }: FetchOptions): Record<string, string> {
  checkLimit(limit);
  if (cursor !== undefined && cursor !== null && (typeof cursor !== 'string' || cursor === '')) {
    throw new InvalidArgumentError('invalid_cursor', 'cursor must be a cursor the service gave.');
  }
  if (unreadOnly !== undefined && typeof unreadOnly !== 'boolean') {
    throw new InvalidArgumentError('invalid_parameter', 'unreadOnly must be true or false.');
  }
  for (const [name, value] of [
    ['snoozed', snoozed],
    ['muted', muted],
  ] as const) {
    if (value !== undefined && typeof value !== 'boolean') {
      throw new InvalidArgumentError('invalid_parameter', `${name} must be true or false.`);
    }
  }
  const query: Record<string, string> = {};
  if (limit !== undefined) query.limit = String(limit);
  if (cursor) query.cursor = cursor;
  if (unreadOnly !== undefined) query.unreadOnly = String(unreadOnly);
  if (snoozed) query.snoozed = 'true';
  if (types !== undefined) query.types = typesQuery(types);
  if (muted) query.muted = 'true';
  if (q !== undefined) query.q = searchQuery(q);
  return query;
}

/** Checks a selection for mark-read or delete: `'all'`, or at most 500 notification UUIDs. */
export function checkSelection(ids: IdsSelection): IdsSelection {
  if (ids === 'all') return ids;
  if (!Array.isArray(ids)) {
    throw new InvalidArgumentError('invalid_ids', 'ids must be an array of notification ids or the string "all".');
  }
  if (ids.length > LIMITS.idsPerCall) {
    throw new InvalidArgumentError('invalid_ids', `At most ${LIMITS.idsPerCall} ids can be sent at once.`);
  }
  // By index: an undefined item is as bad as any other, and would go out as null.
  const bad = ids.findIndex((id) => !isUuid(id));
  if (bad >= 0) {
    throw new InvalidArgumentError('invalid_ids', `Item ${bad} of ids is not a notification id.`);
  }
  return ids;
}

/** Checks a list of ids for mark-unread: at most 500 notification UUIDs, never `'all'`. */
export function checkIdList(ids: IdsList): IdsList {
  if (!Array.isArray(ids)) throw new InvalidArgumentError('invalid_ids', 'ids must be an array of notification ids.');
  return checkSelection(ids) as IdsList;
}

/**
 * `until` as the service takes it: a Date becomes UTC ISO 8601; a string must already carry its
 * offset. The 60 s to 365 days window is the service's to judge, by its own clock.
 */
function untilText(until: Date | string): string {
  if (until instanceof Date) {
    if (Number.isNaN(until.getTime())) throw new InvalidArgumentError('invalid_until', 'until is an invalid Date.');
    return until.toISOString();
  }
  if (parseOffsetTimestamp(until) === null) {
    throw new InvalidArgumentError(
      'invalid_until',
      'until must be a Date or an ISO 8601 date and time with an offset, such as 2026-11-23T09:00:00+01:00.',
    );
  }
  return until;
}

/** A mute's target as the service takes it: exactly one person or one http(s) link. */
function muteTarget(target: MuteTarget): MuteTarget {
  const refuse = () =>
    new InvalidArgumentError('invalid_mute', 'A mute is { actor: username } or { url: http(s) URL }, exactly one.');
  if (typeof target !== 'object' || target === null) throw refuse();
  const keys = Object.keys(target);
  if (keys.length !== 1) throw refuse();
  if ('actor' in target) {
    if (!isUsername(target.actor)) throw refuse();
    return { actor: target.actor };
  }
  if (!('url' in target) || typeof target.url !== 'string' || target.url.length > LIMITS.muteUrlMax) throw refuse();
  if (!/^https?:\/\//i.test(target.url) || !URL.canParse(target.url)) throw refuse();
  return { url: target.url };
}

function checkUndoToken(token: string): string {
  if (typeof token !== 'string' || token === '' || token.length > LIMITS.undoTokenMax) {
    throw new InvalidArgumentError('invalid_undo', 'undo must be a token from a triage answer.');
  }
  return token;
}

function pollInterval(headers: Headers): number | null {
  const seconds = Number(headers.get('x-poll-interval'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

export function createInbox(transport: Transport) {
  async function fetch(options: FetchOptions = {}): Promise<Page> {
    const searchParams = fetchQuery(options);
    return parseAnswer(PageSchema, await transport.send({ method: 'GET', path: 'inbox/fetch', searchParams }, 'json'));
  }

  async function count(): Promise<number> {
    return parseAnswer(CountSchema, await transport.send({ method: 'GET', path: 'inbox/count' }, 'json')).count;
  }

  /** Unread notifications not snoozed, of each type. */
  async function countByType(): Promise<ByType> {
    const answer = await transport.send({ method: 'GET', path: 'inbox/count' }, 'json');
    const { byType } = parseAnswer(CountSchema, answer);
    if (!byType) throw new InvalidResponseError(answer.status, 'The count answer has no byType.');
    return byType;
  }

  /**
   * Takes notifications out of the inbox and the count until `until` (a Date, or ISO 8601 with
   * an offset, 60 s to 365 days ahead); a snoozed one gets its wake time moved. Throws
   * InvalidUntilError when the service finds `until` out of bounds.
   */
  async function snooze(ids: IdsList, until: Date | string, options?: ChangeOptions): Promise<BulkResult> {
    const json = { ids: checkIdList(ids), until: untilText(until) };
    const answer = await transport.send(
      { method: 'POST', path: 'inbox/snooze', json, idempotencyKey: options?.idempotencyKey },
      'json',
    );
    return parseAnswer(BulkResultSchema, answer);
  }

  /** Brings snoozed notifications back now, unread, as if they woke. */
  async function unsnooze(ids: IdsList, options?: ChangeOptions): Promise<UnsnoozeResult> {
    const json = { ids: checkIdList(ids) };
    const answer = await transport.send(
      { method: 'POST', path: 'inbox/unsnooze', json, idempotencyKey: options?.idempotencyKey },
      'json',
    );
    return parseAnswer(UnsnoozeResultSchema, answer);
  }

  /**
   * The unread count, asked conditionally: with the ETag of the last answer the service answers
   * 304 and no body while the count is unchanged. Carries the service's poll interval hint.
   */
  async function checkCount(etag?: string | null): Promise<CountCheck> {
    const headers: Record<string, string> = etag ? { 'if-none-match': etag } : {};
    const answer = await transport.send({ method: 'GET', path: 'inbox/count', headers }, 'json');
    const hint = pollInterval(answer.headers);
    if (answer.status === 304) {
      if (!etag) throw new InvalidResponseError(304, 'The service answered 304 to an unconditional request.');
      return { changed: false, etag: answer.headers.get('etag') ?? etag, pollInterval: hint };
    }
    const { count, byType } = parseAnswer(CountSchema, answer);
    return { changed: true, count, byType, etag: answer.headers.get('etag'), pollInterval: hint };
  }

  function bulk<Ids>(path: string, check: (ids: Ids) => Ids) {
    return async (ids: Ids, options?: ChangeOptions): Promise<BulkResult> => {
      const json = { ids: check(ids) };
      return parseAnswer(
        BulkResultSchema,
        await transport.send({ method: 'POST', path, json, idempotencyKey: options?.idempotencyKey }, 'json'),
      );
    };
  }

  /**
   * Puts back what the triage call that gave `token` changed: once, within 60 seconds. Throws
   * UndoExpiredError after that, InvalidUndoError for a token that is not the caller's.
   */
  async function undo(token: string, options?: ChangeOptions): Promise<UndoResult> {
    const json = { undo: checkUndoToken(token) };
    const answer = await transport.send(
      { method: 'POST', path: 'inbox/undo', json, idempotencyKey: options?.idempotencyKey },
      'json',
    );
    return parseAnswer(UndoResultSchema, answer);
  }

  /**
   * Mutes a person or a link until `until` (a Date, or ISO 8601 with an offset, 60 s to 365 days
   * ahead) or until removed. Muting what is muted already moves its end. Throws InvalidMuteError,
   * TooManyMutesError (1,000 in force) or UserNotFoundError.
   */
  async function addMute(target: MuteTarget, until?: Date | string | null, options?: ChangeOptions): Promise<Mute> {
    let end: string | null = null;
    try {
      end = until === undefined || until === null ? null : untilText(until);
    } catch (error) {
      throw new InvalidArgumentError('invalid_mute', (error as InvalidArgumentError).detail);
    }
    const json = { ...muteTarget(target), until: end };
    const answer = await transport.send(
      { method: 'POST', path: 'inbox/mutes', json, idempotencyKey: options?.idempotencyKey },
      'json',
    );
    return parseAnswer(MuteSchema, answer);
  }

  /** The mutes in force, newest first. */
  async function listMutes(): Promise<Mute[]> {
    return parseAnswer(MutesSchema, await transport.send({ method: 'GET', path: 'inbox/mutes' }, 'json')).data;
  }

  /** Removes a mute: its notifications come back as they are. Throws MuteNotFoundError when it is gone. */
  async function removeMute(id: string, options?: ChangeOptions): Promise<void> {
    if (!isUuid(id)) throw new InvalidArgumentError('invalid_parameter', 'id must be the id of a mute.');
    await transport.send(
      { method: 'DELETE', path: `inbox/mutes/${id}`, idempotencyKey: options?.idempotencyKey },
      'none',
    );
  }

  /** What happens to notifications from people the user does not follow. */
  async function policy(): Promise<Policy> {
    return parseAnswer(PolicySchema, await transport.send({ method: 'GET', path: 'inbox/policy' }, 'json'));
  }

  async function setPolicy(next: Policy): Promise<Policy> {
    const strangers = next?.strangers;
    if (!(STRANGERS_POLICIES as readonly unknown[]).includes(strangers)) {
      throw new InvalidArgumentError('invalid_parameter', `strangers must be ${STRANGERS_POLICIES.join(' or ')}.`);
    }
    const answer = await transport.send({ method: 'PUT', path: 'inbox/policy', json: { strangers } }, 'json');
    return parseAnswer(PolicySchema, answer);
  }

  return {
    fetch,
    count,
    countByType,
    checkCount,
    markRead: bulk('inbox/read', checkSelection),
    markUnread: bulk('inbox/unread', checkIdList),
    delete: bulk('inbox/delete', checkSelection),
    snooze,
    unsnooze,
    undo,
    mutes: { list: listMutes, add: addMute, remove: removeMute },
    policy,
    setPolicy,
  };
}

/**
 * Walks through every page of an inbox with `fetch`: kept apart from `createInbox`, so that a
 * client that never walks (the extension's background) carries none of it.
 */
export function inboxWalks(fetch: (options: FetchOptions) => Promise<Page>) {
  /** Every page of the inbox, newest first, following each answer's cursor until it is null. */
  async function* pages(options: WalkOptions = {}): AsyncGenerator<Page, void, undefined> {
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const page: Page = await fetch({ ...options, cursor });
      yield page;
      cursor = page.cursor;
      if (cursor !== null) {
        if (seen.has(cursor)) throw new InvalidResponseError(200, 'The service gave the same cursor twice.');
        seen.add(cursor);
      }
    } while (cursor !== null);
  }

  /** Every notification of the inbox, newest first. */
  async function* items(options: WalkOptions = {}): AsyncGenerator<Notification, void, undefined> {
    for await (const page of pages(options)) yield* page.data;
  }

  return { pages, items };
}

export type Inbox = ReturnType<typeof createInbox> & ReturnType<typeof inboxWalks>;
