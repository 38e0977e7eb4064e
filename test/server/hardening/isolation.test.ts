import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, Page } from '../../../lib/api';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../../support/service';

/**
 * Three people act on the service in random order, each naming ids and cursors that belong to
 * any of them. A model says what each inbox must hold after every step; the service's data is
 * compared with it after each one, so no step can read, count, change or delete another
 * person's notifications unseen, and every undo puts back exactly what its owner's step changed.
 */

const PEOPLE = 3;
const EACH = 6;

type Op =
  | { kind: 'fetch'; actor: number; limit: number; unreadOnly: boolean }
  | { kind: 'fetchWithCursor'; actor: number; owner: number; ownerUnreadOnly: boolean; unreadOnly: boolean }
  | { kind: 'count'; actor: number }
  | { kind: 'markRead' | 'delete' | 'markUnread'; actor: number; picks: number[]; upper: boolean; all: boolean }
  | { kind: 'undo'; actor: number; owner: number; back: number }
  | { kind: 'follow' | 'unfollow'; actor: number; target: number };

const person = fc.nat({ max: PEOPLE - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('fetch' as const),
    actor: person,
    limit: fc.integer({ min: 1, max: 20 }),
    unreadOnly: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('fetchWithCursor' as const),
    actor: person,
    owner: person,
    ownerUnreadOnly: fc.boolean(),
    unreadOnly: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('count' as const), actor: person }),
  fc.record({
    kind: fc.constantFrom('markRead' as const, 'delete' as const, 'markUnread' as const),
    actor: person,
    picks: fc.array(fc.nat({ max: PEOPLE * EACH + 1 }), { maxLength: 8 }),
    upper: fc.boolean(),
    all: fc.nat({ max: 9 }).map((n) => n < 2),
  }),
  fc.record({ kind: fc.constant('undo' as const), actor: person, owner: person, back: fc.nat({ max: 2 }) }),
  fc.record({ kind: fc.constantFrom('follow' as const, 'unfollow' as const), actor: person, target: person }),
);

interface Row {
  id: string;
  read: boolean;
}

/** An undo token a step was given, and what the model needs to put its operation back. */
interface Issued {
  token: string;
  owner: number;
  kind: 'markRead' | 'delete' | 'markUnread';
  used: boolean;
}

