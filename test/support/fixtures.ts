/** Contract-shaped data for tests: a notification or profile with plausible values, changed where a test needs. */
import type { Notification, Profile } from '../../lib/api';

/** The n-th of a series of distinct notification ids. */
export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Notification n: unread, by user n; a higher n is newer (within the hour). */
export function notificationFixture(n: number, change: Partial<Notification> = {}): Notification {
  const createdAt = `2026-11-21T09:${String(n % 60).padStart(2, '0')}:00.000Z`;
  return {
    id: uuid(n),
    read: false,
    type: 'reply',
    createdAt,
    actor: { username: `user${n}`, displayName: `User ${n}` },
    text: `User ${n} replied`,
    url: `http://127.0.0.1:8787/@user${n}`,
    snoozedUntil: null,
    sortedAt: change.createdAt ?? createdAt,
    ...change,
  };
}

/** Bob's profile as a signed-in stranger sees it. */
export function profileFixture(change: Partial<Profile> = {}): Profile {
  return {
    username: 'bob',
    displayName: 'Bob',
    bio: 'hi',
    avatarUrl: null,
    followersCount: 12,
    followingCount: 3,
    createdAt: '2026-01-02T03:04:05.000Z',
    following: false,
    followedBy: true,
    self: false,
    ...change,
  };
}
