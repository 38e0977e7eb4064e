/**
 * The HTTP side of the live channel: the ticket a browser opens it with, and the answer to a
 * plain GET of the channel's address. The upgrade itself is `server/live/upgrade.ts`.
 */
import type { Context } from 'hono';
import { createFactory } from 'hono/factory';
import type { LiveTicket } from '../../lib/api/contract';
import { issueLiveTicket } from '../store/live-tickets';
import { type SignedInEnv, signedIn } from './auth';
import type { ApiDeps } from './context';
import { ProblemError } from './problem';

export function liveHandlers(deps: ApiDeps) {
  async function ticket(c: Context<SignedInEnv>) {
    const refused = deps.liveLimiter?.refuseTicket(c.var.caller.userId);
    if (refused) throw refused;
    const body: LiveTicket = await issueLiveTicket(deps.db, c.var.caller);
    c.header('cache-control', 'no-store');
    return c.json(body, 201);
  }

  function withoutUpgrade(): never {
    throw new ProblemError(
      426,
      'upgrade_required',
      'The live channel is a WebSocket: open it with an upgrade and ?ticket= from POST /inbox/live/ticket.',
      { upgrade: 'websocket' },
    );
  }

  const { createHandlers } = createFactory();
  return { ticket: createHandlers(signedIn(deps.db), ticket), withoutUpgrade };
}
