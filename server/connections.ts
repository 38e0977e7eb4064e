/**
 * The cap on open connections from one client address, so that one client cannot take every
 * connection the service holds. Counted per socket peer (an IPv6 peer per /64), as each
 * connection arrives and before any of its bytes are read; a proxy named in `--trust-proxy`
 * is not capped, since it carries many clients and applies the limit itself.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ProblemError } from './api/problem';
import { clientKey, plainAddress, type TrustProxy } from './client-address';
import { problemHttp } from './malformed';

/** Seconds a refused client is asked to wait: its other connections usually end within them. */
const RETRY_AFTER_SECONDS = 5;

export interface ConnectionsPerClientOptions {
  /** Open connections one client may hold; the next one is refused. */
  max: number;
  trustProxy: TrustProxy;
  log?: (line: string) => void;
}

/**
 * Refuses a connection beyond the cap with a 429 problem written at once, before any request
 * is read, and closes it in the same turn: a refused connection costs one small write and holds
 * no slot of the service's `maxConnections` afterwards.
 */
export function capConnectionsPerClient(server: Server, options: ConnectionsPerClientOptions): void {
  const open = new Map<string, number>();
  // Refusals are logged once each time a client reaches the cap, not once per connection.
  const refusing = new Set<string>();
  const refusal = problemHttp(
    new ProblemError(
      429,
      'rate_limited',
      `This address has ${options.max} connections open to the service already; close one, or try again later.`,
      { 'retry-after': String(RETRY_AFTER_SECONDS) },
    ),
  );

  // Before the HTTP server's own listener, so a refused connection never gets a parser.
  server.prependListener('connection', (socket: Socket) => {
    const peer = socket.remoteAddress;
    if (peer === undefined || options.trustProxy(plainAddress(peer))) return;
    const key = clientKey(peer);
    const count = open.get(key) ?? 0;
    if (count >= options.max) {
      if (!refusing.has(key)) {
        refusing.add(key);
        options.log?.(`too many connections: ${key} has ${options.max} open; further ones refused`);
      }
      socket.on('error', () => {});
      socket.write(refusal);
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
      refusing.delete(key);
    });
  });
}
