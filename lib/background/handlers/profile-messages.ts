/** The in-page buttons: where they may act, the profile they show, following and reporting. */
import { accountLabel, DEFAULT_ADDRESSES } from '../../account-addresses';
import type { Account } from '../../accounts';
import { clearInboxCache } from '../../inbox-cache';
import { type ProfileAccount, type ProfileRequest, profileFrom } from '../../messaging';
import { isSiteUrl, usernameFromUrl } from '../../profile-url';
import type { AccountRuntime, Runtimes } from '../account-runtime';
import { accounts } from '../account-store';
import { type Asker, forbidden, type Handlers } from '../message-gate';
import { learnFollow } from '../priority';
import { claimFrame, newClaim } from '../profile-frames';
import { type HandlerContext, runtimeOf, signedIn } from './context';
import { features, muteOf, muteThrough, unmuteThrough } from './mute-messages';
import { createPrefetch, profileAnswer } from './profile-prefetch';

type ProfileMessage = Extract<keyof Handlers, `profile.${string}`>;

/**
 * An in-page button acts only as an account whose site the page is on: a content script on one
 * site can never act as an account of another. And only on the profile the page shows now: a
 * page that changed its address under the buttons acts on nothing.
 */
async function onAccountSite(runtimes: Runtimes, id: string, sender: Asker, username: string) {
  const runtime = await runtimeOf(runtimes, id);
  const account = await runtime.session.account();
  if (sender?.kind === 'profile' || sender?.kind === 'frame') {
    if (!account || !isSiteUrl(sender.url, account)) throw forbidden('Not that account’s site.');
    if (usernameFromUrl(sender.url, account)?.toLowerCase() !== username.toLowerCase()) {
      throw forbidden('This tab does not show that profile.');
    }
  }
  return runtime;
}

async function profileAccount(runtimes: Runtimes, id: string, sender: Asker, username: string) {
  await onAccountSite(runtimes, id, sender, username);
  return (await signedIn(runtimes, id)).client;
}

interface OnSite {
  account: Account;
  runtime: AccountRuntime;
  signedIn: boolean;
}

/**
 * The accounts whose site every one of `urls` is on, each with whether it is signed in; their
 * tokens are read side by side, as a page waits on this to place its buttons.
 */
async function accountsOnSite(runtimes: Runtimes, urls: readonly string[]): Promise<OnSite[]> {
  const found = (await accounts()).flatMap((account) => {
    const runtime = runtimes.get(account.id);
    return runtime && urls.every((url) => isSiteUrl(url, account)) ? [{ account, runtime }] : [];
  });
  const tokens = await Promise.all(found.map(({ runtime }) => runtime.session.token()));
  return found.map((entry, at) => ({ ...entry, signedIn: tokens[at] !== null }));
}

/** The accounts a person can switch the buttons between, as the buttons name them. */
const switchable = (onSite: readonly OnSite[]): ProfileAccount[] =>
  onSite.filter((entry) => entry.signedIn).map(({ account }) => ({ id: account.id, label: accountLabel(account) }));

