import type { Notification } from '../../lib/api/contract';
import { avatarUrlOf } from '../site/avatar';
import type { StoredNotification } from '../store/notifications';
import { kept } from './kept';

/**
 * A stored notification as the contract shows it: a path on the service's site becomes a URL there,
 * and the actor's picture is theirs or the one the site draws of them.
 */
export function toWireNotification(n: StoredNotification, origin: string): Notification {
  return {
    id: n.id,
    read: n.read,
    type: n.type,
    createdAt: n.createdAt,
    actor: n.actor && { ...n.actor, avatarUrl: avatarUrlOf(n.actor, origin) },
    text: n.text,
    url: n.path === null ? null : n.path.startsWith('/') ? `${origin}${n.path}` : n.path,
    snoozedUntil: n.snoozedUntil,
    sortedAt: n.sortedAt,
  };
}

/**
 * The `avatarUrl` of an actor whose picture the site draws, as the database writes a page
 * (`WirePage`): a U+0001, the username, a U+0001 and the display name, JSON-escaped. Only a key
 * can be followed by `":"` unescaped, so nothing a notification says can look like one.
 */
const DRAWN_AVATAR = /"avatarUrl":"\\u0001((?:[^"\\]|\\.)*)"/g;

/**
 * Addresses of drawn pictures, kept by origin and marker (separated by a U+0001, which no origin
 * holds): each is a digest of the picture.
 */
const drawnAvatarAt = kept((key) => {
  const origin = key.slice(0, key.indexOf('\u0001'));
  const marker = key.slice(origin.length + 1);
  const split = marker.indexOf('\u0001');
  return avatarUrlOf({ username: marker.slice(0, split), displayName: marker.slice(split + 1) }, origin);
});

/** A page's JSON as the database wrote it, with the address of each picture the site draws in place. */
export function withDrawnAvatars(data: string, origin: string): string {
  return data.replace(DRAWN_AVATAR, (_, escaped: string) => {
    const marker = JSON.parse(`"${escaped}"`) as string;
    return `"avatarUrl":${JSON.stringify(drawnAvatarAt(`${origin}\u0001${marker}`))}`;
  });
}
