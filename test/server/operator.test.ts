import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, NotificationSchema } from '../../lib/api/contract';
import { BACKENDS, startTestService, type TestService } from '../support/service';

describe.each(BACKENDS)('the operator API on %s', (backend) => {
  let service: TestService;
  let operator: string;

  beforeAll(async () => {
    service = await startTestService({ backend });
    operator = await service.operatorToken();
  });
  afterAll(() => service?.close());

  const post = (path: string, body: unknown, token: string | null = operator) =>
    service.request(path, {
      method: 'POST',
      token: token ?? undefined,
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  async function expectProblem(response: Response, status: number, code: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ status, code });
  }

  it('delivers a notification that the user then finds first in the inbox, unread and counted', async () => {
    const bob = await service.newUser('bob', { displayName: 'Bob B' });
    const alice = await service.newUser('alice');
    const response = await post('/operator/notifications', {
      username: bob.username,
      type: 'mention',
      text: 'Alice mentioned you',
      actor: alice.username,
      url: 'https://elsewhere.example/post/1?x=1',
    });
    expect(response.status).toBe(201);
    const notification = v.parse(NotificationSchema, await response.json());
    expect(notification).toMatchObject({
      read: false,
      type: 'mention',
      text: 'Alice mentioned you',
      actor: { username: alice.username, displayName: alice.username },
      url: 'https://elsewhere.example/post/1?x=1',
    });
    const page = await bob.client.inbox.fetch();
    expect(page.data[0]).toEqual(notification);
    expect(await bob.client.inbox.count()).toBe(1);
  });

  it('keeps a link into the service’s own site as a path, and takes no actor and no URL', async () => {
    const carol = await service.newUser('carol');
    const own = await service.deliver({
      username: carol.username.toUpperCase(),
      type: 'system',
      text: 'Welcome',
      url: `${service.origin}/@${carol.username}`,
    });
    expect(own.url).toBe(`${service.origin}/@${carol.username}`);
    expect(own.actor).toBeNull();
    const bare = await service.deliver({ username: carol.username, type: 'like', text: 'Someone liked it' });
    expect(bare).toMatchObject({ actor: null, url: null });
  });

  it('refuses a missing or unknown token with 401, and a user’s token with 403, delivering nothing', async () => {
    const dave = await service.newUser('dave');
    const body = { username: dave.username, type: 'system', text: 'x' };
    await expectProblem(await post('/operator/notifications', body, null), 401, 'unauthenticated');
    await expectProblem(
      await post('/operator/notifications', body, 'op_aaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'),
      401,
      'unauthenticated',
    );
    await expectProblem(await post('/operator/notifications', body, 'not a token'), 401, 'unauthenticated');
    await expectProblem(await post('/operator/notifications', body, dave.token), 403, 'forbidden');
    await expectProblem(await post('/operator/tokens/revoke', { token: dave.token }, dave.token), 403, 'forbidden');
    expect(await dave.client.inbox.count()).toBe(0);
  });

  it('refuses a bad field with 400 invalid_notification', async () => {
    const erin = await service.newUser('erin');
    const good = { username: erin.username, type: 'mention', text: 'hello', actor: null, url: null };
    const bad: unknown[] = [
      { ...good, type: 'poke' },
      { ...good, text: '' },
      { ...good, text: '   ' },
      { ...good, text: 'x'.repeat(LIMITS.notificationTextMax + 1) },
      { ...good, text: 'nul \u0000 inside' },
      { ...good, url: 'ftp://example.com/file' },
      { ...good, url: 'javascript:alert(1)' },
      { ...good, url: 'not a url' },
      { ...good, username: 'no spaces allowed' },
      { ...good, actor: 42 },
      { type: 'mention', text: 'no user' },
      [good],
      'not json',
      '',
    ];
    for (const body of bad) {
      await expectProblem(await post('/operator/notifications', body), 400, 'invalid_notification');
    }
    expect(
      (await post('/operator/notifications', { ...good, text: 'x'.repeat(LIMITS.notificationTextMax) })).status,
    ).toBe(201);
    expect(await erin.client.inbox.count()).toBe(1);
  });

  it('answers 404 user_not_found for an unknown user or actor, delivering nothing', async () => {
    const frank = await service.newUser('frank');
    await expectProblem(
      await post('/operator/notifications', { username: 'nobody_here_at_all', type: 'system', text: 'x' }),
      404,
      'user_not_found',
    );
    await expectProblem(
      await post('/operator/notifications', {
        username: frank.username,
        type: 'like',
        text: 'x',
        actor: 'nobody_at_all',
      }),
      404,
      'user_not_found',
    );
    expect(await frank.client.inbox.count()).toBe(0);
  });

  it('revokes a user’s token: it stops working, and a second revoke answers false', async () => {
    const grace = await service.newUser('grace');
    const other = await service.tokenFor(grace.username);
    const first = await post('/operator/tokens/revoke', { token: grace.token });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ revoked: true });
    await expect(grace.client.inbox.count()).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(await service.client(other).inbox.count()).toBe(0);
    expect(await (await post('/operator/tokens/revoke', { token: grace.token })).json()).toEqual({ revoked: false });
    expect(await (await post('/operator/tokens/revoke', { token: 'unknown' })).json()).toEqual({ revoked: false });
    await expectProblem(await post('/operator/tokens/revoke', { token: 7 }), 400, 'invalid_body');
    await expectProblem(await post('/operator/tokens/revoke', 'nope'), 400, 'invalid_body');
  });

  it('does not take an operator token as a user’s token', async () => {
    const response = await service.request('/inbox/count', { token: operator });
    await expectProblem(response, 401, 'unauthenticated');
  });
});