export function profileHandlers({ runtimes }: HandlerContext): Pick<Handlers, ProfileMessage> {
  const prefetch = createPrefetch();

  /** A follow or unfollow the service cannot take now is kept in the account's outbox, not failed. */
  async function change(kind: 'follow' | 'unfollow', { account, username }: ProfileRequest, sender: Asker) {
    const client = await profileAccount(runtimes, account, sender, username);
    const { outbox } = await runtimeOf(runtimes, account);
    const { answer } = await outbox.attempt({ kind, username }, (idempotencyKey) =>
      client
        .user(username)
        [kind]({ idempotencyKey })
        .then(() => true),
    );
    await learnFollow(account, username, kind === 'follow');
    return { waiting: answer === null };
  }

  return {
    async 'profile.start'({ url, account: wanted }, sender) {
      await runtimes.sync();
      // A content script asks only about the page it is on.
      const onSite = await accountsOnSite(runtimes, sender?.kind === 'profile' ? [url, sender.url] : [url]);
      const signedInHere = onSite.filter((entry) => entry.signedIn);
      const chosen = signedInHere.find((entry) => entry.account.id === wanted) ?? signedInHere[0] ?? onSite[0] ?? null;
      const shape = chosen?.account ?? DEFAULT_ADDRESSES;
      const username = usernameFromUrl(url, shape);
      const config = {
        signedIn: chosen?.signedIn ?? false,
        siteOrigin: shape.siteOrigin,
        profilePath: shape.profilePath,
        profileAnchor: shape.profileAnchor,
        account: chosen?.account.id ?? null,
        accounts: switchable(onSite),
      };
      if (username !== null && chosen !== null) {
        const key = `${chosen.account.id} ${username.toLowerCase()}`;
        prefetch.put(sender?.tabId, key, profileAnswer(chosen.runtime, username));
      }
      const tabId = sender?.tabId;
      return { config, claim: tabId === undefined ? '' : newClaim(tabId, config.account) };
    },
    async 'profile.frame'({ claim }, sender) {
      const { tabId, frameId } = sender ?? {};
      const id = tabId === undefined || frameId === undefined ? undefined : await claimFrame(tabId, frameId, claim);
      if (id === undefined) throw forbidden('This frame is not the tab’s buttons.');
      if (id === null || !sender) return null;
      const runtime = await runtimeOf(runtimes, id);
      const account = await runtime.session.account();
      const username = account && isSiteUrl(sender.url, account) ? usernameFromUrl(sender.url, account) : null;
      if (!account || username === null) return null;
      // The profile and the accounts signed in here are read side by side.
      const answer = prefetch.take(tabId, `${id} ${username.toLowerCase()}`) ?? profileAnswer(runtime, username);
      const here = switchable(await accountsOnSite(runtimes, [sender.url]));
      return { username, answer: await answer, account: id, siteOrigin: account.siteOrigin, accounts: here };
    },
    async 'profile.get'({ account, username }, sender) {
      // A profile reads without a token too: signed out, it shows who the person is, without buttons.
      const runtime = await onAccountSite(runtimes, account, sender, username);
      return profileFrom(await profileAnswer(runtime, username));
    },
    'profile.follow': (request, sender) => change('follow', request, sender),
    'profile.unfollow': (request, sender) => change('unfollow', request, sender),
    async 'profile.report'({ account, username, reason, comment }, sender) {
      return (await profileAccount(runtimes, account, sender, username)).user(username).report(reason, comment);
    },
    async 'profile.mute'({ account, username }, sender) {
      const client = await profileAccount(runtimes, account, sender, username);
      const runtime = await runtimeOf(runtimes, account);
      const { mutes } = await features.of(account, client, (await runtime.session.token()) ?? '');
      if (!mutes) return null;
      const { mute, waiting } = await muteThrough(runtime, client, { actor: username }, null);
      if (waiting) return { ...mute, waiting };
      // The badge drops with the service's count, not a poll interval later.
      await runtime.poller.poll();
      return mute;
    },
    /**
     * The mute to remove is the one the worker knows of the person the tab shows, never an id a
     * page could name; a person not muted is as the change wants. Kept in the outbox, as a follow
     * is, when the service cannot take it now.
     */
    async 'profile.unmute'({ account, username }, sender) {
      const client = await profileAccount(runtimes, account, sender, username);
      const runtime = await runtimeOf(runtimes, account);
      const mute = await muteOf(runtime, username);
      if (!mute) return { waiting: false };
      if (await unmuteThrough(runtime, client, mute.id, username)) return { waiting: true };
      // What comes back belongs in pages the cache cannot place: the popup asks the service next time.
      await clearInboxCache(account);
      await runtime.poller.poll();
      return { waiting: false };
    },
  };
}
