/**
 * The live channel: a ticket asked for with the Bearer token, then a WebSocket that carries the
 * unread count and each new notification as they happen. Every frame is checked against the
 * contract; one that does not match is reported as an error event and dropped, never handed on
 * as data.
 */
import * as v from 'valibot';
import {
  type ByType,
  type LiveClientFrame,
  type LiveServerFrame,
  LiveServerFrameUnion,
  LiveTicketSchema,
  type Notification,
} from './contract';
import { type ApiError, InvalidArgumentError, InvalidResponseError, NetworkError, TimeoutError } from './errors';
import { parseAnswer, type Transport } from './http';

/** What the client needs of a WebSocket: the browser's and the `ws` package's both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: never) => void): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface LiveClose {
  /** The WebSocket close code: 4401 when the token was revoked, 1006 when the connection was lost. */
  code: number;
  reason: string;
}

export interface LiveEvents {
  /** The unread count: at once on open, then on every change. */
  count: number;
  /** The unread count of each type, with every count frame that carries it. */
  countByType: ByType;
  notification: Notification;
  /** The service's answer to `ping()`. */
  pong: undefined;
  /** A frame that is not in the contract; the channel stays open. */
  error: ApiError;
  /** The channel is closed, by either side or by the network; no event follows. */
  close: LiveClose;
}

export interface LiveChannel {
  /** Listens to one kind of event; returns a function that stops listening. */
  on<K extends keyof LiveEvents>(type: K, listener: (value: LiveEvents[K]) => void): () => void;
  /** Sends a ping, which the service answers with a pong; false when the channel is not open. */
  ping(): boolean;
  close(code?: number, reason?: string): void;
  readonly closed: boolean;
}

export interface LiveOptions {
  /** The WebSocket class to connect with; the global one by default. */
  WebSocket?: WebSocketConstructor;
  /** Milliseconds the WebSocket may take to open. */
  timeout?: number;
}

const OPEN = 1;
/** No frame of the contract comes near this; a larger one is refused unread. */
export const MAX_LIVE_FRAME_CHARS = 64 * 1024;
// The contract's type checks the frame; the service's schema checks it where it is read.
const PING = JSON.stringify({ type: 'ping' } satisfies LiveClientFrame);

/** The channel's address: the API base URL with a ws: or wss: scheme. */
export function liveUrl(baseUrl: string, ticket: string): string {
  const url = new URL('inbox/live', baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('ticket', ticket);
  return url.href;
}

function frameError(detail: string): InvalidResponseError {
  return new InvalidResponseError(0, `A live frame does not match the contract: ${detail}`);
}

/** A server frame as the contract defines it, or the error that says why it is not one. */
export function parseFrame(data: unknown): LiveServerFrame | InvalidResponseError {
  if (typeof data !== 'string') return frameError('a binary frame.');
  if (data.length > MAX_LIVE_FRAME_CHARS) return frameError('the frame is too large.');
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return frameError('not JSON.');
  }
  const frame = v.safeParse(LiveServerFrameUnion, json);
  return frame.success ? frame.output : frameError(frame.issues[0].message);
}

function wrap(socket: WebSocketLike): LiveChannel {
  const listeners = new Map<keyof LiveEvents, Set<(value: never) => void>>();
  let closed = false;

  // The service speaks first (the count, at once on open), possibly before the caller has had a
  // chance to listen: events of a kind nobody has listened to yet are held for the first listener.
  const held = new Map<keyof LiveEvents, unknown[]>();

  function emit<K extends keyof LiveEvents>(type: K, value: LiveEvents[K]): void {
    const set = listeners.get(type);
    if (!set) {
      // Counts by type matter only as the latest; a caller that never asks for them holds one.
      held.set(type, type === 'countByType' ? [value] : [...(held.get(type) ?? []), value]);
      return;
    }
    for (const listener of [...set]) (listener as (value: LiveEvents[K]) => void)(value);
  }

  function receive(data: unknown): void {
    const frame = parseFrame(data);
    if (frame instanceof InvalidResponseError) emit('error', frame);
    else if (frame.type === 'count') {
      emit('count', frame.count);
      if (frame.byType) emit('countByType', frame.byType);
    } else if (frame.type === 'notification') emit('notification', frame.notification);
    else emit('pong', undefined);
  }

  socket.addEventListener('message', (event: { data: unknown }) => receive(event.data));
  socket.addEventListener('close', (event: { code: number; reason: string }) => {
    if (closed) return;
    closed = true;
    emit('close', { code: event.code, reason: String(event.reason ?? '') });
  });

  return {
    on(type, listener) {
      const set = listeners.get(type) ?? new Set();
      listeners.set(type, set);
      set.add(listener);
      const waiting = held.get(type);
      held.delete(type);
      if (waiting) {
        queueMicrotask(() => {
          for (const value of waiting) emit(type, value as LiveEvents[typeof type]);
        });
      }
      return () => void set.delete(listener);
    },
    ping() {
      if (closed || socket.readyState !== OPEN) return false;
      socket.send(PING);
      return true;
    },
    close(code = 1000, reason = '') {
      if (socket.readyState <= OPEN) socket.close(code, reason);
    },
    get closed() {
      return closed;
    },
  };
}

/** Opens the WebSocket, listening from the start so that no frame is missed. */
function open(Socket: WebSocketConstructor, url: string, timeout: number): Promise<LiveChannel> {
  return new Promise((resolve, reject) => {
    const socket = new Socket(url);
    const channel = wrap(socket);
    const timer = setTimeout(() => {
      socket.close();
      reject(new TimeoutError('The live channel did not open in time.'));
    }, timeout);
    // Every failure is followed by a close event, which tells it; `ws` also throws an error nobody hears.
    socket.addEventListener('error', () => undefined);
    socket.addEventListener('open', () => {
      clearTimeout(timer);
      resolve(channel);
    });
    // A refused ticket and a lost connection look alike to a WebSocket: both close before opening.
    socket.addEventListener('close', () => {
      clearTimeout(timer);
      reject(new NetworkError('The live channel could not be opened.'));
    });
  });
}

export function createLive(transport: Transport, options: LiveOptions = {}) {
  /**
   * Opens the live channel: one ticket, then the WebSocket. Resolves once it is open; the
   * service's first count frame follows at once. A refused token fails as the ticket call's
   * typed error (`UnauthenticatedError`), a channel that cannot open as a `NetworkError`.
   */
  return async function live(): Promise<LiveChannel> {
    const Socket = options.WebSocket ?? (globalThis.WebSocket as WebSocketConstructor | undefined);
    if (!Socket) throw new InvalidArgumentError('no_websocket', 'This environment has no WebSocket.');
    const answer = await transport.send({ method: 'POST', path: 'inbox/live/ticket' }, 'json');
    const { ticket } = parseAnswer(LiveTicketSchema, answer);
    return open(Socket, liveUrl(transport.baseUrl, ticket), options.timeout ?? 10_000);
  };
}
