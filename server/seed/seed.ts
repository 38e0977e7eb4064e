/**
 * Demo data for an empty database: 28 people who follow each other, and inboxes that look lived
 * in. demo gets about 140 notifications of every type over six weeks, the newest ones unread.
 * The data is the same on every run, up to the time it is seeded at.
 */
import type { NotificationType } from '../../lib/api/contract';
import type { Database, Queryable } from '../db/database';
import { addNotifications, type NewNotification } from '../store/notifications';
import { setPasswords } from '../store/passwords';
import { issueToken } from '../store/tokens';
import { createUser, type User } from '../store/users';
import {
  DEMO_FOLLOWERS,
  DEMO_FOLLOWS,
  DEMO_PASSWORD,
  DEMO_PEOPLE,
  DEMO_USERNAME,
  MENTIONS,
  POSTS,
  postPath,
  REPLIES,
  SYSTEM_MESSAGES,
} from './demo-data';

const DAY = 24 * 60 * 60 * 1000;
const HISTORY_DAYS = 42;

/** A small deterministic random source (mulberry32), so every seeded site looks the same. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

type Rng = ReturnType<typeof random>;

/** A moment in the last six weeks, more often recent than old. */
function pastMoment(rng: Rng, now: number): string {
  const age = rng.next() ** 1.7 * HISTORY_DAYS * DAY;
  return new Date(Math.round((now - age) / 1000) * 1000).toISOString();
}

function notificationFor(
  rng: Rng,
  type: Exclude<NotificationType, 'follow'>,
  user: User,
  actor: User,
): Omit<NewNotification, 'createdAt'> {
  if (type === 'system') return { userId: user.id, type, actorId: null, path: null, text: rng.pick(SYSTEM_MESSAGES) };
  return { userId: user.id, type, actorId: actor.id, ...activity(rng.pick, type, actor, user.username) };
}

/**
 * The words and link of a notification one person's activity puts into another's inbox: a follow
 * links to the follower, the rest to the post they are about (the recipient's for a like or a
 * reply, the actor's for a mention), so every notification about one post shares its thread.
 */
export function activity(
  pick: <T>(items: readonly T[]) => T,
  type: Exclude<NotificationType, 'system'>,
  actor: { username: string; displayName: string },
  recipient: string,
): { text: string; path: string } {
  const by = actor.displayName;
  if (type === 'follow') return { text: `${by} followed you`, path: `/@${actor.username}` };
  const post = pick(POSTS.map((_, index) => index + 1));
  if (type === 'mention') {
    return {
      text: `${by} mentioned you: \u201c@${recipient} ${pick(MENTIONS)}\u201d`,
      path: postPath(actor.username, post),
    };
  }
  const path = postPath(recipient, post);
  if (type === 'reply') return { text: `${by} replied to your post: \u201c${pick(REPLIES)}\u201d`, path };
  return { text: `${by} liked your post \u201c${POSTS[post - 1]}\u201d`, path };
}

/** An inbox: a follow notification per follower, then `extra` others; the newest `unread` are unread. */
function inbox(
  rng: Rng,
  now: number,
  user: User,
  followers: readonly User[],
  everyone: readonly User[],
  extra: { mention: number; reply: number; like: number; system: number },
  unread: number,
): NewNotification[] {
  const others = everyone.filter((person) => person.id !== user.id);
  const items: NewNotification[] = followers.map((follower) => ({
    userId: user.id,
    type: 'follow',
    actorId: follower.id,
    ...activity(rng.pick, 'follow', follower, user.username),
    createdAt: pastMoment(rng, now),
  }));
  for (const [type, count] of Object.entries(extra) as [Exclude<NotificationType, 'follow'>, number][]) {
    for (let i = 0; i < count; i++) {
      items.push({ ...notificationFor(rng, type, user, rng.pick(others)), createdAt: pastMoment(rng, now) });
    }
  }
  items.sort((a, b) => (b.createdAt as string).localeCompare(a.createdAt as string));
  return items.map((item, index) => ({ ...item, read: index >= unread && rng.next() > 0.08 }));
}

