/**
 * What keeps one client from taking an instance's live channels, and the channels from taking its
 * connections: a user has at most `maxChannelsPerUser` channels open and takes at most
 * `ticketsPerMinute` tickets, both counted by this instance in memory (the channels are its own
 * sockets, so the count cannot be anywhere else); and all channels together hold at most
 * `CHANNEL_SHARE_OF_CONNECTIONS` of the instance's connections, so requests always find one free.
 */
import { LIMITS } from '../../lib/api/contract';
import { ProblemError } from '../api/problem';

export interface LiveLimits {
  /** Live channels one user may have open on this instance at once. */
  maxChannelsPerUser: number;
  /** Live tickets one user may take from this instance in a minute. */
  ticketsPerMinute: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = {
  maxChannelsPerUser: LIMITS.liveChannelsPerUser,
  ticketsPerMinute: LIMITS.liveTicketsPerMinute,
};

/** Of the instance's connections, the share live channels may hold; the rest stays for requests. */
export const CHANNEL_SHARE_OF_CONNECTIONS = 0.8;
/** A user's channels close when their browsers go, which is not soon for one that holds them all. */
const USER_FULL_RETRY_SECONDS = 60;
const INSTANCE_FULL_RETRY_SECONDS = 30;
const TICKET_WINDOW_MS = 60_000;

export interface LiveLimiterOptions {
  limits: LiveLimits;
  /** The instance's connection cap (`maxConnections`). */
  maxConnections: number;
  /** The channels open on this instance: the hub. */
  channels: { readonly channels: number; channelsOf(userId: number): number };
  now: () => number;
}

export type LiveLimiter = ReturnType<typeof createLiveLimiter>;

export function createLiveLimiter(options: LiveLimiterOptions) {
  const { limits, channels, now } = options;
  const maxChannels = Math.floor(options.maxConnections * CHANNEL_SHARE_OF_CONNECTIONS);
  /** When each user's tickets of the last minute were issued, oldest first. */
  const issued = new Map<number, number[]>();
  let sweptAt = now();

  function userFull(userId: number): ProblemError | null {
    const most = limits.maxChannelsPerUser;
    if (channels.channelsOf(userId) < most) return null;
    const allowed = most === 1 ? 'One live channel' : `At most ${most} live channels`;
    return new ProblemError(
      429,
      'too_many_channels',
      `${allowed} of one user may be open at once; close one, or try again in ${USER_FULL_RETRY_SECONDS} seconds.`,
      { 'retry-after': String(USER_FULL_RETRY_SECONDS) },
    );
  }

  function instanceFull(): ProblemError | null {
    if (channels.channels < maxChannels) return null;
    return new ProblemError(
      503,
      'service_unavailable',
      `The service holds all the live channels it can; the unread count still answers. Try again in ${INSTANCE_FULL_RETRY_SECONDS} seconds.`,
      { 'retry-after': String(INSTANCE_FULL_RETRY_SECONDS) },
    );
  }

  /** Forgets, once a minute, the users whose tickets have all left the window. */
  function sweep(at: number) {
    if (at - sweptAt < TICKET_WINDOW_MS) return;
    sweptAt = at;
    for (const [userId, times] of issued) {
      if ((times.at(-1) ?? 0) <= at - TICKET_WINDOW_MS) issued.delete(userId);
    }
  }

  function ticketsUsedUp(userId: number): ProblemError | null {
    const at = now();
    sweep(at);
    const recent = (issued.get(userId) ?? []).filter((time) => time > at - TICKET_WINDOW_MS);
    issued.set(userId, recent);
    if (recent.length < limits.ticketsPerMinute) {
      recent.push(at);
      return null;
    }
    const retryAfter = Math.max(1, Math.ceil(((recent[0] ?? at) + TICKET_WINDOW_MS - at) / 1000));
    return new ProblemError(
      429,
      'rate_limited',
      `At most ${limits.ticketsPerMinute} live tickets a minute; try again in ${retryAfter} seconds.`,
      { 'retry-after': String(retryAfter) },
    );
  }

  return {
    /**
     * Why the user may not take a ticket now, or null: then the ticket is counted. The channels
     * are counted here as a courtesy, so that a client waits before it asks again; the upgrade
     * decides, since another instance on the same database may take the ticket.
     */
    refuseTicket(userId: number): ProblemError | null {
      return userFull(userId) ?? instanceFull() ?? ticketsUsedUp(userId);
    },
    /** Why a channel may not open now, for this user when known, or null. */
    refuseChannel(userId?: number): ProblemError | null {
      return instanceFull() ?? (userId === undefined ? null : userFull(userId));
    },
  };
}
