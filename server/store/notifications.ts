import { randomUUID } from 'node:crypto';
import {
  type ByType,
  type IdsList,
  type IdsSelection,
  NOTIFICATION_TYPES,
  type NotificationType,
} from '../../lib/api/contract';
import type { Queryable } from '../db/database';
import { INBOX_LISTINGS, type InboxListing } from '../db/migrations';
import { isoText, toIso } from '../db/values';
import { authenticatedBatch, authenticatedStatement, type TokenOwner } from './tokens';

export interface StoredNotification {
  id: string;
  read: boolean;
  type: NotificationType;
  createdAt: string;
  /** `avatarUrl` is the actor's own picture, null when they have none. */
  actor: { username: string; displayName: string; avatarUrl: string | null } | null;
  text: string;
  /** A path on the service's own site, an http(s) URL elsewhere, or null. */
  path: string | null;
  /** When a snoozed notification wakes; null when it is not snoozed. */
  snoozedUntil: string | null;
  /** The later of `createdAt` and the moment it last woke: what the inbox is ordered by. */
  sortedAt: string;
}

/**
 * Where a page starts: just after this notification in its listing's order. `at` is its
 * `sortedAt` in the inbox, its `snoozedUntil` in the snoozed listing.
 */
export interface PagePosition {
  at: string;
  id: string;
}

export interface NewNotification {
  userId: number;
  type: NotificationType;
  actorId?: number | null;
  text: string;
  path?: string | null;
  read?: boolean;
  createdAt?: string;
}

/** A notification row as the listing query selects it, with its actor joined. */
export interface NotificationRecord {
  id: string;
  read: boolean;
  type: NotificationType;
  /** A Date, or text as `isoText` writes it. */
  created_at: Date | string;
  text: string;
  path: string | null;
  actor_username: string | null;
  actor_display_name: string | null;
  actor_avatar_url: string | null;
  snoozed_until: Date | string | null;
  sorted_at: Date | string;
}

export const toNotification = (row: NotificationRecord): StoredNotification => ({
  id: row.id,
  read: row.read,
  type: row.type,
  createdAt: toIso(row.created_at),
  actor:
    row.actor_username === null
      ? null
      : {
          username: row.actor_username,
          displayName: row.actor_display_name ?? '',
          avatarUrl: row.actor_avatar_url ?? null,
        },
  text: row.text,
  path: row.path,
  snoozedUntil: row.snoozed_until === null ? null : toIso(row.snoozed_until),
  sortedAt: toIso(row.sorted_at),
});

const NOTIFICATION_COLUMNS = `n.id, n.read, n.type, n.created_at, n.text, n.path,
  a.username AS actor_username, a.display_name AS actor_display_name, a.avatar_url AS actor_avatar_url,
  n.snoozed_until, n.sorted_at`;

/**
 * `created_at` as the contract writes it (`isoText`), kept beside it since it was stored
 * (migration 17): `sortedAt` is the same text for a notification that never woke, which
 * `wireObject` then writes without formatting it.
 */
const CREATED_TEXT = 'n.created_text';

/** The columns of a page statement (`pageStatement`): `NOTIFICATION_COLUMNS` and `CREATED_TEXT`. */
const PAGE_COLUMNS = `${NOTIFICATION_COLUMNS}, ${CREATED_TEXT}`;

/** `PAGE_COLUMNS` of a listing entry `e` and its notification `n`. */
const LISTED_COLUMNS = `e.id, n.read, n.type, n.created_at, n.text, n.path,
  a.username AS actor_username, a.display_name AS actor_display_name, a.avatar_url AS actor_avatar_url,
  n.snoozed_until, e.sorted_at, n.created_text`;
/**
 * The columns of `notifications` a listed entry's notification gives `LISTED_COLUMNS`, read in a
 * subquery of its own.
 */
const LISTED_NOTIFICATION = `n.read, n.type, n.created_at, n.text, n.path, n.actor_id, n.snoozed_until, ${CREATED_TEXT}`;

/** Which notifications a listing shows: the inbox (or its unread part), or the snoozed ones; of some types only. */
export interface Listing {
  unreadOnly: boolean;
  snoozed: boolean;
  /** Only these types; null for every type. */
  types: readonly NotificationType[] | null;
  /** The muted ones instead of the others. */
  muted?: boolean;
  /** Only those whose text or actor's names contain every one of these words; null or none for all. */
  words?: readonly string[] | null;
}

/** A word as a LIKE pattern that finds it anywhere, its own `%`, `_` and `\` taken literally. */
const containing = (word: string) => `%${word.replace(/[\\%_]/g, '\\$&')}%`;

