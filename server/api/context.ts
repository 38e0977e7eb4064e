import type { TrustProxy } from '../client-address';
import type { Database } from '../db/database';
import type { FormTokens } from '../oauth/form-token';
import type { SignInLimits } from '../store/sign-in';
import type { Cursors } from './cursor';
import type { ProblemError } from './problem';
import type { UndoTokens } from './undo-token';

/** What the API's handlers need from the running service. */
export interface ApiDeps {
  db: Database;
  cursors: Cursors;
  undoTokens: UndoTokens;
  /** Signs and checks the authorize form, so it can only be sent from the page the service served. */
  formTokens: FormTokens;
  /** The service's clock, in milliseconds since the epoch: undo windows, codes and sign-in limits use it. */
  now: () => number;
  /** The site origin that notification URLs point into, such as `http://127.0.0.1:8787`. */
  origin: () => string;
  pollIntervalSeconds: number;
  /** Which peers are proxies whose `X-Forwarded-For` names the client (`--trust-proxy`); none by default. */
  trustProxy: TrustProxy;
  /** The sign-in form's limits where they differ from `DEFAULT_SIGN_IN_LIMITS`. */
  signIn?: Partial<SignInLimits>;
  /**
   * Why a user may not take a live ticket now, or null (`server/live/limits.ts`); left out by an
   * app served without live channels.
   */
  liveLimiter?: { refuseTicket(userId: number): ProblemError | null };
}
