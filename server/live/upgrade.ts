/**
 * The HTTP upgrade to a live channel. A ticket is checked before anything is upgraded: a missing,
 * unknown, expired or used one is a 401 problem and the connection closes. So are the limits: a
 * user with all the channels they may have gets a 429 `too_many_channels` problem, and an instance
 * whose channels hold their share of its connections a 503, both with Retry-After and before the
 * upgrade, as any HTTP client reads them. Every other upgrade request (another path, another
 * protocol) is answered by the app as if it asked for none.
 */
import { type IncomingMessage, type RequestListener, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { LIMITS } from '../../lib/api/contract';
import { ProblemError } from '../api/problem';
import type { Database } from '../db/database';
import { writeProblem } from '../malformed';
import { redeemLiveTicket } from '../store/live-tickets';
import type { LiveHub } from './hub';
import type { LiveLimiter } from './limits';

export interface LiveUpgradeOptions {
  db: Database;
  hub: LiveHub;
  /** Channels per user and for the instance. */
  limiter: LiveLimiter;
  /** The path of the live channel, such as `/api/inbox/live`. */
  path: string;
  /** False while the instance cannot hear the database's events: channels would be deaf. */
  listening: () => boolean;
  /** The service's ordinary request listener. */
  listener: RequestListener;
  /** Called with one line per upgrade answered here, like the app's request lines. */
  log?: (line: string) => void;
}

/** Runs the ordinary listener on an upgrade request, answering on its socket and then closing it. */
function answerWithoutUpgrade(listener: RequestListener, request: IncomingMessage, socket: Duplex, head: Buffer) {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (request.headers['transfer-encoding'] !== undefined || declared > head.length) {
    // The parser has let go of the socket: a body beyond what came with the head cannot be read.
    writeProblem(
      socket,
      new ProblemError(400, 'invalid_body', 'A request that asks for an upgrade cannot carry a body.'),
    );
    return;
  }
  if (head.length > 0) request.unshift(head);
  const response = new ServerResponse(request);
  response.shouldKeepAlive = false;
  response.assignSocket(socket as never);
  response.on('finish', () => {
    response.detachSocket(socket as never);
    socket.end();
  });
  listener(request, response);
}

const unauthenticated = (detail: string) =>
  new ProblemError(401, 'unauthenticated', detail, { 'www-authenticate': 'Bearer realm="inbox"' });

export function createLiveUpgrade(options: LiveUpgradeOptions) {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: LIMITS.liveFrameMaxBytes, clientTracking: false });

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    socket.on('error', () => {});
    const url = URL.canParse(request.url ?? '', 'http://service') ? new URL(request.url ?? '', 'http://service') : null;
    const isWebSocket = (request.headers.upgrade ?? '').toLowerCase() === 'websocket';
    if (!url || url.pathname !== options.path || request.method !== 'GET' || !isWebSocket) {
      answerWithoutUpgrade(options.listener, request, socket, head);
      return;
    }
    const started = performance.now();
    const refuse = (problem: ProblemError) => {
      writeProblem(socket, problem);
      options.log?.(`GET ${url.pathname} ${problem.status} ${(performance.now() - started).toFixed(1)}ms`);
    };
    const tickets = url.searchParams.getAll('ticket');
    if (tickets.length !== 1 || !tickets[0]) {
      refuse(unauthenticated('Open the live channel with ?ticket= from POST /inbox/live/ticket.'));
      return;
    }
    if (!options.listening()) {
      refuse(
        new ProblemError(503, 'service_unavailable', 'Live updates are back in a moment; try again soon.', {
          'retry-after': '2',
        }),
      );
      return;
    }
    // Before the ticket is taken, so a client refused for a full instance may try it again.
    const full = options.limiter.refuseChannel();
    if (full) {
      refuse(full);
      return;
    }
    let owner: Awaited<ReturnType<typeof redeemLiveTicket>>;
    try {
      owner = await redeemLiveTicket(options.db, tickets[0]);
    } catch {
      refuse(
        new ProblemError(503, 'service_unavailable', 'The service cannot reach its database; try again soon.', {
          'retry-after': '5',
        }),
      );
      return;
    }
    if (!owner) {
      refuse(unauthenticated('The ticket is unknown, expired or already used; ask for a new one.'));
      return;
    }
    // The ticket is spent: a user could take many before opening any. From this check to the
    // hub's count is one synchronous step (ws upgrades at once, with no verifyClient or
    // extensions), so upgrades that arrive together cannot all pass it.
    const limited = options.limiter.refuseChannel(owner.userId);
    if (limited) {
      refuse(limited);
      return;
    }
    const taken = owner;
    sockets.handleUpgrade(request, socket, head, (ws) => {
      options.log?.(`GET ${url.pathname} 101 ${(performance.now() - started).toFixed(1)}ms`);
      options.hub.open(ws, taken);
    });
  }

  return {
    upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      upgrade(request, socket, head).catch(() => socket.destroy());
    },
    close: () => new Promise<void>((resolve) => sockets.close(() => resolve())),
  };
}