export type PageOptions = Listing & { limit: number; after: PagePosition | null };

/** The order of a listing: the inbox newest first, the snoozed ones soonest to wake first. */
export function listingOrder(listing: Pick<Listing, 'snoozed'>, alias?: string): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return listing.snoozed
    ? `${column('snoozed_until')}, ${column('id')}`
    : `${column('sorted_at')} DESC, ${column('id')} DESC`;
}

/** The SQL types of a page statement's parameters. */
type ParamType = 'int' | 'text' | 'text[]' | 'timestamptz' | 'uuid';

/** How a statement names its `index`th parameter (from 0), cast to `type`. */
type Placeholder = (index: number, type: ParamType) => string;

/** Parameters numbered from `$first`, as a statement of its own takes them. */
const numbered =
  (first: number): Placeholder =>
  (index, type) =>
    `$${first + index}::${type}`;

/**
 * Parameters of one request in a batch, from the JSON array `caller.params` (see
 * `authenticatedBatch`): `placeholder` names them as columns of a row `args`, which `around`
 * reads from the array once per request. Read where they are used, a page's limit alone was read
 * from the JSON again for every row and every branch, about a tenth of the database's time.
 */
function perRequest() {
  const types = new Map<number, ParamType>();
  const placeholder: Placeholder = (index, type) => {
    types.set(index, type);
    return `args.p${index}`;
  };
  const read = (index: number, type: ParamType) =>
    type === 'text[]'
      ? `ARRAY(SELECT jsonb_array_elements_text(caller.params->${index}))`
      : `(caller.params->>${index})::${type}`;
  /** `sql`, which names its parameters by `placeholder`, with `args` read before it. */
  const around = (sql: string) => {
    const columns = [...types].map(([index, type]) => `${read(index, type)} AS p${index}`);
    // OFFSET 0 keeps the row a row of its own: pulled up, each column's reading would be copied to every use.
    return `SELECT q.* FROM (SELECT ${columns.join(', ')} OFFSET 0) args CROSS JOIN LATERAL (${sql}) q`;
  };
  return { placeholder, around };
}

/** A listing entry's code of the notification type `type` (SQL text); the database folds a literal's at planning. */
const typeCode = (type: string) => `notification_type_code(${type})`;

/**
 * A page's parameters for `options`, and where each is among them: the one order both the
 * statement's text (`pageStatement`) and the parameters sent with it follow. The limit first,
 * then the search's words; the snoozed listing then takes its types as one array and then where
 * the page starts, every other listing where the page starts and then each type.
 */
function pageParams(options: PageOptions) {
  const values: unknown[] = [options.limit];
  const add = (value: unknown) => values.push(value) - 1;
  const words = (options.words ?? []).map((word) => add(containing(word)));
  const typesArray = options.snoozed && options.types ? add(options.types) : null;
  const after = options.after && { at: add(options.after.at), id: add(options.after.id) };
  const types = !options.snoozed && options.types ? options.types.map(add) : null;
  return { values, at: { words, typesArray, after, types } };
}

/** Whether the folded text `words` holds every pattern of `patterns`. */
const containsAll = (words: string, patterns: readonly string[]) =>
  patterns.map((pattern) => `${words} LIKE ${pattern}`).join(' AND ');

/** The table the inbox, or its unread part, is listed from, and which notifications it holds. */
const inboxListing = (unreadOnly: boolean) =>
  INBOX_LISTINGS.find((listing) => listing.table === (unreadOnly ? 'inbox_unread' : 'inbox_listed')) as InboxListing;

/**
 * How many entries of a listing a search looks at in order, each asked about by id, before it
 * takes the found notifications instead: a word in an eighth of them fills a page this way.
 */
const SEARCH_WALK = 200;

/**
 * The entries of a page of a search of the inbox listing `listing`, the page's `limit` at most:
 * `walk(n)` gives the listing's first n entries in order, and `filters` say, of a found
 * notification `f`, where the page starts and which types it shows.
 *
 * Two ways, one fast for a common word and one for a rare word, and the statement's own rows
 * choose, not the planner: walk the first `SEARCH_WALK` entries in order, asking the search table
 * about each by id, and keep them when they fill the page; otherwise take the found notifications
 * from the trigram index and keep the listed ones. Each way's plan is then the same for any words,
 * so the statement is planned once on a connection, not on every search: planning the statement
 * that let the planner choose took 2.5-4.7 ms a page, several times its running.
 */
