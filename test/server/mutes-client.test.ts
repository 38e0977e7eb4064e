import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  createClient,
  InvalidArgumentError,
  InvalidMuteError,
  MuteNotFoundError,
  TooManyMutesError,
  UserNotFoundError,
} from '../../lib/api';
import { BACKENDS, startTestService, type TestService } from '../support/service';

describe.each(BACKENDS)('the client library’s mutes, policy and search, against the service on %s', (backend) => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ backend });
  });
  afterAll(() => service?.close());

  /** A new user's client, and every request it sent, as sent. */
  async function signedIn(): Promise<{ client: Client; sent: Request[]; username: string }> {
    const me = await service.newUser('clientmuter');
    const sent: Request[] = [];
    const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      sent.push(request.clone());
      return globalThis.fetch(request);
    };
    return {
      client: createClient({ baseUrl: service.apiBaseUrl, token: me.token, fetch, retries: 0 }),
      sent,
      username: me.username,
    };
  }

  it('mutes a person and a link, lists and removes the mutes, and fetches the muted ones', async () => {
    const { client, username } = await signedIn();
    const loud = await service.newUser('loud', { displayName: 'Łukasz Loud' });
    await service.deliver({ username, type: 'like', actor: loud.username, text: 'liked your post' });
    await service.deliver({ username, type: 'system', text: 'Maintenance tonight', url: 'https://status.example/1' });
    const until = new Date(Date.now() + 3_600_000);
    const person = await client.inbox.mutes.add({ actor: loud.username }, until);
    expect(person).toMatchObject({ actor: loud.username, url: null, until: until.toISOString() });
    const link = await client.inbox.mutes.add({ url: 'https://status.example/1' });
    expect(link).toMatchObject({ actor: null, url: 'https://status.example/1', until: null });
    expect(await client.inbox.mutes.list()).toEqual([link, person]);
    expect(await client.inbox.count()).toBe(0);
    const muted = await client.inbox.fetch({ muted: true });
    expect(muted.data.map((n) => n.text)).toEqual(['Maintenance tonight', 'liked your post']);
    expect((await client.inbox.fetch({ muted: true, q: 'lukasz' })).data.map((n) => n.text)).toEqual([
      'liked your post',
    ]);
    await client.inbox.mutes.remove(person.id);
    expect((await client.inbox.fetch({ q: 'LOUD liked' })).data.map((n) => n.text)).toEqual(['liked your post']);
    await expect(client.inbox.mutes.remove(person.id)).rejects.toBeInstanceOf(MuteNotFoundError);
  });

  it('reads and sets the strangers policy', async () => {
    const { client, username } = await signedIn();
    const stranger = await service.newUser('stranger');
    await service.deliver({ username, type: 'mention', actor: stranger.username, text: 'hello' });
    expect(await client.inbox.policy()).toEqual({ strangers: 'accept' });
    expect(await client.inbox.setPolicy({ strangers: 'mute' })).toEqual({ strangers: 'mute' });
    expect(await client.inbox.count()).toBe(0);
    await client.user(stranger.username).follow();
    expect(await client.inbox.count()).toBe(1);
  });

  it('throws the typed error of each refusal', async () => {
    const { client, username } = await signedIn();
    await expect(client.inbox.mutes.add({ actor: username })).rejects.toBeInstanceOf(InvalidMuteError);
    await expect(client.inbox.mutes.add({ actor: 'nobody_at_all' })).rejects.toBeInstanceOf(UserNotFoundError);
    const other = await service.newUser('other');
    const soon = new Date(Date.now() + 5_000);
    await expect(client.inbox.mutes.add({ actor: other.username }, soon)).rejects.toBeInstanceOf(InvalidMuteError);
    await service.server.database.query(
      `INSERT INTO mutes (user_id, path)
       SELECT u.id, 'https://example.org/' || g FROM users u, generate_series(1, 1000) g WHERE u.username = $1`,
      [username],
    );
    await expect(client.inbox.mutes.add({ actor: other.username })).rejects.toBeInstanceOf(TooManyMutesError);
  });

  it('refuses input that could never be valid before sending anything', async () => {
    const { client, sent } = await signedIn();
    const refused = [
      () => client.inbox.mutes.add({} as never),
      () => client.inbox.mutes.add({ actor: 'a', url: 'https://example.org/' } as never),
      () => client.inbox.mutes.add({ actor: 'not a name' }),
      () => client.inbox.mutes.add({ url: 'ftp://example.org/' }),
      () => client.inbox.mutes.add({ actor: 'alice' }, 'tomorrow'),
      () => client.inbox.mutes.remove('not-a-uuid'),
      () => client.inbox.setPolicy({ strangers: 'maybe' as never }),
      () => client.inbox.fetch({ q: '   ' }),
      () => client.inbox.fetch({ q: 'a'.repeat(101) }),
      () => client.inbox.fetch({ muted: 'yes' as never }),
    ];
    for (const call of refused) await expect(call()).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(sent).toEqual([]);
  });

  it('sends each mute and removal with an Idempotency-Key, its own when given', async () => {
    const { client, sent, username } = await signedIn();
    const other = await service.newUser('keyed');
    await service.deliver({ username, type: 'mention', actor: other.username, text: 'hi' });
    const mute = await client.inbox.mutes.add({ actor: other.username }, null, { idempotencyKey: 'mute-intent-1' });
    const again = await client.inbox.mutes.add({ actor: other.username }, null, { idempotencyKey: 'mute-intent-1' });
    expect(again).toEqual(mute);
    await client.inbox.mutes.remove(mute.id);
    const keys = sent.map((request) => request.headers.get('idempotency-key'));
    expect(keys.slice(0, 2)).toEqual(['mute-intent-1', 'mute-intent-1']);
    expect(keys[2]).toEqual(expect.any(String));
  });
});
