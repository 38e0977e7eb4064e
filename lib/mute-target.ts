/** What a mute holds back, as the service decides it: the actor's notifications, or a link's. */
import type { Notification } from './api/contract';
import type { MuteRequest } from './messaging';

export type MuteTarget = MuteRequest['target'];

/** The notification is one the target's mute holds back. */
export function mutedBy(item: Notification, target: MuteTarget): boolean {
  if ('actor' in target) return item.actor?.username.toLowerCase() === target.actor.toLowerCase();
  return item.url === target.url;
}