function searchedEntries(
  user: string,
  listing: InboxListing,
  walk: (take: string) => string,
  patterns: readonly string[],
  limit: string,
  filters: { after: string; types: string | null },
): string {
  const types = filters.types ? ` AND ${filters.types}` : '';
  return `WITH walked AS MATERIALIZED (
       SELECT w.id, w.sorted_at FROM (${walk(String(SEARCH_WALK))}) w
       WHERE (SELECT ${containsAll('s.words', patterns)} FROM notification_search s WHERE s.id = w.id)
       ORDER BY w.sorted_at DESC, w.id DESC LIMIT ${limit})
     SELECT id, sorted_at FROM walked WHERE (SELECT count(*) FROM walked) = ${limit}
     UNION ALL
     (SELECT f.id, f.sorted_at FROM notification_search s JOIN notifications f ON f.id = s.id
       WHERE s.user_id = ${user} AND ${containsAll('s.words', patterns)} AND ${listing.holds('f')}${types}${filters.after}
         AND (SELECT count(*) FROM walked) < ${limit}
       ORDER BY f.sorted_at DESC, f.id DESC LIMIT ${limit})`;
}

/**
 * The statement of a page of `user`'s notifications in its listing's order, with its parameters
 * (`pageParams`) named by `placeholder`. Each variant walks an index in order instead of
 * filtering. The inbox and its unread part walk `inbox_listed` or `inbox_unread` once per type,
 * merged, and read the page's rows from `notifications` by id; the snoozed and the muted listings
 * walk `notifications` itself.
 */
function pageStatement(user: string, placeholder: Placeholder, options: PageOptions) {
  const { values: params, at } = pageParams(options);
  const limit = placeholder(0, 'int');
  // Folded by the database as it folds what it searches; a word of 3 or more characters is a trigram index lookup.
  // Folded once per statement by the database, as it folds what it searches; a word of 3 or more
  // characters is a trigram index lookup. The planner does not see the folded words, so a plan
  // does not depend on them and can be kept for any words (see `searchedEntries`).
  const patterns = at.words.map((index) => `(SELECT search_fold(${placeholder(index, 'text')}))`);
  const found = (alias: string) =>
    patterns.length === 0
      ? ''
      : ` AND ${alias}.id IN (SELECT s.id FROM notification_search s WHERE s.user_id = ${user} AND ${containsAll('s.words', patterns)})`;
  const after = (alias: string, column: string, order: '<' | '>') =>
    at.after
      ? ` AND (${alias}.${column}, ${alias}.id) ${order} (${placeholder(at.after.at, 'timestamptz')}, ${placeholder(at.after.id, 'uuid')})`
      : '';
  const types = at.types?.map((index) => placeholder(index, 'text'));
  if (!options.snoozed && !options.muted) {
    const listing = inboxListing(options.unreadOnly);
    const branches = (types ?? NOTIFICATION_TYPES.map((type) => `'${type}'`)).map(
      (type) => (take: string) =>
        `SELECT e.id, e.sorted_at FROM ${listing.table} e
         WHERE e.user_id = ${user}${after('e', 'sorted_at', '<')} AND e.type_code = ${typeCode(type)}
         ORDER BY e.sorted_at DESC, e.id DESC LIMIT ${take}`,
    );
    /** The listing's first `take` entries in its order, each type's merged. */
    const walk = (take: string) =>
      branches.length === 1
        ? (branches[0] as (take: string) => string)(take)
        : `${branches.map((branch) => `(${branch(take)})`).join(' UNION ALL ')} ORDER BY sorted_at DESC, id DESC LIMIT ${take}`;
    const entries =
      patterns.length === 0
        ? walk(limit)
        : searchedEntries(user, listing, walk, patterns, limit, {
            after: after('f', 'sorted_at', '<'),
            types: types ? `f.type IN (${types.join(', ')})` : null,
          });
    // Each entry's notification is found by its key, one index search each, in the entries' order:
    // joined as a set, the planner reads a small table whole into a hash (most of a page's time
    // on the database) and sorts what comes out again. The entry's `sorted_at` is its notification's.
    return {
      sql: `SELECT ${LISTED_COLUMNS}
     FROM (${entries}) e
       CROSS JOIN LATERAL (SELECT ${LISTED_NOTIFICATION} FROM notifications n WHERE n.id = e.id OFFSET 0) n
       LEFT JOIN users a ON a.id = n.actor_id
     ORDER BY ${listingOrder(options, 'e')}`,
      params,
    };
  }
  let where = `n.user_id = ${user} AND n.deleted_at IS NULL`;
  if (options.unreadOnly) where += ' AND NOT n.read';
  where += options.muted ? ' AND n.muted' : ' AND NOT n.muted';
  where += found('n');
  if (options.snoozed) {
    where += ' AND n.snoozed_until IS NOT NULL';
    if (at.typesArray !== null) where += ` AND n.type = ANY(${placeholder(at.typesArray, 'text[]')})`;
    where += after('n', 'snoozed_until', '>');
  } else {
    where += ` AND n.snoozed_until IS NULL${after('n', 'sorted_at', '<')}`;
  }
  const page = (condition: string) => `SELECT ${PAGE_COLUMNS}
     FROM notifications n LEFT JOIN users a ON a.id = n.actor_id
     WHERE ${condition}
     ORDER BY ${listingOrder(options, 'n')}
     LIMIT ${limit}`;
  if (!types) return { sql: page(where), params };
  const conditions = types.map((type) => `${where} AND n.type = ${type}`);
  const [only] = conditions;
  if (only !== undefined && conditions.length === 1) return { sql: page(only), params };
  const branches = conditions.map((condition) => `(${page(condition)})`).join(' UNION ALL ');
  return { sql: `${branches} ORDER BY ${listingOrder(options)} LIMIT ${limit}`, params };
}

