import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AlreadyFollowingError,
  CannotFollowSelfError,
  CannotReportSelfError,
  LIMITS,
  NotFollowingError,
  RateLimitedError,
  REPORT_REASONS,
  UnauthenticatedError,
  UserNotFoundError,
} from '../../lib/api';
import { BACKENDS, startTestService, type TestService } from '../support/service';

async function codeOf(response: Response): Promise<string> {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return (await response.json()).code;
}

describe.each(BACKENDS)('users on %s', (backend) => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ backend });
  });
  afterAll(() => service?.close());

  describe('profile', () => {
    it('gives the public fields without a token and the relation only with one', async () => {
      const bob = await service.newUser('bob', { displayName: 'Bob B', bio: 'Hello <there>' });
      const alice = await service.newUser('alice');
      await bob.client.user(alice.username).follow();

      const publicProfile = await service.client().user(bob.username);
      expect(publicProfile).toEqual({
        username: bob.username,
        displayName: 'Bob B',
        bio: 'Hello <there>',
        avatarUrl: expect.stringMatching(new RegExp(`^${service.origin}/avatars/${bob.username}\\.svg\\?v=`)),
        followersCount: 0,
        followingCount: 1,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(await alice.client.user(bob.username)).toMatchObject({
        following: false,
        followedBy: true,
        self: false,
      });
      expect(await bob.client.user(bob.username)).toMatchObject({ following: false, followedBy: false, self: true });
    });

    it('finds usernames in any letter case and answers with the stored spelling', async () => {
      const user = await service.newUser('CamelCase');
      expect((await service.client().user(user.username.toUpperCase())).username).toBe(user.username);
      expect((await service.client().user(user.username.toLowerCase())).username).toBe(user.username);
    });

    it('answers 404 user_not_found for unknown users and for names that cannot be usernames', async () => {
      await expect(service.client().user('nobody_here_at_all')).rejects.toBeInstanceOf(UserNotFoundError);
      for (const name of ['a-b', 'x'.repeat(31), '%F0%9F%98%80', 'a.b', '%00']) {
        const response = await service.request(`/user/${name}`);
        expect(response.status, name).toBe(404);
        expect(await codeOf(response), name).toBe('user_not_found');
      }
    });

    it('answers 401 to a profile request with a bad token rather than hiding it', async () => {
      const user = await service.newUser('target');
      await expect(service.client('bad.token').user(user.username)).rejects.toBeInstanceOf(UnauthenticatedError);
    });
  });

  describe('me', () => {
    it("names the token's owner, with their counts, and no one without a valid token", async () => {
      const carol = await service.newUser('carol', { displayName: 'Carol C' });
      const dave = await service.newUser('dave');
      await dave.client.user(carol.username).follow();
      expect(await carol.client.me()).toMatchObject({
        username: carol.username,
        displayName: 'Carol C',
        followersCount: 1,
        followingCount: 0,
        self: true,
      });
      expect((await dave.client.me()).username).toBe(dave.username);
      await expect(service.client().me()).rejects.toBeInstanceOf(UnauthenticatedError);
      await expect(service.client('not-a-token').me()).rejects.toBeInstanceOf(UnauthenticatedError);
      const response = await fetch(`${service.server.apiBaseUrl}/me`, {
        headers: { authorization: `Bearer ${carol.token}` },
      });
      expect(response.headers.get('cache-control')).toBe('no-store');
    });
  });

  describe('follow and unfollow', () => {
    it('moves through the states of the seed exactly', async () => {
      const me = await service.newUser('follower');
      const them = await service.newUser('followee');
      const handle = me.client.user(them.username);
      const state = async () => (await handle).following;

      expect(await state()).toBe(false);
      await expect(handle.unfollow()).rejects.toBeInstanceOf(NotFollowingError);
      expect(await state()).toBe(false);
      await expect(handle.follow()).resolves.toBeUndefined();
      expect(await state()).toBe(true);
      expect((await handle).followersCount).toBe(1);
      await expect(handle.follow()).rejects.toBeInstanceOf(AlreadyFollowingError);
      expect(await state()).toBe(true);
      await expect(handle.unfollow()).resolves.toBeUndefined();
      expect(await state()).toBe(false);
      expect((await handle).followersCount).toBe(0);
      await expect(handle.unfollow()).rejects.toBeInstanceOf(NotFollowingError);
    });

    it('answers 204 with no body, and 400 with the codes of the contract', async () => {
      const me = await service.newUser('raw');
      const them = await service.newUser('rawthem');
      const follow = (method: string) => service.request(`/user/${them.username}/follow`, { method, token: me.token });
      const created = await follow('POST');
      expect(created.status).toBe(204);
      expect(await created.text()).toBe('');
      const again = await follow('POST');
      expect(again.status).toBe(400);
      expect(await codeOf(again)).toBe('already_following');
      expect((await follow('DELETE')).status).toBe(204);
      const gone = await follow('DELETE');
      expect(gone.status).toBe(400);
      expect(await codeOf(gone)).toBe('not_following');
    });

    it('refuses following yourself, unknown users and callers without a token', async () => {
      const me = await service.newUser('self');
      await expect(me.client.user(me.username).follow()).rejects.toBeInstanceOf(CannotFollowSelfError);
      await expect(me.client.user(me.username.toUpperCase()).follow()).rejects.toBeInstanceOf(CannotFollowSelfError);
      await expect(me.client.user(me.username).unfollow()).rejects.toBeInstanceOf(CannotFollowSelfError);
      await expect(me.client.user('no_such_user_x').follow()).rejects.toBeInstanceOf(UserNotFoundError);
      await expect(me.client.user('no_such_user_x').unfollow()).rejects.toBeInstanceOf(UserNotFoundError);
      await expect(service.client().user(me.username).follow()).rejects.toBeInstanceOf(UnauthenticatedError);
      await expect(service.client().user(me.username).unfollow()).rejects.toBeInstanceOf(UnauthenticatedError);
    });

    it("puts a follow notification into the followed user's inbox, once per new follow", async () => {
      const me = await service.newUser('fan', { displayName: 'The Fan' });
      const them = await service.newUser('star');
      await me.client.user(them.username).follow();
      expect(await them.client.inbox.count()).toBe(1);
      const [notification] = (await them.client.inbox.fetch()).data;
      expect(notification).toMatchObject({
        type: 'follow',
        read: false,
        actor: { username: me.username, displayName: 'The Fan' },
        text: 'The Fan followed you',
        url: `${service.origin}/@${me.username}`,
      });
      await expect(me.client.user(them.username).follow()).rejects.toBeInstanceOf(AlreadyFollowingError);
      expect(await them.client.inbox.count()).toBe(1);
      expect(await me.client.inbox.count()).toBe(0);
    });

    it('notifies once a day per follower however often they unfollow and follow again', async () => {
      const me = await service.newUser('looper');
      const them = await service.newUser('looped');
      const handle = me.client.user(them.username);
      for (let i = 0; i < 15; i++) {
        await handle.follow();
        await handle.unfollow();
      }
      await handle.follow();
      expect((await handle).following).toBe(true);
      expect(await them.client.inbox.count()).toBe(1);
      const other = await service.newUser('otherfan');
      await other.client.user(them.username).follow();
      expect(await them.client.inbox.count()).toBe(2);
      // A day later (the notice's time moved back, as the database's clock would have moved on):
      await service.server.database.query(
        `UPDATE follow_notices SET notified_at = notified_at - interval '${LIMITS.followNoticeHours} hours'
         WHERE follower_id = (SELECT id FROM users WHERE username = $1)`,
        [me.username],
      );
      await handle.unfollow();
      await handle.follow();
      expect(await them.client.inbox.count()).toBe(3);
      await handle.unfollow();
      await handle.follow();
      expect(await them.client.inbox.count()).toBe(3);
    });

    it('allows 60 follows and unfollows an hour per caller, then answers 429 with Retry-After', async () => {
      const me = await service.newUser('flooder');
      const bystander = await service.newUser('steady');
      const them = await service.newUser('flooded');
      const handle = me.client.user(them.username);
      for (let i = 0; i < LIMITS.followCallsPerHour / 2; i++) {
        await handle.follow();
        await handle.unfollow();
      }
      const error = await handle.follow().catch((e) => e);
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error.retryAfter).toBeGreaterThan(3500);
      expect(error.retryAfter).toBeLessThanOrEqual(3600);
      await expect(handle.unfollow()).rejects.toBeInstanceOf(RateLimitedError);
      await expect(me.client.user('no_such_user_z').follow()).rejects.toBeInstanceOf(RateLimitedError);
      const raw = await service.request(`/user/${them.username}/follow`, { method: 'DELETE', token: me.token });
      expect(raw.status).toBe(429);
      expect(raw.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await codeOf(raw)).toBe('rate_limited');
      expect((await handle).following).toBe(false);
      await expect(bystander.client.user(them.username).follow()).resolves.toBeUndefined();
      // An hour later the oldest calls leave the window and following works again.
      await service.server.database.query(
        `UPDATE follow_calls SET called_at = called_at - interval '1 hour'
         WHERE caller_id = (SELECT id FROM users WHERE username = $1)`,
        [me.username],
      );
      await expect(handle.follow()).resolves.toBeUndefined();
    });

    it('holds the follow limit when many calls arrive at once', async () => {
      const me = await service.newUser('burster');
      const targets = await Promise.all(Array.from({ length: 3 }, () => service.newUser('burstee')));
      const calls = Array.from({ length: LIMITS.followCallsPerHour + 10 }, (_, i) =>
        me.client.user(targets[i % 3]?.username as string).follow(),
      );
      const results = await Promise.allSettled(calls);
      const limited = results.filter(
        (r) => r.status === 'rejected' && (r as PromiseRejectedResult).reason instanceof RateLimitedError,
      );
      expect(limited).toHaveLength(10);
    });

    it.runIf(backend === 'postgres')('counts follow calls in the database, across instances', async () => {
      const schema = `test_follow_${Date.now().toString(36)}`;
      const first = await startTestService({ backend, schema });
      const second = await startTestService({ backend, schema });
      try {
        const me = await first.newUser('twice');
        const them = await first.newUser('twiceseen');
        const clients = [first.client(me.token), second.client(me.token)];
        for (let i = 0; i < LIMITS.followCallsPerHour; i++) {
          const handle = clients[i % 2]?.user(them.username);
          await (i % 2 === 0 ? handle?.follow() : handle?.unfollow());
        }
        for (const client of clients) {
          await expect(client.user(them.username).follow()).rejects.toBeInstanceOf(RateLimitedError);
        }
        expect(await them.client.inbox.count()).toBe(1);
      } finally {
        await first.close();
        await second.server.database.query(`DROP SCHEMA ${schema} CASCADE`);
        await second.close();
      }
    });

    it('keeps one follow when the same follow is sent many times at once', async () => {
      const me = await service.newUser('racer');
      const them = await service.newUser('raced');
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => me.client.user(them.username).follow()));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((r) => r.status === 'rejected')) {
        expect((r as PromiseRejectedResult).reason).toBeInstanceOf(AlreadyFollowingError);
      }
      expect((await service.client().user(them.username)).followersCount).toBe(1);
      expect(await them.client.inbox.count()).toBe(1);
    });
  });

  describe('report', () => {
    it('answers 201 with a ReportResult for every reason', async () => {
      const target = await service.newUser('reported');
      for (const reason of REPORT_REASONS) {
        const reporter = await service.newUser(`rep${reason}`);
        const result = await reporter.client.user(target.username).report(reason, `about ${reason}`);
        expect(result).toEqual({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          status: 'received',
          reason,
          createdAt: expect.stringMatching(/^\d{4}-/),
        });
      }
      const raw = await service.request(`/user/${target.username}/report`, {
        method: 'POST',
        token: (await service.newUser('rawrep')).token,
        body: JSON.stringify({ reason: 'spam', comment: 'x'.repeat(LIMITS.reportCommentMax) }),
      });
      expect(raw.status).toBe(201);
    });

    it('refuses a bad reason or comment with invalid_report, and does not count it', async () => {
      const reporter = await service.newUser('badrep');
      const target = await service.newUser('badtarget');
      const bodies: [string, string | undefined][] = [
        ['no body', undefined],
        ['not JSON', 'reason=spam'],
        ['unknown reason', '{"reason":"boring","comment":""}'],
        ['reason in capitals', '{"reason":"SPAM","comment":""}'],
        ['no reason', '{"comment":"x"}'],
        ['no comment', '{"reason":"spam"}'],
        ['comment not text', '{"reason":"spam","comment":5}'],
        ['comment too long', JSON.stringify({ reason: 'spam', comment: 'x'.repeat(LIMITS.reportCommentMax + 1) })],
        ['NUL in comment', '{"reason":"spam","comment":"a\\u0000b"}'],
        ['an array', '["spam","x"]'],
      ];
      for (const [name, body] of bodies) {
        const response = await service.request(`/user/${target.username}/report`, {
          method: 'POST',
          token: reporter.token,
          body,
        });
        expect(response.status, name).toBe(400);
        expect(await codeOf(response), name).toBe('invalid_report');
      }
      for (let i = 0; i < LIMITS.reportsPerHour; i++) await reporter.client.user(target.username).report('spam', '');
    });

    it('refuses reporting yourself, unknown users and callers without a token', async () => {
      const me = await service.newUser('selfrep');
      await expect(me.client.user(me.username).report('spam', '')).rejects.toBeInstanceOf(CannotReportSelfError);
      await expect(me.client.user('no_such_user_y').report('spam', '')).rejects.toBeInstanceOf(UserNotFoundError);
      await expect(service.client().user(me.username).report('spam', '')).rejects.toBeInstanceOf(UnauthenticatedError);
    });

    it('allows 10 reports an hour per caller, then answers 429 with Retry-After', async () => {
      const reporter = await service.newUser('busy');
      const bystander = await service.newUser('calm');
      const targets = await Promise.all([service.newUser('t1'), service.newUser('t2')]);
      for (let i = 0; i < LIMITS.reportsPerHour; i++) {
        await reporter.client.user(targets[i % 2]?.username as string).report('spam', `report ${i}`);
      }
      const error = await reporter.client
        .user(targets[0]?.username as string)
        .report('other', 'one too many')
        .catch((e) => e);
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error.status).toBe(429);
      expect(error.retryAfter).toBeGreaterThan(3500);
      expect(error.retryAfter).toBeLessThanOrEqual(3600);
      const raw = await service.request(`/user/${targets[1]?.username}/report`, {
        method: 'POST',
        token: reporter.token,
        body: '{"reason":"spam","comment":""}',
      });
      expect(raw.status).toBe(429);
      expect(raw.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await codeOf(raw)).toBe('rate_limited');
      await expect(bystander.client.user(targets[0]?.username as string).report('spam', '')).resolves.toMatchObject({
        status: 'received',
      });
    });

    it('holds the limit when many reports arrive at once', async () => {
      const reporter = await service.newUser('burst');
      const target = await service.newUser('burstt');
      const results = await Promise.allSettled(
        Array.from({ length: 14 }, () => reporter.client.user(target.username).report('spam', 'burst')),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(LIMITS.reportsPerHour);
      for (const r of results.filter((r) => r.status === 'rejected')) {
        expect((r as PromiseRejectedResult).reason).toBeInstanceOf(RateLimitedError);
      }
    });
  });
});
