/**
 * Mixed traffic through the client library, as the extension sends it, against a service that
 * may lose an instance mid-way, and the books to check it by. Each person marks notifications
 * read, deletes some and undoes some of those deletes, follows and unfollows a partner, reports
 * another, and keeps a live channel open that reconnects when it drops. Every change is one
 * intent with one `Idempotency-Key`: the library retries it (network errors, 502–504), and an
 * intent still without an answer is sent again with the same key until one comes, as the
 * extension's outbox does. What the people were told succeeded is written down, so that the
 * database can be compared with it afterwards: nothing lost, nothing done twice.
 */
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import {
  ApiError,
  type Client,
  createClient,
  LIMITS,
  NetworkError,
  RequestInProgressError,
  ServerError,
  TimeoutError,
} from '../../../lib/api';
import type { WebSocketConstructor } from '../../../lib/api/live';
import type { Queryable } from '../../../server/db/database';
import { seedPeople } from './load';
import { type ProcessData, withData } from './service-process';

export interface ClusterPerson {
  username: string;
  token: string;
  /** Unread notifications of this person's own, each triaged at most once. */
  ids: string[];
}

/** People with `inbox` unread notifications each, in data no service is running on yet. */
export async function seedClusterPeople(data: ProcessData, count: number, inbox: number): Promise<ClusterPerson[]> {
  return withData(data, async (admin, db) => {
    const people = await seedPeople(admin, 'cluster', count, inbox);
    const { rows } = await db.query<{ username: string; ids: string[] }>(
      `SELECT u.username, array_agg(n.id ORDER BY n.id)::text[] AS ids
       FROM notifications n JOIN users u ON u.id = n.user_id
       WHERE u.username = ANY($1::text[]) GROUP BY u.username`,
      [people.map((person) => person.username)],
    );
    const ids = new Map(rows.map((row) => [row.username, row.ids]));
    return people.map((person) => ({ ...person, ids: ids.get(person.username) ?? [] }));
  });
}

/** What the people were told succeeded: the database must hold exactly this. */
export interface Ledger {
  read: Set<string>;
  /** Deleted and not undone. */
  deleted: Set<string>;
  /** Deleted, then put back by the delete's undo. */
  undone: Set<string>;
  /** Per follower: following the partner at the end, and follow or unfollow calls that succeeded. */
  follows: Map<string, { partner: string; following: boolean; calls: number }>;
  /** Per reporter: the comment of each report that was received (each comment is unique). */
  reports: Map<string, { reported: string; comments: string[] }>;
  /** Answers that show an action done twice, or refused: each described. */
  anomalies: string[];
}

export interface TrafficFigures {
  /** Intents answered as done. */
  actions: number;
  /** Requests that changed something, every try included. */
  attempts: number;
  /** Tries beyond the first of an intent, by the library or by sending the intent again. */
  retries: number;
  /** Of those, intents sent again after the library gave up or was told to wait (409). */
  resent: number;
  /** Answers the service replayed from an earlier try of the same key. */
  replays: number;
  /** Answers of each status to the changing requests; "no answer" for a connection lost before one. */
  statuses: Record<string, number>;
  seconds: number;
}

export interface LiveFigures {
  /** Channels that closed under the people after the disruption began. */
  dropped: number;
  /** Milliseconds from the disruption to the last dropped channel being open again. */
  reconnectMs: number;
  /** Channels whose last heard count is not the database's. */
  wrongCounts: number;
  /** Milliseconds from the last action until every channel heard its final count. */
  settledMs: number;
}