/** A page as the contract writes its `data`, with where the next page starts. */
export interface WirePage {
  /**
   * The page's notifications as the contract's JSON array, written by the database; an actor
   * without a picture of their own has a U+0001, their username, a U+0001 and their display name
   * for `avatarUrl`, since the address of the picture the site draws carries a digest of it
   * (`withDrawnAvatars` in `server/api/wire.ts` puts it there).
   */
  data: string;
  /** Whether an `avatarUrl` of `data` may be such a marker: false when none is. */
  drawn: boolean;
  /** The last notification of the page in its listing's order, when another page follows. */
  next: PagePosition | null;
}

/** Whether the site draws the picture of the actor of the page's notification `p`. */
const DRAWN = "p.actor_username IS NOT NULL AND coalesce(p.actor_avatar_url, '') = ''";

/** A text value as a JSON string, or null. */
const jsonText = (value: string) => `coalesce(to_json(${value})::text, 'null')`;
/** A timestamp as the contract writes it, as a JSON string, or null. */
const jsonTime = (column: string) => `coalesce('"' || ${isoText(column)} || '"', 'null')`;

/**
 * One notification of the page `p` as the contract's JSON object, its site paths made URLs on
 * `origin`, written as JSON.stringify writes it: concatenated, since `row_to_json` of a row built
 * for it costs the database several times as much. It starts with `OBJECT_START` and ends with
 * the listing's position (`sortedAt`, after `snoozedUntil`), which `toWirePage` reads back.
 */
function wireObject(origin: string): string {
  const avatar = `CASE WHEN ${DRAWN} THEN chr(1) || p.actor_username || chr(1) || coalesce(p.actor_display_name, '')
      WHEN left(p.actor_avatar_url, 1) = '/' THEN ${origin} || p.actor_avatar_url ELSE p.actor_avatar_url END`;
  const actor = `CASE WHEN p.actor_username IS NULL THEN 'null' ELSE '{"username":' || to_json(p.actor_username)::text
      || ',"displayName":' || to_json(coalesce(p.actor_display_name, ''))::text || ',"avatarUrl":' || to_json(${avatar})::text || '}' END`;
  const url = `CASE WHEN left(p.path, 1) = '/' THEN ${origin} || p.path ELSE p.path END`;
  const sorted = `CASE WHEN p.sorted_at = p.created_at THEN p.created_text ELSE ${isoText('p.sorted_at')} END`;
  return `'{"id":"' || p.id || '","read":' || p.read || ',"type":"' || p.type || '"'
    || ',"createdAt":"' || p.created_text || '","actor":' || ${actor} || ',"text":' || to_json(p.text)::text
    || ',"url":' || ${jsonText(url)} || ',"snoozedUntil":' || ${jsonTime('p.snoozed_until')}
    || ',"sortedAt":"' || ${sorted} || '"}'`;
}

/**
 * The rows of the page statement `sql` as one row of `WirePageRow`: the database writes the JSON,
 * so the service neither builds nor serialises an object per notification. The aggregate takes
 * the rows in the page's order: its level reads nothing but the ordered page, which PostgreSQL
 * then keeps (an `ORDER BY` of its own would sort them again, a twelfth of a page's time). Where
 * the next page starts and whether a picture is drawn are read from the JSON by `toWirePage`,
 * rather than written for every row.
 */
const wirePageStatement = (sql: string, origin: string) =>
  `SELECT coalesce('[' || string_agg(${wireObject(origin)}, ',') || ']', '[]') AS data, count(*)::int AS listed
     FROM (${sql}) p`;

