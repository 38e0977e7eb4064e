import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { type LiveServerFrame, LiveServerFrameSchema } from '../../lib/api/contract';
import { type LiveEvent, parseEvent } from '../../server/live/events';
import { createLiveHub, type LiveHub } from '../../server/live/hub';
import { parseSnapshot, sawTransaction } from '../../server/live/snapshot';
import { type LiveTicketOwner, redeemLiveTicket } from '../../server/store/live-tickets';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../support/service';
import { newTicket } from './support/live';

/**
 * A hub of the test's own on the service's database, fed events by the test: what reaches a
 * channel when the database's news of an arrival comes late, after the channel has opened.
 */
describe.each(BACKENDS)('the live hub on %s', (backend) => {
  let service: TestService;
  let hub: LiveHub;
  let sockets: WebSocketServer;

  beforeAll(async () => {
    service = await startTestService({ backend });
    hub = createLiveHub({ db: service.server.database, origin: () => service.origin });
    sockets = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve) => sockets.once('listening', resolve));
  });
  afterAll(async () => {
    await hub?.closeAll();
    await new Promise((resolve) => sockets?.close(resolve));
    await service?.close();
  });

  /** A transaction that commits now: its id, as the triggers name it. */
  const transaction = async () =>
    BigInt(
      (await service.server.database.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0]
        ?.xid as string,
    );

  const owner = async (user: TestUser) =>
    (await redeemLiveTicket(service.server.database, await newTicket(service, user.token))) as LiveTicketOwner;

  /** Opens a channel on the hub for `owner`, and `feed` it events at once, before its first count is read. */
  async function openChannel(of: LiveTicketOwner, feed: () => void = () => {}) {
    const frames: LiveServerFrame[] = [];
    const waiting: (() => void)[] = [];
    const { port } = sockets.address() as AddressInfo;
    const accepted = new Promise<WebSocket>((resolve) => sockets.once('connection', resolve));
    const client = new WebSocket(`ws://127.0.0.1:${port}`);
    client.on('message', (data) => {
      frames.push(v.parse(LiveServerFrameSchema, JSON.parse(String(data))));
      for (const wake of waiting.splice(0)) wake();
    });
    await new Promise((resolve) => client.once('open', resolve));
    hub.open(await accepted, of);
    feed();
    return {
      frames,
      /** Waits until `count` frames have come. */
      async framesUpTo(count: number) {
        while (frames.length < count) await new Promise<void>((resolve) => waiting.push(resolve));
        return frames;
      },
      close: () => client.close(),
    };
  }

  const arrival = (of: LiveTicketOwner, id: string, xid: bigint | null): LiveEvent => ({
    kind: 'notification',
    user: of.userId,
    id,
    xid,
  });

  const count = (of: LiveTicketOwner, unread: number, xid: bigint | null): LiveEvent => ({
    kind: 'count',
    user: of.userId,
    count: unread,
    byType: { follow: 0, mention: unread, reply: 0, like: 0, system: 0 },
    xid,
  });

  const mention = (user: TestUser, text: string) => service.deliver({ username: user.username, type: 'mention', text });

  it('leaves out an arrival its first count held, though the news of it comes after the channel opened', async () => {
    const user = await service.newUser('held');
    const of = await owner(user);
    const counted = await mention(user, 'counted');
    const before = await transaction();
    const channel = await openChannel(of);
    expect((await channel.framesUpTo(1))[0]).toMatchObject({ type: 'count', count: 1 });

    hub.onEvent(arrival(of, counted.id, before));
    const later = await mention(user, 'later');
    hub.onEvent(arrival(of, later.id, await transaction()));
    expect((await channel.framesUpTo(2))[1]).toEqual({ type: 'notification', notification: later });
    // An event naming no transaction (a trigger older than the service) is sent as it always was.
    hub.onEvent(arrival(of, counted.id, null));
    expect((await channel.framesUpTo(3))[2]).toEqual({ type: 'notification', notification: counted });
    expect(channel.frames).toHaveLength(3);
    channel.close();
  });

  it('holds arrivals heard before its first count is read, then sends only those the count did not hold', async () => {
    const user = await service.newUser('early');
    const of = await owner(user);
    const counted = await mention(user, 'counted');
    const unseen = await mention(user, 'unseen');
    const before = await transaction();
    // No transaction has this id yet: none the first count can have seen.
    const after = before + 1_000_000_000n;
    const channel = await openChannel(of, () => {
      hub.onEvent(arrival(of, counted.id, before));
      hub.onEvent(arrival(of, unseen.id, after));
    });

    expect(await channel.framesUpTo(2)).toEqual([
      expect.objectContaining({ type: 'count', count: 2 }),
      { type: 'notification', notification: unseen },
    ]);
    hub.onEvent(arrival(of, counted.id, null));
    expect((await channel.framesUpTo(3))[2]).toEqual({ type: 'notification', notification: counted });
    expect(channel.frames).toHaveLength(3);
    channel.close();
  });

  it('sends no count its first count was already newer than, and every later one', async () => {
    const user = await service.newUser('recount');
    const of = await owner(user);
    await mention(user, 'one');
    await mention(user, 'two');
    const before = await transaction();
    const channel = await openChannel(of);
    expect((await channel.framesUpTo(1))[0]).toMatchObject({ type: 'count', count: 2 });

    // The news of the first mention's count, late: one, where the channel already said two.
    hub.onEvent(count(of, 1, before));
    hub.onEvent(count(of, 3, before + 1_000_000_000n));
    expect((await channel.framesUpTo(2))[1]).toMatchObject({ type: 'count', count: 3 });
    expect(channel.frames).toHaveLength(2);
    channel.close();
  });

  it('follows its first count with a newer one heard while it was being read, and with no older one', async () => {
    const user = await service.newUser('early2');
    const of = await owner(user);
    await mention(user, 'one');
    const before = await transaction();
    const stale = await openChannel(of, () => hub.onEvent(count(of, 0, before)));
    expect((await stale.framesUpTo(1))[0]).toMatchObject({ type: 'count', count: 1 });
    const fresh = await openChannel(of, () => hub.onEvent(count(of, 4, before + 1_000_000_000n)));
    expect(await fresh.framesUpTo(2)).toEqual([
      expect.objectContaining({ type: 'count', count: 1 }),
      expect.objectContaining({ type: 'count', count: 4 }),
    ]);
    // The older channel hears the newer count too, once the user's counts may go out again.
    expect((await stale.framesUpTo(2))[1]).toMatchObject({ type: 'count', count: 4 });
    expect(stale.frames).toHaveLength(2);
    stale.close();
    fresh.close();
  });

  it('hears from the database which transaction an arrival and its count committed in: one later reads see, earlier ones do not', async () => {
    const db = service.server.database;
    const user = await service.newUser('xid');
    const channelName = (await db.query<{ name: string }>('SELECT live_channel(current_schema()) AS name')).rows[0]
      ?.name as string;
    const events: LiveEvent[] = [];
    let heard: () => void = () => {};
    const unlisten = await db.listen(
      channelName,
      (payload) => {
        const event = parseEvent(payload);
        if (event?.kind === 'notification' || event?.kind === 'count') {
          events.push(event);
          if (events.length === 2) heard();
        }
      },
      () => {},
    );
    const snapshot = async () =>
      parseSnapshot(
        (await db.query<{ snapshot: string }>('SELECT pg_current_snapshot()::text AS snapshot')).rows[0]
          ?.snapshot as string,
      );
    try {
      const earlier = await snapshot();
      const arrived = new Promise<void>((resolve) => {
        heard = resolve;
      });
      const delivered = await mention(user, 'named');
      await arrived;
      const later = await snapshot();

      const event = events.find((each) => each.kind === 'notification');
      expect(event).toMatchObject({ kind: 'notification', id: delivered.id, xid: expect.any(BigInt) });
      const xid = (event as Extract<LiveEvent, { kind: 'notification' }>).xid as bigint;
      // The count the arrival moved names the same transaction.
      expect(events.find((each) => each.kind === 'count')).toMatchObject({ kind: 'count', count: 1, xid });
      expect(earlier && sawTransaction(earlier, xid)).toBe(false);
      expect(later && sawTransaction(later, xid)).toBe(true);
    } finally {
      await unlisten();
    }
  });
});