/**
 * Seeds the demo data when the database has no users, in one transaction. Everyone signs in on
 * the site with `password`. The tokens it issued, one per demo user; null when the database
 * already had users.
 */
export async function seedDemoData(
  db: Database,
  now = Date.now(),
  password = DEMO_PASSWORD,
): Promise<Record<string, string> | null> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':seed'))");
    const existing = await tx.query<{ count: number }>('SELECT count(*)::int AS count FROM users');
    if ((existing.rows[0]?.count ?? 0) > 0) return null;

    const rng = random(20261121);
    const users = new Map<string, User>();
    for (const [index, person] of DEMO_PEOPLE.entries()) {
      const joined = new Date(now - (400 - index * 9) * DAY - Math.floor(rng.next() * DAY)).toISOString();
      users.set(person.username, await createUser(tx, { ...person, createdAt: joined }));
    }
    const user = (name: string) => users.get(name) as User;
    const everyone = [...users.values()];
    await setPasswords(
      tx,
      everyone.map((person) => person.id),
      password,
    );

    const follows = new Set<string>();
    const follow = (from: User, to: User) => {
      if (from.id !== to.id) follows.add(`${from.id}:${to.id}`);
    };
    for (const name of DEMO_FOLLOWS) follow(user(DEMO_USERNAME), user(name));
    for (const name of DEMO_FOLLOWERS) follow(user(name), user(DEMO_USERNAME));
    for (const person of everyone) {
      if (person.username === DEMO_USERNAME) continue;
      const count = 3 + Math.floor(rng.next() * 6);
      for (let i = 0; i < count; i++) {
        const other = rng.pick(everyone);
        if (other.username !== DEMO_USERNAME) follow(person, other);
      }
    }
    await insertFollows(tx, follows, now, rng);

    const followersOf = (target: User) => everyone.filter((person) => follows.has(`${person.id}:${target.id}`));
    const notifications: NewNotification[] = [];
    for (const person of everyone) {
      const isDemo = person.username === DEMO_USERNAME;
      const extra = isDemo
        ? { mention: 36, reply: 38, like: 42, system: 10 }
        : {
            mention: 1 + Math.floor(rng.next() * 4),
            reply: 1 + Math.floor(rng.next() * 4),
            like: 2 + Math.floor(rng.next() * 6),
            system: 1 + Math.floor(rng.next() * 2),
          };
      const unread = isDemo ? 34 : Math.floor(rng.next() * 6);
      notifications.push(...inbox(rng, now, person, followersOf(person), everyone, extra, unread));
    }
    await addNotifications(tx, notifications);

    const tokens: Record<string, string> = {};
    for (const person of everyone) tokens[person.username] = await issueToken(tx, person.id);
    return tokens;
  });
}

async function insertFollows(db: Queryable, follows: ReadonlySet<string>, now: number, rng: Rng): Promise<void> {
  const rows = [...follows].map((pair) => {
    const [follower, followee] = pair.split(':').map(Number);
    return { follower_id: follower, followee_id: followee, created_at: pastMoment(rng, now) };
  });
  await db.query(
    `INSERT INTO follows (follower_id, followee_id, created_at)
     SELECT follower_id, followee_id, created_at
     FROM jsonb_to_recordset($1::jsonb) AS x(follower_id integer, followee_id integer, created_at timestamptz)`,
    [JSON.stringify(rows)],
  );
}

/** Gives the demo people who exist this password, as `--demo-password` does for data seeded before. */
export async function setDemoPasswords(db: Queryable, password: string): Promise<void> {
  const found = await db.query<{ id: number }>('SELECT id FROM users WHERE lower(username) = ANY($1::text[])', [
    DEMO_PEOPLE.map((person) => person.username.toLowerCase()),
  ]);
  await setPasswords(
    db,
    found.rows.map((row) => row.id),
    password,
  );
}
