/**
 * `/inbox/count` and `/inbox/fetch` requests that arrive together are answered by one statement
 * (server/db/batch.ts): each must still get its own user's answer, with its own filters and
 * cursor, and a token that is revoked, altered or unknown must be refused even beside valid ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountResult, Notification } from '../../lib/api/contract';
import { countAnswerAs, pageOfNotificationsAs } from '../../server/store/notifications';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../support/service';
import { startTwoInstances, type TwoInstances } from './support/instances';

/**
 * Requests sent at once, well beyond the statements a batcher keeps in flight; with the second
 * page a quarter of them asks for, fewer than the 64 connections one client address may hold,
 * however many of the first answers have freed theirs.
 */
const TOGETHER = 48;

async function statusOf(service: TestService, path: string, token: string): Promise<number> {
  const response = await service.request(path, { token });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Keeps 8 clients asking `service` with `token` (counts and pages in turn) until 40 answers came
 * to requests sent after `revoke` resolved; those answers' statuses.
 */
async function statusesAfterRevoke(service: TestService, token: string, revoke: () => Promise<void>) {
  let revoked = false;
  let before = 0;
  const after: number[] = [];
  const load = Array.from({ length: 8 }, async (_, i) => {
    while (after.length < 40) {
      const sentAfterRevoke = revoked;
      const status = await statusOf(service, i % 2 === 0 ? '/inbox/count' : '/inbox/fetch', token);
      if (sentAfterRevoke) after.push(status);
      else before += 1;
    }
  });
  while (before < 20) await new Promise((resolve) => setImmediate(resolve));
  await revoke();
  revoked = true;
  await Promise.all(load);
  return after;
}

describe.each(BACKENDS)('requests answered together on %s', (backend) => {
  let service: TestService;
  const users: { user: TestUser; texts: string[] }[] = [];

  beforeAll(async () => {
    service = await startTestService({ backend });
    for (let i = 0; i < 6; i++) {
      const user = await service.newUser(`together${i}`);
      const texts = Array.from({ length: i + 2 }, (_, n) => `user ${i} notification ${n}`);
      await service.notify(
        user.username,
        texts.map((text, n) => ({
          type: n % 2 === 0 ? 'mention' : 'like',
          text,
          read: n === 0,
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
        })),
      );
      users.push({ user, texts });
    }
  });
  afterAll(() => service?.close());

  it("gives each of many simultaneous requests its own user's counts and pages", async () => {
    const requests = Array.from({ length: TOGETHER }, async (_, i) => {
      const { user, texts } = users[i % users.length] as (typeof users)[number];
      const newestFirst = [...texts].reverse();
      switch (i % 4) {
        case 0:
          expect(await user.client.inbox.count()).toBe(texts.length - 1);
          break;
        case 1: {
          const page = await user.client.inbox.fetch({ limit: 2 });
          expect(page.data.map((n: Notification) => n.text)).toEqual(newestFirst.slice(0, 2));
          const next = await user.client.inbox.fetch({ limit: 2, cursor: page.cursor });
          expect(next.data.map((n: Notification) => n.text)).toEqual(newestFirst.slice(2, 4));
          break;
        }
        case 2: {
          const page = await user.client.inbox.fetch({ limit: 50, unreadOnly: true, types: ['like'] });
          const likes = newestFirst.filter((text) => Number(text.split(' ').at(-1)) % 2 === 1);
          expect(page.data.map((n: Notification) => n.text)).toEqual(likes);
          break;
        }
        default:
          expect(await user.client.inbox.countByType()).toMatchObject({
            mention: Math.ceil(texts.length / 2) - 1,
            like: Math.floor(texts.length / 2),
          });
      }
    });
    await Promise.all(requests);
  });

  it('answers lookups asked in the same moment, which share one statement, each for its own token', async () => {
    const db = service.server.database;
    const altered = `${(users[1] as (typeof users)[number]).user.token.slice(0, -2)}AB`;
    // Asked in one turn of the event loop, so all of them wait for the same statement.
    const counts = [...users.map(({ user }) => countAnswerAs(db, user.token)), countAnswerAs(db, altered)];
    const pages = users.map(({ user }, i) =>
      pageOfNotificationsAs(
        db,
        user.token,
        { unreadOnly: false, snoozed: false, types: null, limit: i + 1, after: null },
        service.server.origin,
      ),
    );
    const answered = await Promise.all(counts);
    expect(answered.map((found) => (found ? (JSON.parse(found.counted) as CountResult).count : null))).toEqual([
      ...users.map(({ texts }) => texts.length - 1),
      null,
    ]);
    expect(answered.map((found) => found?.owner.username ?? null)).toEqual([
      ...users.map(({ user }) => user.username),
      null,
    ]);
    const texts = (found: Awaited<(typeof pages)[number]>) =>
      found && (JSON.parse(found.page.data) as Notification[]).map((n) => n.text);
    expect((await Promise.all(pages)).map(texts)).toEqual(
      users.map(({ texts }, i) => [...texts].reverse().slice(0, i + 1)),
    );
  });

  it('refuses a revoked, altered or unknown token among valid ones answered at the same moment', async () => {
    const revoked = await service.newUser('togetherrevoked');
    expect(await service.server.admin.revokeToken(revoked.token)).toBe(true);
    const valid = (users[0] as (typeof users)[number]).user.token;
    const altered = `${valid.slice(0, -1)}${valid.endsWith('A') ? 'B' : 'A'}`;
    const unknown = 'aaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
    const tokens = [valid, revoked.token, altered, unknown];
    const statuses = await Promise.all(
      Array.from({ length: TOGETHER }, (_, i) =>
        statusOf(service, i % 2 === 0 ? '/inbox/count' : '/inbox/fetch', tokens[i % tokens.length] as string),
      ),
    );
    expect(statuses).toEqual(Array.from({ length: TOGETHER }, (_, i) => (i % tokens.length === 0 ? 200 : 401)));
  });

  it('refuses a token from the moment its revocation is answered, while requests with it keep arriving', async () => {
    const user = await service.newUser('togetherrevoke');
    // Requests with the token keep arriving before, during and after the revocation.
    const after = await statusesAfterRevoke(service, user.token, async () => {
      const response = await service.request('/oauth/revoke', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: user.token }).toString(),
      });
      expect(response.status).toBe(200);
    });
    expect(after.filter((status) => status !== 401)).toEqual([]);
  });
});

describe.runIf(process.env.DATABASE_URL)('revocation across two instances on one PostgreSQL database', () => {
  let instances: TwoInstances;

  beforeAll(async () => {
    instances = await startTwoInstances('test_batch');
  });
  afterAll(() => instances?.close());

  it('refuses a token revoked through one instance on the other as soon as the revocation is answered', async () => {
    const { a, b } = instances;
    const user = await a.newUser('revokedelsewhere');
    // B answers the token under load, so its requests go in shared statements, until the end.
    const after = await statusesAfterRevoke(b, user.token, async () => {
      const response = await a.request('/operator/tokens/revoke', {
        method: 'POST',
        token: await a.operatorToken(),
        body: JSON.stringify({ token: user.token }),
      });
      expect(await response.json()).toEqual({ revoked: true });
    });
    expect(after.filter((status) => status !== 401)).toEqual([]);
  });
});
