/**
 * The profile fetched when a tab's content script starts, kept until that tab's buttons' frame
 * asks for it: the request is on its way while the page loads the frame.
 */
import type { ProfileAnswer } from '../../messaging';
import type { AccountRuntime } from '../account-runtime';
import { plain } from '../message-gate';
import { learnFollow } from '../priority';
import { muteOf } from './mute-messages';

/** How long a prefetched profile waits for its frame; one older is fetched again. */
const PREFETCH_MS = 10_000;

/**
 * The profile, with the account's mute of the person read at the same time: the buttons show
 * whether the person is muted from their first frame. A mute that cannot be read leaves the
 * profile as it is.
 */
export const profileAnswer = (runtime: AccountRuntime, username: string): Promise<ProfileAnswer> =>
  runtime.session.client().then(({ client }) => {
    const profile = client.user(username).get();
    const mute = muteOf(runtime, username).catch(() => undefined);
    return profile.then(
      async (profile): Promise<ProfileAnswer> => {
        // The follow state the service reports is what priority starts from.
        if (!profile.self && profile.following !== undefined)
          void learnFollow(runtime.id, profile.username, profile.following);
        const known = profile.self || profile.following === undefined ? undefined : await mute;
        return { ok: true, profile: known === undefined ? profile : { ...profile, mute: known } };
      },
      (error): ProfileAnswer => ({ ok: false, error: plain(error, runtime).toJSON() }),
    );
  });

/**
 * One profile a tab, and only those fetched in the last `PREFETCH_MS`, so they stay few where the
 * background never stops (Firefox) and tabs close before their frame asks; `key` names the account
 * and the person. `now` is the clock.
 */
export function createPrefetch(now: () => number = Date.now) {
  const prefetched = new Map<number | undefined, { key: string; at: number; answer: Promise<ProfileAnswer> }>();
  const fresh = (at: number) => now() - at <= PREFETCH_MS;
  return {
    put(tabId: number | undefined, key: string, answer: Promise<ProfileAnswer>) {
      for (const [tab, entry] of prefetched) if (!fresh(entry.at)) prefetched.delete(tab);
      prefetched.set(tabId, { key, at: now(), answer });
    },
    take(tabId: number | undefined, key: string): Promise<ProfileAnswer> | null {
      const entry = prefetched.get(tabId);
      prefetched.delete(tabId);
      return entry?.key === key && fresh(entry.at) ? entry.answer : null;
    },
    /** How many tabs' profiles are kept. */
    get size() {
      return prefetched.size;
    },
  };
}
