import type { Queryable } from '../db/database';
import { toIso } from '../db/values';

export interface User {
  id: number;
  username: string;
  displayName: string;
  bio: string;
  avatarUrl: string | null;
  createdAt: string;
}

export interface UserWithCounts extends User {
  followersCount: number;
  followingCount: number;
}

/** How the viewer relates to a user; only for a signed-in viewer. */
export interface Relation {
  following: boolean;
  followedBy: boolean;
  self: boolean;
}

export interface NewUser {
  username: string;
  displayName?: string;
  bio?: string;
  avatarUrl?: string | null;
  createdAt?: string;
}

const USER_COLUMNS = 'u.id, u.username, u.display_name, u.bio, u.avatar_url, u.created_at';

interface UserRecord {
  id: number;
  username: string;
  display_name: string;
  bio: string;
  avatar_url: string | null;
  created_at: Date;
}

const toUser = (row: UserRecord): User => ({
  id: row.id,
  username: row.username,
  displayName: row.display_name,
  bio: row.bio,
  avatarUrl: row.avatar_url,
  createdAt: toIso(row.created_at),
});

/** The user with this username, compared case-insensitively. */
export async function findUser(db: Queryable, username: string): Promise<User | null> {
  const result = await db.query<UserRecord>(`SELECT ${USER_COLUMNS} FROM users u WHERE lower(u.username) = lower($1)`, [
    username,
  ]);
  return result.rows[0] ? toUser(result.rows[0]) : null;
}

export async function findUserWithCounts(db: Queryable, username: string): Promise<UserWithCounts | null> {
  const result = await db.query<UserRecord & { followers: number; following: number }>(
    `SELECT ${USER_COLUMNS},
       (SELECT count(*)::int FROM follows WHERE followee_id = u.id) AS followers,
       (SELECT count(*)::int FROM follows WHERE follower_id = u.id) AS following
     FROM users u WHERE lower(u.username) = lower($1)`,
    [username],
  );
  const row = result.rows[0];
  return row ? { ...toUser(row), followersCount: row.followers, followingCount: row.following } : null;
}

export async function relation(db: Queryable, viewerId: number, userId: number): Promise<Relation> {
  const result = await db.query<{ following: boolean; followed_by: boolean }>(
    `SELECT
       EXISTS (SELECT 1 FROM follows WHERE follower_id = $1 AND followee_id = $2) AS following,
       EXISTS (SELECT 1 FROM follows WHERE follower_id = $2 AND followee_id = $1) AS followed_by`,
    [viewerId, userId],
  );
  const row = result.rows[0];
  return { following: row?.following === true, followedBy: row?.followed_by === true, self: viewerId === userId };
}

export async function createUser(db: Queryable, user: NewUser): Promise<User> {
  const result = await db.query<UserRecord>(
    `INSERT INTO users AS u (username, display_name, bio, avatar_url, created_at)
     VALUES ($1, $2, $3, $4, coalesce($5::timestamptz, now()))
     RETURNING ${USER_COLUMNS}`,
    [user.username, user.displayName ?? user.username, user.bio ?? '', user.avatarUrl ?? null, user.createdAt ?? null],
  );
  return toUser(result.rows[0] as UserRecord);
}

/** Users in username order, at most `limit`. */
export async function listUsers(db: Queryable, limit: number): Promise<User[]> {
  const result = await db.query<UserRecord>(`SELECT ${USER_COLUMNS} FROM users u ORDER BY lower(u.username) LIMIT $1`, [
    limit,
  ]);
  return result.rows.map(toUser);
}

/** The users this user follows, most recent first, at most `limit`. */
export async function listFollowing(db: Queryable, userId: number, limit: number): Promise<User[]> {
  const result = await db.query<UserRecord>(
    `SELECT ${USER_COLUMNS} FROM follows f JOIN users u ON u.id = f.followee_id
     WHERE f.follower_id = $1 ORDER BY f.created_at DESC, u.id LIMIT $2`,
    [userId, limit],
  );
  return result.rows.map(toUser);
}

/** Starts following; false when the follow already existed. */
export async function addFollow(db: Queryable, followerId: number, followeeId: number): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO follows (follower_id, followee_id) VALUES ($1, $2)
     ON CONFLICT DO NOTHING RETURNING follower_id`,
    [followerId, followeeId],
  );
  return result.rows.length === 1;
}

/** Stops following; false when there was no follow. */
export async function removeFollow(db: Queryable, followerId: number, followeeId: number): Promise<boolean> {
  const result = await db.query(
    'DELETE FROM follows WHERE follower_id = $1 AND followee_id = $2 RETURNING follower_id',
    [followerId, followeeId],
  );
  return result.rows.length === 1;
}
