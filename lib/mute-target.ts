/** What a mute holds back, as the service decides it: the actor's notifications, or a link's. */
import type { Mute, Notification } from './api/contract';
import type { MuteRequest } from './messaging';

export type MuteTarget = MuteRequest['target'];

/** The notification is one the target's mute holds back. */
export function mutedBy(item: Notification, target: MuteTarget): boolean {
  if ('actor' in target) return item.actor?.username.toLowerCase() === target.actor.toLowerCase();
  return item.url === target.url;
}

/** The mute is the target's: a mute names a person or a link, never both. */
export function isMuteOf(mute: Mute, target: MuteTarget): boolean {
  if ('actor' in target) return mute.actor?.toLowerCase() === target.actor.toLowerCase();
  return mute.url === target.url;
}