/** The page statement's row: the JSON array of up to one more notification than the page, and how many that is. */
interface WirePageRow {
  data: string;
  listed: number;
}

/**
 * How each notification's JSON object starts (`wireObject`). Every string value is JSON-escaped,
 * its quotes written `\"`, so the text cannot occur inside one: where it occurs, an object starts.
 */
const OBJECT_START = '{"id":"';
/**
 * How a U+0001 is written in the JSON, as every drawn picture's marker starts (see `WirePage.data`).
 * A text may hold one too; where none occurs, no picture is drawn, and a page with one goes through
 * `withDrawnAvatars`, which finds the markers themselves. Short, it is looked for by its backslash,
 * which pages seldom hold: the whole marker takes a page about ten times as long (1.6 against 0.16 µs).
 */
const ESCAPED_U0001 = '\\u0001';

/**
 * The page of `options.limit` from `row`, which holds one more when another page follows: that
 * one is cut off, and the page's last notification gives where the next starts, its id and the
 * position its listing orders by, as written in the JSON (`isoText`, as a cursor takes it).
 */
function toWirePage(row: WirePageRow | undefined, options: Pick<PageOptions, 'limit' | 'snoozed'>): WirePage {
  let data = row?.data ?? '[]';
  const drawn = data.includes(ESCAPED_U0001);
  let next: PagePosition | null = null;
  if (row && row.listed > options.limit) {
    data = `${data.slice(0, data.lastIndexOf(`,${OBJECT_START}`))}]`;
    const idAt = data.lastIndexOf(OBJECT_START) + OBJECT_START.length;
    const key = options.snoozed ? '"snoozedUntil":"' : '"sortedAt":"';
    const at = data.lastIndexOf(key) + key.length;
    next = { at: data.slice(at, data.indexOf('"', at)), id: data.slice(idAt, data.indexOf('"', idAt)) };
  }
  return { data, drawn, next };
}

/**
 * The statement of a page of `options.limit` as `WirePageRow`, with its parameters:
 * `pageStatement`'s, then the site's origin. In a batch (`perRequest`), each request's
 * parameters are read once, before the page.
 */
function wirePage(user: string, named: Placeholder | 'per request', options: PageOptions, origin: string) {
  const page = { ...options, limit: options.limit + 1 };
  const params = [...pageParams(page).values, origin];
  const shape = `${user} ${named === 'per request' ? named : named(0, 'int')} ${page.unreadOnly} ${page.snoozed} ${page.muted === true} ${page.words?.length ?? 0} ${page.types?.length ?? -1} ${page.after !== null}`;
  let sql = wireStatements.get(shape);
  if (sql === undefined) {
    const batch = named === 'per request' ? perRequest() : null;
    const placeholder = batch?.placeholder ?? (named as Placeholder);
    const { sql: pageSql } = pageStatement(user, placeholder, page);
    sql = wirePageStatement(pageSql, placeholder(params.length - 1, 'text'));
    if (batch) sql = batch.around(sql);
    wireStatements.set(shape, sql);
  }
  return { sql, params };
}

/**
 * The page statements made so far, by the shape of their listing: a statement depends on which
 * filters a listing has and how many words or types, never on their values, which are parameters.
 * The same text each time also lets everything that keys on it find it at once.
 */
const wireStatements = new Map<string, string>();

/**
 * A page of `options.limit` notifications of a listing as the contract writes it, after
 * `position` when given, for the owner of `token`, in one round trip; null for an invalid token.
 */
export async function pageOfNotificationsAs(
  db: Queryable,
  token: string,
  options: PageOptions,
  origin: string,
): Promise<{ owner: TokenOwner; page: WirePage } | null> {
  const { sql, params } = wirePage('caller.user_id', 'per request', options, origin);
  const found = await authenticatedBatch<WirePageRow>(db, token, sql, params, { oneRow: true });
  return found && { owner: found.owner, page: toWirePage(found.rows[0], options) };
}

/**
 * A page as `pageOfNotificationsAs` gives it, for the owner of `token`, in one statement of its own
 * rather than a shared one: for a search. The inbox's is kept prepared, its plan the same for any
 * words (`searchedEntries`); the snoozed and muted listings' searches let the database choose with
 * the words in hand, planned each time. Null for an invalid token.
 */
