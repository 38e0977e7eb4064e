import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_TYPES, type Notification } from '../../lib/api';
import { demoActivityOnce, startDemoActivity } from '../../server/seed/demo-activity';
import { BACKENDS, startTestService, type TestService } from '../support/service';
import { openLive } from './support/live';
import { authorizationCode, exchangeCode } from './support/oauth';

const DAY = 24 * 60 * 60 * 1000;

/** A post of `username` on the demo site, as a pattern of its URL. */
const postOf = (username: string) => new RegExp(`^http://127\\.0\\.0\\.1:\\d+/@${username}/posts/\\d+$`);

describe.each(BACKENDS)('demo data on %s', (backend) => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ backend, seed: true });
  });
  afterAll(() => service?.close());

  it('has demo, alice, bob, carol, dave and at least 20 more users, each with a working token', async () => {
    const tokens = service.server.demoTokens ?? {};
    const names = Object.keys(tokens);
    expect(names).toEqual(expect.arrayContaining(['demo', 'alice', 'bob', 'carol', 'dave']));
    expect(names.length).toBeGreaterThanOrEqual(25);
    for (const name of names) {
      const client = service.client(tokens[name]);
      expect(await client.inbox.count(), name).toBeGreaterThanOrEqual(0);
      expect((await client.user(name)).self).toBe(true);
    }
  });

  it('lets every seeded user sign in on the site with the password demo', async () => {
    for (const username of ['demo', 'mallory']) {
      const { code, pkce } = await authorizationCode(service, { username, password: 'demo' });
      expect((await exchangeCode(service, { code, codeVerifier: pkce.verifier })).status, username).toBe(200);
    }
    const hashes = await service.server.database.query<{ password_hash: string }>(
      'SELECT password_hash FROM users WHERE password_hash IS NOT NULL',
    );
    expect(hashes.rows).toHaveLength(Object.keys(service.server.demoTokens ?? {}).length);
    expect(hashes.rows.every((row) => row.password_hash.startsWith('scrypt$'))).toBe(true);
  });

  it('gives demo an inbox that looks real: 120+ notifications of every type over weeks, 30+ unread', async () => {
    const demo = service.client(await service.tokenFor('demo'));
    const all: Notification[] = [];
    for await (const notification of demo.inbox.items({ limit: 100 })) all.push(notification);
    expect(all.length).toBeGreaterThanOrEqual(120);
    for (const type of NOTIFICATION_TYPES) {
      expect(all.filter((n) => n.type === type).length, type).toBeGreaterThanOrEqual(5);
    }
    expect(await demo.inbox.count()).toBeGreaterThanOrEqual(30);
    const actors = new Set(all.map((n) => n.actor?.username).filter(Boolean));
    expect(actors.size).toBeGreaterThanOrEqual(15);
    const times = all.map((n) => Date.parse(n.createdAt));
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(21 * DAY);
    expect(new Set(all.map((n) => n.text)).size).toBeGreaterThan(60);
    for (const n of all) {
      if (n.type === 'system') expect(n).toMatchObject({ actor: null, url: null });
      else if (n.type === 'follow') expect(n.url).toBe(`${service.origin}/@${n.actor?.username}`);
      else if (n.type === 'mention') expect(n.url).toMatch(postOf(n.actor?.username as string));
      else expect(n.url).toMatch(postOf('demo'));
    }
    // Replies and likes gather on demo's posts: a thread is a thing one can mute.
    const threads = new Map<string, number>();
    for (const n of all) {
      if (n.type === 'like' || n.type === 'reply')
        threads.set(n.url as string, (threads.get(n.url as string) ?? 0) + 1);
    }
    expect(Math.max(...threads.values())).toBeGreaterThanOrEqual(4);
    for (const url of [...threads.keys()].slice(0, 3)) {
      const page = await fetch(url);
      expect(page.status, url).toBe(200);
      expect(await page.text()).toContain('id="post"');
    }
    const latest = all.slice(0, 10);
    expect(latest.every((n) => !n.read)).toBe(true);
  });

  it('has demo follow some users and be followed by others, with a follow notification from each follower', async () => {
    const demo = service.client(await service.tokenFor('demo'));
    const profile = await demo.user('demo');
    expect(profile.followingCount).toBeGreaterThanOrEqual(5);
    expect(profile.followersCount).toBeGreaterThanOrEqual(5);
    expect((await demo.user('alice')).following).toBe(true);
    const follows: Notification[] = [];
    for await (const n of demo.inbox.items({ limit: 100 })) if (n.type === 'follow') follows.push(n);
    expect(follows).toHaveLength(profile.followersCount);
    for (const n of follows.slice(0, 5)) {
      expect((await demo.user(n.actor?.username as string)).followedBy).toBe(true);
    }
  });

  it('answers the posts notifications link to, and 404 for posts that are not there', async () => {
    expect((await fetch(`${service.origin}/@alice/posts/1`)).status).toBe(200);
    for (const path of ['/@alice/posts/999', '/@alice/posts/0', '/@nobody_here/posts/1', '/@alice/posts/x']) {
      expect((await fetch(`${service.origin}${path}`)).status, path).toBe(404);
    }
  });

  it('answers the public profile pages of the demo users', async () => {
    for (const name of ['demo', 'alice', 'bob', 'carol', 'dave']) {
      const response = await fetch(`${service.origin}/@${name}`);
      expect(response.status, name).toBe(200);
    }
  });
});

describe.each(BACKENDS)('demo activity on %s', (backend) => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ backend });
    for (const username of ['demo', 'alice', 'bob']) {
      await service.server.admin.createUser({ username, displayName: username.toUpperCase() });
    }
  });
  afterAll(() => service?.close());

  it('has seeded people mention, reply to, like and follow demo, and demo’s live channel hears it', async () => {
    const channel = await openLive(service, await service.tokenFor('demo'));
    await channel.countOf(0);
    const activity = startDemoActivity(service.server.database, 0.02);
    try {
      const { notification } = await channel.next('notification');
      expect(['mention', 'reply', 'like', 'follow']).toContain(notification.type);
      expect(['alice', 'bob']).toContain(notification.actor?.username);
      const about = notification.type === 'mention' ? (notification.actor?.username as string) : 'demo';
      expect(notification.url).toMatch(
        notification.type === 'follow' ? `${service.origin}/@${notification.actor?.username}` : postOf(about),
      );
      expect(notification.text).toContain(notification.actor?.displayName);
      await channel.next('count');
    } finally {
      activity.stop();
      channel.close();
    }
  });

  it('makes a follow a real follow, once per person', async () => {
    for (let i = 0; i < 30; i++) await demoActivityOnce(service.server.database);
    const demo = await service.client(await service.tokenFor('demo')).user('demo');
    const follows = [];
    for await (const n of service.client(await service.tokenFor('demo')).inbox.items({ limit: 100 })) {
      if (n.type === 'follow') follows.push(n.actor?.username);
    }
    expect(demo.followersCount).toBe(new Set(follows).size);
    expect(follows.length).toBe(new Set(follows).size);
  });

  it('does nothing where there is no demo user', async () => {
    const empty = await startTestService({ backend });
    try {
      expect(await demoActivityOnce(empty.server.database)).toBe(false);
    } finally {
      await empty.close();
    }
  });
});
