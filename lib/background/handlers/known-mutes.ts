/**
 * Each account's mutes as this worker last read them (`GET /inbox/mutes`, 1,000 at most), so a
 * profile page learns whether its person is muted without waiting for a request of its own. A
 * mute made or removed through this background (the popup, the options page, the in-page
 * buttons) changes what is known at once; one made elsewhere (another browser) is seen when
 * what is known is older than `FRESH_MS` and read again; a mute past its `until` is over.
 */
import type { CoreClient } from '../../api';
import type { Mute } from '../../api/contract';
import type { InboxFeatures, OutboxEntry } from '../../messaging';
import { isMuteOf, type MuteTarget } from '../../mute-target';
import { outboxItem } from '../outbox';

/** How long a reading of the mutes is trusted for changes made outside this background. */
export const FRESH_MS = 60_000;

interface Known {
  client: CoreClient;
  token: string;
  at: number;
  /** Null: the account's service has no mutes. */
  mutes: Promise<Mute[] | null>;
}

export interface KnownMutes {
  /**
   * The mute in force on `username` for the account signed in with `token`: null when there is
   * none, undefined when its service has no mutes. Read from the service at most once per
   * `FRESH_MS`, alongside what the service can do.
   */
  of(
    account: string,
    client: CoreClient,
    token: string,
    features: () => Promise<InboxFeatures>,
    username: string,
  ): Promise<Mute | null | undefined>;
  /** A mute the service made: it replaces one of the same target, as the service's does. */
  added(account: string, mute: Mute): void;
  removed(account: string, id: string): void;
  forget(account: string): void;
}

/**
 * The mutes as they will be once the outbox has sent what waits, in order: a waiting mute is in
 * force already (its id its change's key), and a waiting unmute has removed its mute.
 */
export function withWaiting(mutes: readonly Mute[], entries: readonly OutboxEntry[]): Mute[] {
  let shown = [...mutes];
  for (const entry of entries) {
    const { kind, target, mute } = entry;
    if (target && (kind === 'mute' || kind === 'muteThread')) {
      const made = waitingMute(entry, target);
      shown = [made, ...shown.filter((each) => !isMuteOf(each, target))];
    }
    if (kind === 'unmute' || kind === 'removeMute') shown = shown.filter((each) => each.id !== mute);
  }
  return shown;
}

/** A mute as it is shown while it waits in the outbox: its id is its change's key. */
export const waitingMute = ({ key, madeAt, until }: OutboxEntry, target: MuteTarget): Mute => ({
  id: key,
  actor: 'actor' in target ? target.actor : null,
  url: 'url' in target ? target.url : null,
  until: until ?? null,
  createdAt: new Date(madeAt).toISOString(),
});

const sameTarget = (a: Mute, b: Mute) =>
  a.url === b.url && (a.actor ?? '').toLowerCase() === (b.actor ?? '').toLowerCase();

export function createKnownMutes(now: () => number = () => Date.now()): KnownMutes {
  const known = new Map<string, Known>();

  /** Changes what is known without a request; what is not known yet stays unknown. */
  const change = (account: string, edit: (mutes: Mute[]) => Mute[]) => {
    const entry = known.get(account);
    if (entry) entry.mutes = entry.mutes.then((mutes) => mutes && edit(mutes));
  };

  return {
    async of(account, client, token, features, username) {
      let entry = known.get(account);
      if (!entry || entry.client !== client || entry.token !== token || now() - entry.at > FRESH_MS) {
        // Both asked at once, so a page waits for one round trip; an older service's 404 is no answer.
        const list = client.inbox.mutes.list();
        list.catch(() => undefined);
        const mutes = features().then((can) => (can.mutes ? list : null));
        const made: Known = { client, token, at: now(), mutes };
        entry = made;
        known.set(account, made);
        // A failure (offline, signed out) is not an answer: the next question asks again.
        mutes.catch(() => {
          if (known.get(account) === made) known.delete(account);
        });
      }
      const read = await entry.mutes;
      if (read === null) return undefined;
      const mutes = withWaiting(read, (await outboxItem(account).getValue()).entries);
      const name = username.toLowerCase();
      const at = now();
      return (
        mutes.find(
          (mute) => mute.actor?.toLowerCase() === name && (mute.until === null || Date.parse(mute.until) > at),
        ) ?? null
      );
    },
    added(account, mute) {
      change(account, (mutes) => [mute, ...mutes.filter((each) => !sameTarget(each, mute))]);
    },
    removed(account, id) {
      change(account, (mutes) => mutes.filter((mute) => mute.id !== id));
    },
    forget(account) {
      known.delete(account);
    },
  };
}