describe.each(BACKENDS)('one person’s inbox against everyone else’s requests, on %s', (backend) => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ backend });
  });
  afterAll(() => service?.close());

  /** Every notification of a user, newest first, straight from the database. */
  async function stored(user: TestUser): Promise<Row[]> {
    const { rows } = await service.server.database.query<Row>(
      `SELECT n.id::text AS id, n.read FROM notifications n JOIN users u ON u.id = n.user_id
       WHERE u.username = $1 AND n.deleted_at IS NULL ORDER BY n.created_at DESC, n.id DESC`,
      [user.username],
    );
    return rows;
  }

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: ApiError) => error,
    );

  it('keeps every inbox exactly as its owner’s own actions leave it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const people: TestUser[] = [];
        for (let i = 0; i < PEOPLE; i++) people.push(await service.newUser(`iso${i}`));
        const model: Row[][] = [];
        for (const [i, user] of people.entries()) {
          await service.fillInbox(user.username, EACH - 2);
          await service.fillInbox(user.username, 2, {
            read: true,
            newest: new Date(Date.now() - 3_600_000 * (i + 1)).toISOString(),
          });
          model.push(await stored(user));
        }
        // Ids of everyone, plus two that belong to no one.
        const everyId = [...model.flat().map((row) => row.id), crypto.randomUUID(), crypto.randomUUID()];
        const follows = new Set<string>();
        /** The follower and followed pairs whose follow has notified, within the day that lasts. */
        const noticed = new Set<string>();
        // Where each notification sorts (newest first), the operation that last changed it, the
        // deleted ones waiting for their undo, and every undo token given out.
        const rank = new Map(everyId.map((id, i) => [id, i]));
        let newest = 0;
        const lastOp = new Map<string, Issued>();
        const deleted = new Map<string, Row>();
        const issued: Issued[] = [];

        for (const step of ops) {
          const actor = people[step.actor] as TestUser;
          const own = model[step.actor] as Row[];
          const api = actor.client.inbox;
          switch (step.kind) {
            case 'fetch': {
              const page = await api.fetch({ limit: step.limit, unreadOnly: step.unreadOnly });
              const listed = own.filter((row) => !step.unreadOnly || !row.read);
              expect(page.data.map((n) => [n.id, n.read])).toEqual(
                listed.slice(0, step.limit).map((row) => [row.id, row.read]),
              );
              break;
            }
            case 'fetchWithCursor': {
              const owner = people[step.owner] as TestUser;
              const first: Page = await owner.client.inbox.fetch({ limit: 2, unreadOnly: step.ownerUnreadOnly });
              if (first.cursor === null) break;
              const fits = step.owner === step.actor && step.ownerUnreadOnly === step.unreadOnly;
              const attempt = api.fetch({ limit: 20, cursor: first.cursor, unreadOnly: step.unreadOnly });
              if (!fits) {
                expect(await failure(attempt)).toMatchObject({ status: 400, code: 'invalid_cursor' });
                break;
              }
              const listed = own.filter((row) => !step.unreadOnly || !row.read);
              expect((await attempt).data.map((n) => n.id)).toEqual(listed.slice(2, 22).map((row) => row.id));
              break;
            }
            case 'count':
              expect(await api.count()).toBe(own.filter((row) => !row.read).length);
              break;
            case 'markRead':
            case 'markUnread':
            case 'delete': {
              const named = [...new Set(step.picks.map((i) => everyId[i] as string))];
              const all = step.all && step.kind !== 'markUnread';
              const sent = all ? 'all' : named.map((id) => (step.upper ? id.toUpperCase() : id));
              const hits = (row: Row) => all || named.includes(row.id);
              const result = await (step.kind === 'markUnread'
                ? api.markUnread(sent as string[])
                : api[step.kind](sent));
              const changed =
                step.kind === 'delete'
                  ? own.filter(hits)
                  : own.filter((row) => hits(row) && row.read === (step.kind === 'markUnread'));
              expect(result.count).toBe(changed.length);
              expect(result.undo === null).toBe(changed.length === 0);
              const operation: Issued = { token: result.undo ?? '', owner: step.actor, kind: step.kind, used: false };
              if (result.undo !== null) issued.push(operation);
              for (const row of changed) lastOp.set(row.id, operation);
              if (step.kind === 'delete') {
                for (const row of changed) deleted.set(row.id, row);
                model[step.actor] = own.filter((row) => !hits(row));
              } else {
                for (const row of changed) row.read = step.kind === 'markRead';
              }
              break;
            }
            case 'undo': {
              const mine = issued.filter((entry) => entry.owner === step.owner);
              const operation = mine[mine.length - 1 - step.back];
              if (!operation) break;
              const outcome = await failure(api.undo(operation.token));
              if (step.owner !== step.actor) {
                expect(outcome).toMatchObject({ status: 400, code: 'invalid_undo' });
                break;
              }
              if (operation.used) {
                expect(outcome).toMatchObject({ status: 410, code: 'undo_expired' });
                break;
              }
              expect(outcome).toBeNull();
              operation.used = true;
              const back = [...lastOp].filter(([, by]) => by === operation).map(([id]) => id);
              for (const id of back) lastOp.delete(id);
              if (operation.kind === 'delete') {
                const restored = back.map((id) => deleted.get(id) as Row);
                for (const id of back) deleted.delete(id);
                model[step.actor] = [...own, ...restored].sort(
                  (a, b) => (rank.get(a.id) as number) - (rank.get(b.id) as number),
                );
              } else {
                for (const row of own) if (back.includes(row.id)) row.read = operation.kind === 'markUnread';
              }
              break;
            }
            case 'follow':
            case 'unfollow': {
              const target = people[step.target] as TestUser;
              const handle = actor.client.user(target.username);
              const key = `${step.actor}>${step.target}`;
              const outcome = await failure(step.kind === 'follow' ? handle.follow() : handle.unfollow());
              if (step.actor === step.target) {
                expect(outcome).toMatchObject({ code: 'cannot_follow_self' });
              } else if (step.kind === 'follow') {
                expect(outcome).toEqual(
                  follows.has(key) ? expect.objectContaining({ code: 'already_following' }) : null,
                );
                if (!follows.has(key)) {
                  // A new follow is the one thing that may write into someone else's inbox: one unread
                  // notification, once a day for each follower and followed (the contract's
                  // followNoticeHours), so following again after an unfollow writes nothing.
                  const before = new Set((model[step.target] as Row[]).map((row) => row.id));
                  const added = (await stored(target)).filter((row) => !before.has(row.id));
                  if (noticed.has(key)) {
                    expect(added).toEqual([]);
                  } else {
                    expect(added).toEqual([{ id: expect.any(String), read: false }]);
                    noticed.add(key);
                    model[step.target] = [...(added as Row[]), ...(model[step.target] as Row[])];
                    everyId.push(added[0]?.id as string);
                    newest -= 1;
                    rank.set(added[0]?.id as string, newest);
                  }
                }
                follows.add(key);
              } else {
                expect(outcome).toEqual(follows.has(key) ? null : expect.objectContaining({ code: 'not_following' }));
                follows.delete(key);
              }
              break;
            }
          }
          for (const [i, user] of people.entries()) {
            expect(await stored(user), `${user.username} after ${JSON.stringify(step)}`).toEqual(model[i]);
          }
        }
      }),
      { numRuns: 25 },
    );
  });
});
