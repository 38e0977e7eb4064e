/**
 * The HTTP side of the live channel: the ticket a browser opens it with, and the answer to a
 * plain GET of the channel's address. The upgrade itself is `server/live/upgrade.ts`.
 */
import type { Context } from 'hono';
import type { LiveTicket } from '../../lib/api/contract';
import { issueLiveTicket } from '../store/live-tickets';
import { requireCaller } from './auth';
import type { ApiDeps } from './context';
import { Problem } from './problem';

export function liveHandlers(deps: ApiDeps) {
  async function ticket(c: Context) {
    const caller = await requireCaller(c, deps.db);
    const body: LiveTicket = await issueLiveTicket(deps.db, caller);
    c.header('cache-control', 'no-store');
    return c.json(body, 201);
  }

  function withoutUpgrade(): never {
    throw new Problem(
      426,
      'upgrade_required',
      'The live channel is a WebSocket: open it with an upgrade and ?ticket= from POST /inbox/live/ticket.',
      { upgrade: 'websocket' },
    );
  }

  return { ticket, withoutUpgrade };
}
