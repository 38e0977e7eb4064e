/**
 * What the operator (and the tests) can do beside the API: make users, issue and revoke tokens,
 * put notifications into an inbox. Nothing here is reachable over HTTP.
 */
import type { NotificationType } from '../lib/api/contract';
import type { Database } from './db/database';
import { purgeExpiredKeys } from './store/idempotency-keys';
import { addNotifications, fillInboxes } from './store/notifications';
import { issueOperatorToken } from './store/operator-tokens';
import { setPassword } from './store/passwords';
import { issueToken, revokeToken } from './store/tokens';
import { purgeExpiredOperations } from './store/triage-operations';
import { createUser, findUser, type NewUser, type User } from './store/users';

export interface NotificationInput {
  type: NotificationType;
  text: string;
  /** The username of whoever caused it; none for `system` notifications. */
  actor?: string | null;
  /** A path on the service's site the notification links to; by default the actor's page. */
  path?: string | null;
  read?: boolean;
  /** ISO 8601; now by default. */
  createdAt?: string;
}

export interface ServiceAdmin {
  createUser(user: NewUser): Promise<User>;
  findUser(username: string): Promise<User | null>;
  /** A new token for an existing user; throws when there is no such user. */
  issueToken(username: string): Promise<string>;
  /** Revokes a token; false when it was unknown or already revoked. */
  revokeToken(token: string): Promise<boolean>;
  /** Sets the password a user signs in with on the site (the OAuth authorize page). */
  setPassword(username: string, password: string): Promise<void>;
  /** A new operator token, for the operator API. */
  issueOperatorToken(): Promise<string>;
  /** Puts notifications into a user's inbox in one statement; their ids, in the order given. */
  addNotifications(username: string, notifications: readonly NotificationInput[]): Promise<string[]>;
  /** Puts `count` generated notifications into a user's inbox in one statement, one second apart. */
  fillInbox(username: string, count: number, options?: { read?: boolean; newest?: string }): Promise<number>;
  /** `fillInbox` for each of these users, all in one statement: what a load test seeds with. */
  fillInboxes(
    usernames: readonly string[],
    count: number,
    options?: { read?: boolean; newest?: string },
  ): Promise<number>;
  /**
   * Forgets the triage operations whose undo window has passed and removes for good the
   * notifications they deleted, and the idempotency keys past their 24 hours; the number of
   * notifications removed. The service does this every few seconds.
   */
  purgeExpired(): Promise<number>;
}

/** `now` is the service's clock, in milliseconds since the epoch. */
export function createAdmin(db: Database, now: () => number = Date.now): ServiceAdmin {
  async function existing(username: string): Promise<User> {
    const user = await findUser(db, username);
    if (!user) throw new Error(`There is no user called "${username}".`);
    return user;
  }

  return {
    createUser: (user) => createUser(db, user),
    findUser: (username) => findUser(db, username),
    async issueToken(username) {
      return issueToken(db, (await existing(username)).id);
    },
    revokeToken: (token) => revokeToken(db, token),
    async setPassword(username, password) {
      await setPassword(db, (await existing(username)).id, password);
    },
    issueOperatorToken: () => issueOperatorToken(db),
    async addNotifications(username, notifications) {
      const user = await existing(username);
      const actors = new Map<string, User>();
      for (const name of new Set(notifications.map((n) => n.actor).filter((a): a is string => !!a))) {
        actors.set(name, await existing(name));
      }
      return addNotifications(
        db,
        notifications.map((n) => {
          const actor = n.actor ? actors.get(n.actor) : undefined;
          return {
            userId: user.id,
            type: n.type,
            actorId: actor?.id ?? null,
            text: n.text,
            path: n.path !== undefined ? n.path : actor ? `/@${actor.username}` : null,
            read: n.read,
            createdAt: n.createdAt,
          };
        }),
      );
    },
    async fillInbox(username, count, options) {
      return fillInboxes(db, [(await existing(username)).id], count, options);
    },
    async fillInboxes(usernames, count, options) {
      const ids: number[] = [];
      for (const username of usernames) ids.push((await existing(username)).id);
      return fillInboxes(db, ids, count, options);
    },
    async purgeExpired() {
      await purgeExpiredKeys(db, new Date(now()));
      return purgeExpiredOperations(db, new Date(now()));
    },
  };
}
