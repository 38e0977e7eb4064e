import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createClient,
  InvalidArgumentError,
  InvalidResponseError,
  type LiveChannel,
  type LiveEvents,
  liveUrl,
  NetworkError,
  UnauthenticatedError,
} from '../../../lib/api';
import { type FakeLiveService, startFakeLiveService } from '../../support/fake-live-service';
import { notificationFixture } from '../../support/fixtures';

let service: FakeLiveService;
let channels: LiveChannel[];

const next = <K extends keyof LiveEvents>(channel: LiveChannel, type: K) =>
  new Promise<LiveEvents[K]>((resolve) => {
    const stop = channel.on(type, (value) => {
      stop();
      resolve(value);
    });
  });

function client(WebSocket = service.WebSocket) {
  return createClient({ baseUrl: service.apiBaseUrl, token: 'secret', fetch: service.fetch, WebSocket, retries: 0 });
}

async function live() {
  const channel = await client().inbox.live();
  channels.push(channel);
  return channel;
}

describe('client.inbox.live()', () => {
  beforeEach(async () => {
    service = await startFakeLiveService();
    channels = [];
  });
  afterEach(async () => {
    for (const channel of channels) channel.close();
    await service.close();
  });

  it('builds the channel address from the API base URL with a WebSocket scheme', () => {
    expect(liveUrl('http://a.test/api/', 't k')).toBe('ws://a.test/api/inbox/live?ticket=t+k');
    expect(liveUrl('https://a.test/', 'x')).toBe('wss://a.test/inbox/live?ticket=x');
  });

  it('asks for a ticket with the token, opens the channel, and hears the count at once', async () => {
    service.count = 7;
    const channel = await client().inbox.live();
    channels.push(channel);
    expect(await next(channel, 'count')).toBe(7);
    expect(service.requests).toEqual(['POST /inbox/live/ticket']);
    service.setCount(8);
    expect(await next(channel, 'count')).toBe(8);
  });

  it('hands on the counts by type of a count frame that carries them', async () => {
    const channel = await live();
    expect(await next(channel, 'count')).toBe(0);
    const byType = { follow: 0, mention: 2, reply: 1, like: 0, system: 0 };
    const counts = next(channel, 'countByType');
    service.send({ type: 'count', count: 3, byType });
    expect(await counts).toEqual(byType);
  });

  it('hands on notifications, and answers a ping with a pong', async () => {
    const channel = await live();
    const arriving = next(channel, 'notification');
    service.send({ type: 'notification', notification: notificationFixture(1) });
    expect(await arriving).toEqual(notificationFixture(1));
    const pong = next(channel, 'pong');
    expect(channel.ping()).toBe(true);
    await pong;
    expect(service.received[0]).toEqual(['{"type":"ping"}']);
  });

  it('reports a frame outside the contract as a typed error and stays open', async () => {
    const channel = await live();
    await next(channel, 'count');
    const errors: unknown[] = [];
    channel.on('error', (error) => errors.push(error));
    const counts: number[] = [];
    channel.on('count', (count) => counts.push(count));
    service.sendRaw('not json');
    service.send({ type: 'count', count: -1 });
    service.send({ type: 'notification', notification: { id: 'x' } });
    service.sendRaw('x'.repeat(70_000));
    service.setCount(3);
    await next(channel, 'count');
    expect(errors).toHaveLength(4);
    expect(errors.every((error) => error instanceof InvalidResponseError)).toBe(true);
    expect(counts).toEqual([3]);
    expect(channel.closed).toBe(false);
  });

  it('tells the close code and reason, as when the token is revoked', async () => {
    const channel = await live();
    const closed = next(channel, 'close');
    await service.closeAll(4401, 'revoked');
    expect(await closed).toEqual({ code: 4401, reason: 'revoked' });
    expect(channel.closed).toBe(true);
    expect(channel.ping()).toBe(false);
  });

  it('tells a lost connection as 1006', async () => {
    const channel = await live();
    const closed = next(channel, 'close');
    service.dropAll();
    expect((await closed).code).toBe(1006);
  });

  it('fails with the typed error of a refused ticket, and opens nothing', async () => {
    service.refuse = { status: 401, code: 'unauthenticated' };
    await expect(client().inbox.live()).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(service.open).toBe(0);
  });

  it('fails with a network error when the service refuses the upgrade', async () => {
    // A WebSocket that connects with another ticket than the one it was given: refused with 401.
    const Forged = class extends (service.WebSocket as unknown as new (url: string) => object) {
      constructor(url: string) {
        super(url.replace(/ticket=[^&]+/, 'ticket=forged'));
      }
    };
    await expect(client(Forged as never).inbox.live()).rejects.toBeInstanceOf(NetworkError);
    expect(service.open).toBe(0);
  });

  it('refuses to start without a WebSocket class', async () => {
    const saved = globalThis.WebSocket;
    Object.assign(globalThis, { WebSocket: undefined });
    try {
      const bare = createClient({ baseUrl: service.apiBaseUrl, token: 't', fetch: service.fetch });
      await expect(bare.inbox.live()).rejects.toBeInstanceOf(InvalidArgumentError);
      expect(service.requests).toEqual([]);
    } finally {
      Object.assign(globalThis, { WebSocket: saved });
    }
  });
});