export interface TrafficOptions {
  apiBaseUrl: string;
  people: readonly ClusterPerson[];
  /** Intents to answer in all (at least). */
  actions: number;
  /**
   * Called once when this share of `actions` is done, while the traffic goes on; the run ends
   * only after it resolves. The moment it is called is the disruption the live figures count from.
   */
  disrupt?: { atShare: number; run: () => Promise<void> };
  /** Reads the unread count of every person from the database, for the live channels' check. */
  unreadCounts: () => Promise<Map<string, number>>;
  /** Told of progress now and then. */
  progress?: (line: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** An intent without an answer for this long is given up, and counted as an anomaly. */
const INTENT_DEADLINE_MS = 60_000;
const IDS_PER_CALL = 2;
const PING_EVERY_MS = 20_000;

/** Whether trying again with the same key may bring the answer: no answer came, or one that is not kept. */
function tryAgain(error: unknown): number | null {
  if (error instanceof RequestInProgressError) return (error.retryAfter ?? 1) * 1000;
  if (error instanceof NetworkError || error instanceof TimeoutError || error instanceof ServerError) return 250;
  return null;
}

interface Counters {
  attempts: number;
  retries: number;
  replays: number;
  statuses: Record<string, number>;
}

/** The global fetch, counting the tries of each key and the answers that were replays. */
function countingFetch(counters: Counters): typeof fetch {
  const keys = new Set<string>();
  return async (input, init) => {
    const headers = input instanceof Request ? input.headers : new Headers(init?.headers);
    const key = headers.get('idempotency-key');
    if (key !== null) {
      counters.attempts += 1;
      if (keys.has(key)) counters.retries += 1;
      else keys.add(key);
    }
    const response = await fetch(input, init).catch((error: unknown) => {
      if (key !== null) counters.statuses['no answer'] = (counters.statuses['no answer'] ?? 0) + 1;
      throw error;
    });
    if (key !== null) {
      counters.statuses[response.status] = (counters.statuses[response.status] ?? 0) + 1;
      if (response.headers.get('idempotent-replayed') === 'true') counters.replays += 1;
    }
    return response;
  };
}

interface LiveKeeper {
  /** The last count heard. */
  count: number | null;
  /** Every count heard, and when. */
  heard: { count: number; at: number }[];
  /** When it last closed while wanted open, and when it opened again after that. */
  droppedAt: number | null;
  reopenedAt: number | null;
  stop(): void;
}

/** Keeps one live channel open for a person, opening a new one (new ticket) whenever it drops. */
function keepLive(client: Client): LiveKeeper {
  let stopped = false;
  let current: { close(): void; ping(): boolean } | null = null;
  const keeper: LiveKeeper = {
    count: null,
    heard: [],
    droppedAt: null,
    reopenedAt: null,
    stop() {
      stopped = true;
      clearInterval(pinger);
      current?.close();
    },
  };
  const pinger = setInterval(() => current?.ping(), PING_EVERY_MS);
  const connect = async () => {
    let wait = 200;
    while (!stopped) {
      try {
        const channel = await client.inbox.live();
        if (stopped) {
          channel.close();
          return;
        }
        current = channel;
        if (keeper.droppedAt !== null) keeper.reopenedAt = Date.now();
        channel.on('count', (count) => {
          keeper.count = count;
          keeper.heard.push({ count, at: Date.now() });
        });
        channel.on('close', () => {
          current = null;
          if (stopped) return;
          keeper.droppedAt = Date.now();
          keeper.reopenedAt = null;
          void connect();
        });
        return;
      } catch {
        await sleep(wait * (0.5 + Math.random()));
        wait = Math.min(wait * 2, 2_000);
      }
    }
  };
  void connect();
  return keeper;
}

type Outcome<T> = { done: true; value: T } | { done: false; error: unknown };

/** Sends one intent with one key until the service gives an answer that settles it. */
async function settle<T>(
  counters: { retried: number },
  call: (change: { idempotencyKey: string }) => Promise<T>,
): Promise<Outcome<T>> {
  const idempotencyKey = randomUUID();
  const deadline = Date.now() + INTENT_DEADLINE_MS;
  for (;;) {
    try {
      return { done: true, value: await call({ idempotencyKey }) };
    } catch (error) {
      const wait = tryAgain(error);
      if (wait === null || Date.now() + wait > deadline) return { done: false, error };
      counters.retried += 1;
      await sleep(wait);
    }
  }
}

const describeError = (error: unknown) =>
  error instanceof ApiError ? `${error.name} ${error.status} ${error.code}: ${error.detail}` : String(error);

export async function runClusterTraffic(options: TrafficOptions): Promise<{
  ledger: Ledger;
  figures: TrafficFigures;
  live: LiveFigures;
}> {
  const { people } = options;
  const ledger: Ledger = {
    read: new Set(),
    deleted: new Set(),
    undone: new Set(),
    follows: new Map(),
    reports: new Map(),
    anomalies: [],
  };
  const counters: Counters = { attempts: 0, retries: 0, replays: 0, statuses: {} };
  const resent = { retried: 0 };
  const fetchCounted = countingFetch(counters);
  const clients = people.map((person) =>
    createClient({
      baseUrl: options.apiBaseUrl,
      token: person.token,
      fetch: fetchCounted,
      WebSocket: WebSocket as unknown as WebSocketConstructor,
    }),
  );
  const keepers = clients.map((client) => keepLive(client));
  let actions = 0;
  let lastActionAt = Date.now();
  let disruptedAt: number | null = null;
  let disruption: Promise<void> | null = null;
  const done = () => {
    actions += 1;
    lastActionAt = Date.now();
    if (options.disrupt && disruption === null && actions >= options.actions * options.disrupt.atShare) {
      disruptedAt = Date.now();
      options.progress?.(`${actions} actions done: disrupting`);
      disruption = options.disrupt.run();
    }
    if (actions % 2000 === 0) options.progress?.(`${actions} actions done`);
  };
  const enough = () => actions >= options.actions && (options.disrupt === undefined || disruption !== null);
  const anomaly = (person: ClusterPerson, what: string, detail: unknown) =>
    ledger.anomalies.push(`${person.username} ${what}: ${typeof detail === 'string' ? detail : describeError(detail)}`);

  // Every channel is open before the traffic begins, so the disruption finds each somewhere.
  const openBy = Date.now() + 30_000;
  while (keepers.some((keeper) => keeper.count === null) && Date.now() < openBy) await sleep(50);

  const started = performance.now();
  await Promise.all(
    people.map(async (person, i) => {
      const client = clients[i] as Client;
      const partner = people[(i + 1) % people.length] as ClusterPerson;
      const reported = people[(i + 2) % people.length] as ClusterPerson;
      const follow = { partner: partner.username, following: false, calls: 0 };
      const reports = { reported: reported.username, comments: [] as string[] };
      ledger.follows.set(person.username, follow);
      ledger.reports.set(person.username, reports);
      const ids = [...person.ids];
      let followCalls = 0;
      let reportCalls = 0;
      for (let turn = 0; !enough() && ids.length >= IDS_PER_CALL; turn++) {
        const slot = turn % 8;
        if (slot === 4 && followCalls < LIMITS.followCallsPerHour) {
          followCalls += 1;
          const following = !follow.following;
          const handle = client.user(partner.username);
          const outcome = await settle(resent, (change) =>
            following ? handle.follow(change) : handle.unfollow(change),
          );
          if (!outcome.done) anomaly(person, following ? 'follow' : 'unfollow', outcome.error);
          else {
            follow.following = following;
            follow.calls += 1;
            done();
          }
          continue;
        }
        if (slot === 6 && reportCalls < LIMITS.reportsPerHour) {
          reportCalls += 1;
          const comment = randomUUID();
          const outcome = await settle(resent, (change) =>
            client.user(reported.username).report('spam', comment, change),
          );
          if (!outcome.done) anomaly(person, 'report', outcome.error);
          else {
            reports.comments.push(comment);
            done();
          }
          continue;
        }
        const batch = ids.splice(0, IDS_PER_CALL);
        if (slot % 3 === 0) {
          const outcome = await settle(resent, (change) => client.inbox.markRead(batch, change));
          if (!outcome.done) anomaly(person, 'mark read', outcome.error);
          else {
            if (outcome.value.count !== batch.length) anomaly(person, 'mark read', `count ${outcome.value.count}`);
            for (const id of batch) ledger.read.add(id);
            done();
          }
          continue;
        }
        const deleted = await settle(resent, (change) => client.inbox.delete(batch, change));
        if (!deleted.done) {
          anomaly(person, 'delete', deleted.error);
          continue;
        }
        if (deleted.value.count !== batch.length) anomaly(person, 'delete', `count ${deleted.value.count}`);
        done();
        const token = deleted.value.undo;
        if (slot % 3 === 1 || token === null) {
          for (const id of batch) ledger.deleted.add(id);
          continue;
        }
        const undone = await settle(resent, (change) => client.inbox.undo(token, change));
        if (!undone.done) {
          anomaly(person, 'undo', undone.error);
          for (const id of batch) ledger.deleted.add(id);
          continue;
        }
        if (undone.value.count !== batch.length) anomaly(person, 'undo', `count ${undone.value.count}`);
        for (const id of batch) ledger.undone.add(id);
        done();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await disruption;

  // The channels must tell each person's final count within a second of the last action.
  const expected = await options.unreadCounts();
  const settledBy = lastActionAt + 10_000;
  const right = (keeper: LiveKeeper, person: ClusterPerson) =>
    keeper.count === expected.get(person.username) && (keeper.droppedAt === null || keeper.reopenedAt !== null);
  while (!people.every((person, i) => right(keepers[i] as LiveKeeper, person)) && Date.now() < settledBy) {
    await sleep(20);
  }
  // When each channel came to tell the final count, for good: the first of the last frames that told it.
  const settledAt = keepers.map((keeper, i) => {
    const final = expected.get(people[i]?.username ?? '');
    let at = Number.POSITIVE_INFINITY;
    for (let j = keeper.heard.length - 1; j >= 0 && keeper.heard[j]?.count === final; j--)
      at = keeper.heard[j]?.at ?? at;
    return at;
  });
  const settledMs = Math.max(0, ...settledAt.map((at) => at - lastActionAt));
  const wrongCounts = people.filter((person, i) => keepers[i]?.count !== expected.get(person.username)).length;
  const droppedKeepers = keepers.filter((keeper) => disruptedAt !== null && (keeper.droppedAt ?? 0) >= disruptedAt);
  const reconnectMs = Math.max(
    0,
    ...droppedKeepers.map((keeper) => (keeper.reopenedAt ?? Number.POSITIVE_INFINITY) - (disruptedAt ?? 0)),
  );
  for (const keeper of keepers) keeper.stop();

  return {
    ledger,
    figures: {
      actions,
      attempts: counters.attempts,
      retries: counters.retries,
      resent: resent.retried,
      replays: counters.replays,
      statuses: counters.statuses,
      seconds,
    },
    live: { dropped: droppedKeepers.length, reconnectMs, wrongCounts, settledMs },
  };
}

export interface Comparison {
  /** Actions the people were told were done that the database does not hold. */
  lost: number;
  /** Actions the database holds more often than the people were told, or that nobody was told of. */
  doubled: number;
  /** What each of them was, for a failure message. */
  details: string[];
}

/** Compares the database with the ledger, notification by notification and call by call. */
export async function compareWithDatabase(
  db: Queryable,
  people: readonly ClusterPerson[],
  ledger: Ledger,
): Promise<Comparison> {
  const result: Comparison = { lost: 0, doubled: 0, details: [] };
  const lost = (what: string) => {
    result.lost += 1;
    if (result.details.length < 20) result.details.push(`lost: ${what}`);
  };
  const doubled = (what: string) => {
    result.doubled += 1;
    if (result.details.length < 20) result.details.push(`doubled: ${what}`);
  };
  for (const line of ledger.anomalies) doubled(line);

  const ids = people.flatMap((person) => person.ids);
  const { rows } = await db.query<{ id: string; read: boolean; deleted: boolean }>(
    'SELECT id, read, deleted_at IS NOT NULL AS deleted FROM notifications WHERE id = ANY($1::uuid[])',
    [ids],
  );
  for (const { id, read, deleted } of rows) {
    if (ledger.read.has(id)) {
      if (!read || deleted) lost(`read ${id}`);
    } else if (ledger.deleted.has(id)) {
      if (!deleted) lost(`delete ${id}`);
    } else if (ledger.undone.has(id)) {
      if (deleted || read) lost(`undo of the delete of ${id}`);
    } else if (read || deleted) doubled(`${id} changed by nobody's action (read ${read}, deleted ${deleted})`);
  }
  // A deleted notification is removed for good once its undo window has passed, which a slow run
  // outlasts: only a row that nobody deleted must still be there.
  const present = new Set(rows.map((row) => row.id));
  const gone = ids.filter((id) => !present.has(id) && !ledger.deleted.has(id));
  if (gone.length > 0) lost(`${gone.length} notifications gone for good that nobody deleted`);

  const users = new Map(
    (await db.query<{ id: number; username: string }>('SELECT id, username FROM users')).rows.map((row) => [
      row.username,
      row.id,
    ]),
  );
  const calls = new Map(
    (
      await db.query<{ caller_id: number; calls: number }>(
        'SELECT caller_id, count(*)::int AS calls FROM follow_calls GROUP BY caller_id',
      )
    ).rows.map((row) => [row.caller_id, row.calls]),
  );
  const following = new Set(
    (await db.query<{ pair: string }>("SELECT follower_id || '>' || followee_id AS pair FROM follows")).rows.map(
      (row) => row.pair,
    ),
  );
  const notices = new Map(
    (
      await db.query<{ pair: string; notices: number }>(
        `SELECT actor_id || '>' || user_id AS pair, count(*)::int AS notices FROM notifications
         WHERE type = 'follow' GROUP BY actor_id, user_id`,
      )
    ).rows.map((row) => [row.pair, row.notices]),
  );
  for (const [username, follow] of ledger.follows) {
    const id = users.get(username);
    const pair = `${id}>${users.get(follow.partner)}`;
    const counted = calls.get(id ?? -1) ?? 0;
    if (counted < follow.calls) lost(`${follow.calls - counted} follow calls of ${username}`);
    if (counted > follow.calls) doubled(`${counted - follow.calls} follow calls of ${username}`);
    if (following.has(pair) !== follow.following) lost(`${username} following ${follow.partner}: ${follow.following}`);
    // One follow notification a day from one follower: exactly one once any follow was done.
    const expectedNotices = follow.calls > 0 ? 1 : 0;
    const noticed = notices.get(pair) ?? 0;
    if (noticed < expectedNotices) lost(`the follow notification from ${username}`);
    if (noticed > expectedNotices) doubled(`${noticed} follow notifications from ${username}`);
  }

  const filed = new Map(
    (
      await db.query<{ comment: string; reports: number }>(
        'SELECT comment, count(*)::int AS reports FROM reports GROUP BY comment',
      )
    ).rows.map((row) => [row.comment, row.reports]),
  );
  const told = new Set([...ledger.reports.values()].flatMap((each) => each.comments));
  for (const comment of told) {
    const n = filed.get(comment) ?? 0;
    if (n === 0) lost(`report ${comment}`);
    if (n > 1) doubled(`report ${comment} filed ${n} times`);
  }
  for (const [comment, n] of filed) if (!told.has(comment)) doubled(`report ${comment} filed ${n} times, told of none`);
  return result;
}

/** The unread count the database keeps for each person. */
export async function unreadCounts(db: Queryable): Promise<Map<string, number>> {
  const { rows } = await db.query<{ username: string; unread: number }>(
    'SELECT u.username, coalesce(c.unread, 0)::int AS unread FROM users u LEFT JOIN unread_counts c ON c.user_id = u.id',
  );
  return new Map(rows.map((row) => [row.username, row.unread]));
}

/** One line of figures, for the test's output and the benchmark's. */
export function describeClusterRun(
  figures: TrafficFigures,
  comparison: Comparison,
  live: LiveFigures,
  instances: number,
): string {
  return (
    `${instances} instances behind HAProxy, one killed with SIGKILL and restarted: ${figures.actions} actions in ` +
    `${figures.seconds.toFixed(1)} s (${Math.round(figures.actions / figures.seconds)}/s), lost ${comparison.lost}, ` +
    `doubled ${comparison.doubled}; ${figures.attempts} requests, ${figures.retries} retries (${figures.resent} ` +
    `intents sent again), ${figures.replays} ` +
    `replays, statuses ${JSON.stringify(figures.statuses)}; live channels: ${live.dropped} dropped by the kill, ` +
    `all back within ${live.reconnectMs} ms, ${live.wrongCounts} with a wrong count, final counts heard ` +
    `${live.settledMs} ms after the last action`
  );
}
