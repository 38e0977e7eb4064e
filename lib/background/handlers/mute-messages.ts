/** Mutes and the strangers policy, for the popup and the options page. */
import { clearInboxCache, updateCachedPages } from '../../inbox-cache';
import { mutedBy } from '../../mute-target';
import type { AccountRuntime } from '../account-runtime';
import type { Handlers } from '../message-gate';
import { createFeatureCache, type FeatureCache } from '../service-features';
import { type HandlerContext, signedIn } from './context';
import { createKnownMutes } from './known-mutes';

export type MuteMessage = 'inbox.features' | 'inbox.mutes' | 'inbox.mute' | 'inbox.unmute' | 'inbox.setPolicy';

/** One cache for the whole background: the profile buttons ask it too. */
export const features: FeatureCache = createFeatureCache();

/** What this worker knows of each account's mutes, kept true by every mute made or removed here. */
export const knownMutes = createKnownMutes();

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
      const { client, features } = await withFeatures(ctx, account);
      return features.mutes ? client.inbox.mutes.list() : [];
    },
    async 'inbox.mute'({ account, target, until }) {
      const { runtime, client } = await signedIn(ctx.runtimes, account);
      const mute = await client.inbox.mutes.add(target, until);
      knownMutes.added(account, mute);
      await updateCachedPages(account, (page) => ({
        ...page,
        data: page.data.filter((item) => !mutedBy(item, target)),
      }));
      return { mute, unreadCount: await countAfter(runtime) };
    },
    async 'inbox.unmute'({ account, id }) {
      const { runtime, client } = await signedIn(ctx.runtimes, account);
      await client.inbox.mutes.remove(id);
      knownMutes.removed(account, id);
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
