/** What every handler group is given, and the lookups they share: the account a message names. */
import { InvalidArgumentError, UnauthenticatedError } from '../../api';
import type { AccountRuntime, Runtimes } from '../account-runtime';
import type { Extension } from '../sender';

export interface HandlerContext {
  runtimes: Runtimes;
  extension: Extension;
  fetch?: typeof fetch;
}

const signedOut = () => new UnauthenticatedError({ status: 401, code: 'unauthenticated', detail: 'Signed out.' });

/** The running account a message names; an unknown one is refused like a signed-out one. */
export async function runtimeOf(runtimes: Runtimes, id: string): Promise<AccountRuntime> {
  await runtimes.sync();
  const runtime = runtimes.get(id);
  if (!runtime) throw new InvalidArgumentError('unknown_account', 'No such account.');
  return runtime;
}

/** The account's client, refused when it is signed out: a request never goes out without its token. */
export async function signedIn(runtimes: Runtimes, id: string) {
  const runtime = await runtimeOf(runtimes, id);
  const { client } = await runtime.session.client();
  if (!(await runtime.session.token())) throw signedOut();
  return { runtime, client };
}
