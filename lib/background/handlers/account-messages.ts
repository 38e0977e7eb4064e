/** Adding, signing in and out of, and removing accounts. */
import { accountLabel, validateAddresses } from '../../account-addresses';
import { InvalidArgumentError } from '../../api';
import { revokeEndpointOf, revokeToken } from '../../api/revoke';
import { clearInboxCache } from '../../inbox-cache';
import { giveBackPermissions } from '../../permissions';
import { settingsErrorText } from '../../settings';
import type { AccountRuntime } from '../account-runtime';
import { accounts, addAccount, removeAccount } from '../account-store';
import type { Handlers } from '../message-gate';
import { unreadByTypeItem } from '../stored-items';
import { checkToken, identity } from '../token-check';
import { lastUndoItem } from '../triage';
import { type HandlerContext, runtimeOf } from './context';

type AccountMessage = Extract<keyof Handlers, `accounts.${string}`>;

/** What the extension kept of an account's inbox: none of it outlives its token. */
async function forgetAccount(runtime: AccountRuntime) {
  const last = await lastUndoItem.getValue();
  await Promise.all([
    runtime.poller.reset(),
    clearInboxCache(runtime.id),
    runtime.notifier.reset(),
    unreadByTypeItem(runtime.id).removeValue(),
    last?.parts?.some((part) => part.account === runtime.id) ? lastUndoItem.setValue(null) : undefined,
  ]);
}

export function accountHandlers(ctx: HandlerContext): Pick<Handlers, AccountMessage> {
  const { runtimes } = ctx;

  async function signOut(runtime: AccountRuntime) {
    const [token, { settings }] = await Promise.all([runtime.session.token(), runtime.session.client()]);
    // The service stops taking it at once; should it not answer, the token is forgotten all the same.
    if (token) await revokeToken(revokeEndpointOf(settings.apiBaseUrl), token, ctx.fetch).catch(() => undefined);
    await runtime.session.signOut();
    await forgetAccount(runtime);
    return runtime.poller.poll();
  }

  return {
    async 'accounts.add'({ token, ...addresses }) {
      const errors = validateAddresses(addresses);
      const first = Object.values(errors)[0];
      if (first) throw new InvalidArgumentError('invalid_address', settingsErrorText(first));
      const profile = await checkToken(addresses.apiBaseUrl, token, ctx.fetch);
      const origin = new URL(addresses.apiBaseUrl).origin;
      const twin =
        profile &&
        (await accounts()).find((a) => a.username === profile.username && new URL(a.apiBaseUrl).origin === origin);
      // The detail is the account's name: the options page puts it into its own words.
      if (twin) throw new InvalidArgumentError('account_exists', accountLabel(twin));
      const account = await addAccount({ ...addresses, ...(profile ? identity(profile) : {}) }, token);
      await runtimes.sync();
      await runtimes.get(account.id)?.poller.poll();
      return account;
    },
    async 'accounts.signIn'({ account, token }) {
      const runtime = await runtimeOf(runtimes, account);
      await runtime.session.signIn(token);
      await forgetAccount(runtime);
      const status = await runtime.poller.poll();
      await runtime.identify(true);
      return status;
    },
    async 'accounts.signOut'({ account }) {
      return signOut(await runtimeOf(runtimes, account));
    },
    async 'accounts.remove'({ account }) {
      const runtime = await runtimeOf(runtimes, account);
      const removed = await runtime.session.account();
      await signOut(runtime);
      await removeAccount(account);
      await runtimes.sync();
      if (removed) await giveBackPermissions(removed, await accounts());
    },
  };
}