export async function pageOfNotificationsFor(
  db: Queryable,
  token: string,
  options: PageOptions,
  origin: string,
): Promise<{ owner: TokenOwner; page: WirePage } | null> {
  const { sql, params } = wirePage('caller.user_id', numbered(2), options, origin);
  const found = await authenticatedStatement<WirePageRow>(db, token, sql, params, {
    planEachTime: options.snoozed || options.muted === true,
  });
  return found && { owner: found.owner, page: toWirePage(found.row, options) };
}

/** Up to `limit` notifications of a listing, after `position` when given. */
export async function listNotifications(
  db: Queryable,
  userId: number,
  options: PageOptions,
): Promise<StoredNotification[]> {
  const { sql, params } = pageStatement('$1', numbered(2), options);
  const result = await db.query<NotificationRecord>(sql, [userId, ...params]);
  return result.rows.map(toNotification);
}

const UNREAD = (user: string) => `SELECT unread FROM unread_counts WHERE user_id = ${user}`;

export async function countUnread(db: Queryable, userId: number): Promise<number> {
  const result = await db.query<{ unread: number }>(UNREAD('$1'), [userId]);
  return result.rows[0]?.unread ?? 0;
}

/** Unread notifications in the inbox (not snoozed), in all and of each type. */
export interface UnreadCounts {
  unread: number;
  byType: ByType;
}

export const NO_UNREAD: UnreadCounts = {
  unread: 0,
  byType: Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, 0])) as ByType,
};

/**
 * `json_build_object` arguments of the counts by type, from a row of `unread_counts` called `row`:
 * each type's count is its column `unread_<type>`.
 */
const byTypeJson = (row: string) => NOTIFICATION_TYPES.map((type) => `'${type}', ${row}.unread_${type}`).join(', ');

/** The counts of `user` from its one row of `unread_counts`. */
export const UNREAD_COUNTS = (user: string) =>
  `SELECT c.unread, json_build_object(${byTypeJson('c')}) AS by_type FROM unread_counts c WHERE c.user_id = ${user}`;

export const toUnreadCounts = (row: { unread: number; by_type: ByType } | undefined): UnreadCounts =>
  row ? { unread: row.unread, byType: row.by_type } : NO_UNREAD;

const NO_PARAMS: readonly unknown[] = [];

/**
 * The count's answer (`CountResult`) from the row `row` of `unread_counts`, written by the database
 * as JSON.stringify writes it, so the service neither parses the counts nor serialises them again.
 */
const countJson = (row: string) =>
  `'{"count":' || ${row}.unread || ',"byType":{' || ${NOTIFICATION_TYPES.map(
    (type, i) => `'${i === 0 ? '' : ','}"${type}":' || ${row}.unread_${type}`,
  ).join(' || ')} || '}}'`;

/** The count's answer for a user with no counts yet (no row of `unread_counts`). */
export const NO_UNREAD_JSON = JSON.stringify({ count: NO_UNREAD.unread, byType: NO_UNREAD.byType });

/** The caller's count answer: always one row. */
const CALLER_COUNT_JSON = `SELECT coalesce((SELECT ${countJson('c')} FROM unread_counts c WHERE c.user_id = caller.user_id),
  '${NO_UNREAD_JSON}') AS counted`;

/**
 * The unread counts of the owner of `token` as the count's JSON answer, in one round trip; null
 * for an invalid token. One statement in flight at a time: the database answers it in far less
 * time than the service takes to send it, so the requests waiting meanwhile all go in the next.
 */
export async function countAnswerAs(
  db: Queryable,
  token: string,
): Promise<{ owner: TokenOwner; counted: string } | null> {
  const found = await authenticatedBatch<{ counted: string }>(db, token, CALLER_COUNT_JSON, NO_PARAMS, {
    oneRow: true,
    inFlight: 1,
  });
  const row = found?.rows[0];
  return found && row ? { owner: found.owner, counted: row.counted } : null;
}

const lowercase = (ids: readonly string[]) => ids.map((id) => id.toLowerCase());

/**
 * One triage call: its id is written on every row it changes (`last_op`) so that its undo
 * finds them, and `at` is the service's clock when it happened. The change sets `ids` to the
 * ids it was given (lowercase), or null when it applied to the whole inbox: the undo then looks
 * at those rows alone instead of every row of the user.
 */
export interface TriageStamp {
  operationId: string;
  at: Date;
  ids?: readonly string[] | null;
}

/**
 * Applies a triage change to the caller's notifications still in the inbox, in one statement:
 * `set` is the change (it may use `$3`, the value `with`), `only` the state a row must be in
 * for the change to apply to it. The number of rows changed. `'all'` is the inbox as listed:
 * snoozed notifications are out of it until they wake, and muted ones while they are muted, so
 * it leaves them alone.
 */
