import type { Notification } from '../../lib/api/contract';
import { avatarUrlOf } from '../site/avatar';
import type { StoredNotification } from '../store/notifications';

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
