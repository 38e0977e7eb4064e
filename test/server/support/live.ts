/**
 * A live channel seen from a test: the `ws` client, every frame the service sent, and the close.
 * `next` waits for the next frame (or the first one not yet taken that matches), so tests wait
 * for what they expect rather than for a while.
 */
import * as v from 'valibot';
import WebSocket from 'ws';
import { type LiveServerFrame, LiveServerFrameSchema, LiveTicketSchema } from '../../../lib/api/contract';
import type { TestService } from '../../support/service';

export interface LiveClient {
  ws: WebSocket;
  /** Frames not yet taken by `next`, oldest first. */
  pending: LiveServerFrame[];
  next<T extends LiveServerFrame['type']>(type?: T): Promise<Extract<LiveServerFrame, { type: T }>>;
  /** Waits for a count frame with this count, taking every frame before it. */
  countOf(count: number): Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export const liveUrl = (service: TestService, ticket: string) =>
  `${service.apiBaseUrl.replace(/^http/, 'ws')}/inbox/live?ticket=${encodeURIComponent(ticket)}`;

export async function newTicket(service: TestService, token: string): Promise<string> {
  const response = await service.request('/inbox/live/ticket', { method: 'POST', token });
  if (response.status !== 201) throw new Error(`The ticket call answered ${response.status}`);
  return v.parse(LiveTicketSchema, await response.json()).ticket;
}

/** Opens a channel with a ticket; throws with the answer's status when the service refuses. */
export function openWithTicket(service: TestService, ticket: string): Promise<LiveClient> {
  const ws = new WebSocket(liveUrl(service, ticket));
  const pending: LiveServerFrame[] = [];
  const waiting: (() => void)[] = [];
  ws.on('message', (data) => {
    pending.push(v.parse(LiveServerFrameSchema, JSON.parse(String(data))));
    for (const wake of waiting.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      resolve({ code, reason: String(reason) });
      for (const wake of waiting.splice(0)) wake();
    });
  });
  const arrival = () => new Promise<void>((resolve) => waiting.push(resolve));

  async function take(match: (frame: LiveServerFrame) => boolean): Promise<LiveServerFrame> {
    for (;;) {
      const index = pending.findIndex(match);
      if (index >= 0) return pending.splice(0, index + 1).at(-1) as LiveServerFrame;
      if (ws.readyState === WebSocket.CLOSED) throw new Error('The channel closed before the frame came.');
      await arrival();
    }
  }

  const client: LiveClient = {
    ws,
    pending,
    next: (type) => take((frame) => type === undefined || frame.type === type) as never,
    async countOf(count) {
      await take((frame) => frame.type === 'count' && frame.count === count);
    },
    closed,
    close: () => ws.close(1000),
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () =>
        reject(
          Object.assign(new Error(`refused with ${response.statusCode}`), {
            status: response.statusCode,
            headers: response.headers,
            body,
          }),
        ),
      );
    });
    ws.once('error', reject);
  });
}

/** A new ticket for the token, and the channel it opens. */
export async function openLive(service: TestService, token: string): Promise<LiveClient> {
  return openWithTicket(service, await newTicket(service, token));
}

/** What the service answers an upgrade with this ticket, when it refuses: status and problem body. */
export async function refusal(service: TestService, ticket: string): Promise<{ status: number; body: unknown }> {
  try {
    const client = await openWithTicket(service, ticket);
    client.close();
    return { status: 101, body: null };
  } catch (error) {
    const { status, body } = error as { status?: number; body?: string };
    return { status: status ?? 0, body: body ? JSON.parse(body) : null };
  }
}
