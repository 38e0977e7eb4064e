/**
 * What an account's service can do beyond version 1's inbox. A version 3 service
 * answers `GET /inbox/policy`; a 404 there is an older one, which then gets no mutes, no
 * strangers setting and no search, and never an error for it. Asked once per account, address
 * and sign-in.
 */
import type { CoreClient } from '../api';
import { ApiError } from '../api/errors';
import type { InboxFeatures } from '../messaging';

const OLDER_SERVICE: InboxFeatures = { mutes: false, policy: null };

interface Known {
  client: CoreClient;
  token: string;
  features: Promise<InboxFeatures>;
}

export interface FeatureCache {
  /** What the service behind `client` can do, signed in with `token`; asked again when either changes. */
  of(account: string, client: CoreClient, token: string): Promise<InboxFeatures>;
  /** Forgets what was learnt, as after a change of the policy. */
  forget(account: string): void;
}

export async function serviceFeatures(client: CoreClient): Promise<InboxFeatures> {
  try {
    return { mutes: true, policy: await client.inbox.policy() };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return OLDER_SERVICE;
    throw error;
  }
}

export function createFeatureCache(ask = serviceFeatures): FeatureCache {
  const known = new Map<string, Known>();
  return {
    of(account, client, token) {
      const entry = known.get(account);
      if (entry && entry.client === client && entry.token === token) return entry.features;
      const features = ask(client);
      known.set(account, { client, token, features });
      // A failure (offline, signed out) is not an answer: the next question asks again.
      features.catch(() => {
        if (known.get(account)?.features === features) known.delete(account);
      });
      return features;
    },
    forget(account) {
      known.delete(account);
    },
  };
}
