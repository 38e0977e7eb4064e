import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../lib/api';
import { MAX_BODY_BYTES } from '../../../server/app';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../../support/service';
import { databaseDigest, exchange, expectContractAnswer } from './support';

/**
 * The bounds that protect the service, each at its limit and one past it. Page size (100),
 * ids per call (500) and the report rate (10 an hour) are tested so in the inbox and users
 * suites; the rest are here.
 */
describe.each(BACKENDS)('bounds on %s', (backend) => {
  let service: TestService;
  let user: TestUser;
  let target: TestUser;

  beforeAll(async () => {
    service = await startTestService({ backend });
    [user, target] = await Promise.all([service.newUser('bound'), service.newUser('boundt')]);
    await service.fillInbox(user.username, 3);
  });
  afterAll(() => service?.close());

  /** A valid JSON body of exactly `size` bytes: `fields` plus padding in a field nobody reads. */
  function bodyOf(size: number, fields: Record<string, unknown>): string {
    const bare = JSON.stringify({ ...fields, pad: '' });
    const body = JSON.stringify({ ...fields, pad: 'x'.repeat(size - bare.length) });
    expect(Buffer.byteLength(body)).toBe(size);
    return body;
  }

  const streamed = (body: string) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(body);
        for (let at = 0; at < bytes.length; at += 4096) controller.enqueue(bytes.subarray(at, at + 4096));
        controller.close();
      },
    });

  async function post(path: string, body: string, stream: boolean) {
    return exchange(`${service.apiBaseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: stream ? streamed(body) : body,
      duplex: 'half',
    } as RequestInit);
  }

  it.each([
    ['declared', false],
    ['streamed', true],
  ])('takes a body of exactly 64 KiB and refuses one byte more with 413, %s', async (_, stream) => {
    const ok = await post('/inbox/read', bodyOf(MAX_BODY_BYTES, { ids: [] }), stream);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toEqual({ success: true, count: 0, undo: null });

    const before = await databaseDigest(service.server.database);
    for (const [path, fields] of [
      ['/inbox/read', { ids: 'all' }],
      ['/inbox/delete', { ids: 'all' }],
      [`/user/${target.username}/report`, { reason: 'spam', comment: '' }],
    ] as const) {
      const over = await post(path, bodyOf(MAX_BODY_BYTES + 1, fields), stream);
      expect(over.status, path).toBe(413);
      expect(expectContractAnswer({ ...over, contentType: over.headers.get('content-type') })).toBe(
        'payload_too_large',
      );
    }
    expect(await databaseDigest(service.server.database)).toBe(before);
    expect(await user.client.inbox.count()).toBe(3);
  });

  it('takes a report comment of exactly 2000 characters, and keeps all of it', async () => {
    const comment = 'é'.repeat(LIMITS.reportCommentMax);
    await user.client.user(target.username).report('other', comment);
    const { rows } = await service.server.database.query<{ comment: string }>(
      'SELECT r.comment FROM reports r JOIN users u ON u.id = r.reporter_id WHERE u.username = $1',
      [user.username],
    );
    expect(rows.map((row) => row.comment)).toEqual([comment]);
  });

  it('takes a username of exactly 30 characters and finds nothing for 31', async () => {
    const { username } = await service.server.admin.createUser({ username: `${'a'.repeat(29)}${Date.now() % 10}` });
    expect(username).toHaveLength(30);
    expect((await user.client.user(username).get()).username).toBe(username);
    await user.client.user(username).follow();
    const longer = await exchange(`${service.apiBaseUrl}/user/${username}x`);
    expect(longer.status).toBe(404);
  });
});
