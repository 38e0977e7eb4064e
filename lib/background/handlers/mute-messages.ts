/** Mutes and the strangers policy, for the popup and the options page. */
import { type CoreClient, MuteNotFoundError } from '../../api';
import type { Mute } from '../../api/contract';
import { clearInboxCache, updateCachedPages } from '../../inbox-cache';
import { type MuteTarget, mutedBy } from '../../mute-target';
import type { AccountRuntime } from '../account-runtime';
import type { Handlers } from '../message-gate';
import { muteIdOf, removeMute, whenSent } from '../outbox';
import { learnFrom } from '../priority';
import { createFeatureCache, type FeatureCache } from '../service-features';
import { type HandlerContext, signedIn } from './context';
import { createKnownMutes, waitingMute, withWaiting } from './known-mutes';

export type MuteMessage = 'inbox.features' | 'inbox.mutes' | 'inbox.mute' | 'inbox.unmute' | 'inbox.setPolicy';

/** One cache for the whole background: the profile buttons ask it too. */
export const features: FeatureCache = createFeatureCache();

/** What this worker knows of each account's mutes, kept true by every mute made or removed here. */
export const knownMutes = createKnownMutes();

/**
 * A mute or unmute that waited is sent: the worker knows the mute by the service's id from now
 * on (or reads the mutes again, when the service made it without saying its id), or knows it
 * gone, and the popup's cache, which cannot place what comes back, is dropped.
 */
whenSent((account, { kind, mute }, answer) => {
  if (kind === 'mute' || kind === 'muteThread') {
    if (answer) knownMutes.added(account, answer as Mute);
    else knownMutes.forget(account);
  } else if (mute) {
    knownMutes.removed(account, mute);
    void clearInboxCache(account);
  }
});

/**
 * Mutes `target` with one key for the change's life, kept in the outbox when the service cannot
 * take it now, as a follow is: then the mute is shown as made, its id its change's key.
 */
export async function muteThrough(
  runtime: AccountRuntime,
  client: CoreClient,
  target: MuteTarget,
  until: string | null,
) {
  const username = 'actor' in target ? target.actor : undefined;
  const change = { kind: username === undefined ? 'muteThread' : 'mute', target, username } as const;
  const { key, answer } = await runtime.outbox.attempt({ ...change, until: until ?? undefined }, (idempotencyKey) =>
    client.inbox.mutes.add(target, until, { idempotencyKey }),
  );
  if (answer) knownMutes.added(runtime.id, answer);
  void learnFrom(runtime.id, 'mute', [{ actor: username ?? null, url: 'url' in target ? target.url : null }]);
  const waiting = { ...change, key, madeAt: Date.now(), until: until ?? undefined };
  return { mute: answer ?? waitingMute(waiting, target), waiting: answer === null };
}

/**
 * Removes the mute `id` (or the one a waiting mute's key becomes) as `muteThrough` mutes: kept
 * behind that mute while it waits; a mute already gone is as the change wants. Whether it waits.
 */
export async function unmuteThrough(runtime: AccountRuntime, client: CoreClient, id: string, username?: string) {
  const change = { kind: username === undefined ? 'removeMute' : 'unmute', username, mute: id } as const;
  const { answer } = await runtime.outbox.attempt(change, (idempotencyKey) =>
    removeMute(client, id, { idempotencyKey }).then(
      () => true,
      (error: unknown) => {
        // Removed meanwhile elsewhere: nothing is muted, as wanted.
        if (error instanceof MuteNotFoundError) return true;
        throw error;
      },
    ),
  );
  knownMutes.removed(runtime.id, muteIdOf(id));
  return answer === null;
}

/** The account's mute of `username`: null when none, undefined when signed out or the service has none. */
export async function muteOf(runtime: AccountRuntime, username: string) {
  const token = await runtime.session.token();
  if (!token) return undefined;
  const { client } = await runtime.session.client();
  return knownMutes.of(runtime.id, client, token, () => features.of(runtime.id, client, token), username);
}

/** The account signed in, with what its service can do. */
export async function withFeatures({ runtimes }: HandlerContext, account: string) {
  const { runtime, client } = await signedIn(runtimes, account);
  const token = (await runtime.session.token()) ?? '';
  return { runtime, client, features: await features.of(account, client, token) };
}

export function muteHandlers(ctx: HandlerContext): Pick<Handlers, MuteMessage> {
  /** The service moves the count as the mute changes; the badge follows with one check. */
  async function countAfter(runtime: { poller: { poll(): Promise<{ kind: string; count: number | null }> } }) {
    const status = await runtime.poller.poll();
    return status.kind === 'ok' ? status.count : null;
  }

  return {
    async 'inbox.features'({ account }) {
      return (await withFeatures(ctx, account)).features;
    },
    async 'inbox.mutes'({ account }) {
      const { runtime, client, features } = await withFeatures(ctx, account);
      // As they will be once what waits is sent.
      return features.mutes ? withWaiting(await client.inbox.mutes.list(), await runtime.outbox.entries()) : [];
    },
    async 'inbox.mute'({ account, target, until }) {
      const { runtime, client } = await signedIn(ctx.runtimes, account);
      const { mute, waiting } = await muteThrough(runtime, client, target, until);
      await updateCachedPages(account, (page) => ({
        ...page,
        data: page.data.filter((item) => !mutedBy(item, target)),
      }));
      if (waiting) return { mute, unreadCount: null, waiting };
      return { mute, unreadCount: await countAfter(runtime) };
    },
    async 'inbox.unmute'({ account, id, username }) {
      const { runtime, client } = await signedIn(ctx.runtimes, account);
      if (await unmuteThrough(runtime, client, id, username)) return { unreadCount: null, waiting: true };
      // What comes back belongs somewhere in pages the cache cannot place: the next popup asks the service.
      await clearInboxCache(account);
      return { unreadCount: await countAfter(runtime) };
    },
    async 'inbox.setPolicy'({ account, strangers }) {
      const { runtime, client } = await signedIn(ctx.runtimes, account);
      const policy = await client.inbox.setPolicy({ strangers });
      features.forget(account);
      await clearInboxCache(account);
      await countAfter(runtime);
      return policy;
    },
  };
}