async function triage(
  db: Queryable,
  userId: number,
  ids: IdsSelection,
  stamp: TriageStamp,
  change: { set: string; only: string; with?: unknown },
): Promise<number> {
  if (ids !== 'all' && ids.length === 0) return 0;
  const params: unknown[] = [userId, stamp.operationId];
  if ('with' in change) params.push(change.with);
  let where = `user_id = $1 AND deleted_at IS NULL AND ${change.only}`;
  if (ids === 'all') {
    stamp.ids = null;
    where += ' AND snoozed_until IS NULL AND NOT muted';
  } else {
    stamp.ids = lowercase(ids);
    params.push(stamp.ids);
    where += ` AND id = ANY($${params.length}::uuid[])`;
  }
  const result = await db.query(`UPDATE notifications SET ${change.set}, last_op = $2::uuid WHERE ${where}`, params);
  return result.rowCount;
}

/** Marks notifications read; the number that went from unread to read. */
export function markRead(db: Queryable, userId: number, ids: IdsSelection, stamp: TriageStamp): Promise<number> {
  return triage(db, userId, ids, stamp, { set: 'read = true', only: 'NOT read' });
}

/** Marks notifications unread; the number that went from read to unread. */
export function markUnread(db: Queryable, userId: number, ids: IdsList, stamp: TriageStamp): Promise<number> {
  return triage(db, userId, ids, stamp, { set: 'read = false', only: 'read' });
}

/**
 * Takes notifications out of the inbox; the number taken. They stay, hidden, until their
 * operation's undo window has passed and the clean-up removes them for good.
 */
export function deleteNotifications(
  db: Queryable,
  userId: number,
  ids: IdsSelection,
  stamp: TriageStamp,
): Promise<number> {
  return triage(db, userId, ids, stamp, {
    set: 'deleted_at = $3::timestamptz',
    only: 'true',
    with: stamp.at.toISOString(),
  });
}

/**
 * Snoozes notifications until `until` (ISO 8601), moving the wake time of those already
 * snoozed; the number snoozed. Each keeps the wake time it had before, for the undo.
 */
export function snoozeNotifications(
  db: Queryable,
  userId: number,
  ids: IdsList,
  stamp: TriageStamp,
  until: string,
): Promise<number> {
  return triage(db, userId, ids, stamp, {
    set: 'snoozed_before = snoozed_until, snoozed_until = $3::timestamptz',
    only: 'true',
    with: until,
  });
}

/** How a notification wakes: unread, back at the top of the inbox, and no operation's to undo any more. */
const WAKE = 'snoozed_until = NULL, snoozed_before = NULL, read = false, woken_at = now(), last_op = NULL';

/** Wakes snoozed notifications now, as their time had come; the number woken. */
export async function unsnoozeNotifications(db: Queryable, userId: number, ids: IdsList): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.query(
    `UPDATE notifications SET ${WAKE}
     WHERE user_id = $1 AND deleted_at IS NULL AND snoozed_until IS NOT NULL AND id = ANY($2::uuid[])`,
    [userId, lowercase(ids)],
  );
  return result.rowCount;
}

/** Notifications woken per statement, so one wake never holds many rows for long. */
const WAKE_BATCH = 500;

/**
 * Wakes every snoozed notification whose time has come by the database's clock, of every user;
 * the number woken. Rows another instance is waking at the same moment are skipped, never
 * woken twice; the counts and the live channels follow through the triggers.
 */
export async function wakeDueNotifications(db: Queryable): Promise<number> {
  let woken = 0;
  for (;;) {
    const result = await db.query(
      `UPDATE notifications SET ${WAKE} WHERE id IN (
         SELECT id FROM notifications WHERE snoozed_until <= now() AND deleted_at IS NULL
         ORDER BY snoozed_until LIMIT $1 FOR UPDATE SKIP LOCKED
       ) AND snoozed_until <= now()`,
      [WAKE_BATCH],
    );
    woken += result.rowCount;
    if (result.rowCount < WAKE_BATCH) return woken;
  }
}

/** Milliseconds until the soonest snoozed notification of anyone wakes (0 or less: due), or null when none is snoozed. */
export async function msUntilNextWake(db: Queryable): Promise<number | null> {
  const result = await db.query<{ ms: number | string | null }>(
    `SELECT extract(epoch FROM min(snoozed_until) - clock_timestamp()) * 1000 AS ms
     FROM notifications WHERE deleted_at IS NULL AND snoozed_until IS NOT NULL`,
  );
  const ms = result.rows[0]?.ms;
  return ms === null || ms === undefined ? null : Number(ms);
}

/** Adds notifications in one statement; their ids, in the order given. */
export async function addNotifications(db: Queryable, notifications: readonly NewNotification[]): Promise<string[]> {
  if (notifications.length === 0) return [];
  const rows = notifications.map((n) => ({
    id: randomUUID(),
    user_id: n.userId,
    type: n.type,
    actor_id: n.actorId ?? null,
    text: n.text,
    path: n.path ?? null,
    read: n.read ?? false,
    created_at: n.createdAt ?? null,
  }));
  await db.query(
    `INSERT INTO notifications (id, user_id, type, actor_id, text, path, read, created_at, sorted_at)
     SELECT id, user_id, type, actor_id, text, path, read, coalesce(created_at, now()), coalesce(created_at, now())
     FROM jsonb_to_recordset($1::jsonb) AS x(
       id uuid, user_id integer, type text, actor_id integer, text text, path text, read boolean, created_at timestamptz
     )`,
    [JSON.stringify(rows)],
  );
  return rows.map((row) => row.id);
}

/**
 * Fills each of these inboxes with `count` generated `system` notifications, all in one
 * statement, one second apart and ending at `newest`: bulk data for load and depth tests. Then
 * refreshes the planner's statistics once, as autovacuum would a minute later: on a table it still
 * thinks empty, a page of 25 reads and sorts the whole inbox (0.6 ms for 1,000) instead of walking
 * the index (0.07 ms). Filling 200 inboxes one call each spent 86 % of its time on that refresh.
 */
export async function fillInboxes(
  db: Queryable,
  userIds: readonly number[],
  count: number,
  options: { read?: boolean; newest?: string; text?: string } = {},
): Promise<number> {
  const result = await db.query(
    `INSERT INTO notifications (user_id, type, text, read, created_at, sorted_at)
     SELECT u, 'system', $3 || ' #' || g, $4, at, at
     FROM unnest($1::int[]) AS u, generate_series(1, $2) AS g,
       LATERAL (SELECT coalesce($5::timestamptz, now()) - make_interval(secs => g) AS at) AS made
     ORDER BY u, g`,
    [userIds, count, options.text ?? 'Generated notification', options.read ?? false, options.newest ?? null],
  );
  await db.query('ANALYZE notifications, inbox_listed, inbox_unread');
  // The search index takes a bulk load into its pending list, which autovacuum merges soon after;
  // until then a search is planned as if the index were slow.
  await db.query("SELECT gin_clean_pending_list('notification_search_idx'::regclass)");
  await db.query('ANALYZE notification_search');
  return result.rowCount;
}

/** One notification of a user, as the listing shows it; null when it is gone. */
export async function findNotification(db: Queryable, userId: number, id: string): Promise<StoredNotification | null> {
  const result = await db.query<NotificationRecord>(
    `SELECT ${NOTIFICATION_COLUMNS}
     FROM notifications n LEFT JOIN users a ON a.id = n.actor_id
     WHERE n.user_id = $1 AND n.id = $2`,
    [userId, id],
  );
  return result.rows[0] ? toNotification(result.rows[0]) : null;
}

export interface DeliveredNotification {
  username: string;
  type: NotificationType;
  text: string;
  /** The actor's username; none for a notification nobody caused. */
  actor: string | null;
  /** A path on the service's site or an http(s) URL; none links nowhere. */
  path: string | null;
}

/**
 * Delivers one notification to a user by username, from an actor by username, in one statement:
 * what the operator API and the demo activity do. Names the missing user when there is one.
 */
export async function deliverNotification(
  db: Queryable,
  input: DeliveredNotification,
): Promise<StoredNotification | { missing: string }> {
  const result = await db.query<NotificationRecord>(
    `WITH recipient AS (SELECT id FROM users WHERE lower(username) = lower($1)),
       actor AS (SELECT id FROM users WHERE lower(username) = lower($2)),
       added AS (
         INSERT INTO notifications (user_id, type, actor_id, text, path)
         SELECT recipient.id, $3, actor.id, $4, $5 FROM recipient LEFT JOIN actor ON true
         WHERE $2::text IS NULL OR actor.id IS NOT NULL
         RETURNING *
       )
     SELECT ${NOTIFICATION_COLUMNS} FROM added n LEFT JOIN users a ON a.id = n.actor_id`,
    [input.username, input.actor, input.type, input.text, input.path],
  );
  const row = result.rows[0];
  if (row) return toNotification(row);
  const recipient = await db.query('SELECT 1 FROM users WHERE lower(username) = lower($1)', [input.username]);
  return { missing: recipient.rowCount === 0 ? input.username : (input.actor ?? input.username) };
}
