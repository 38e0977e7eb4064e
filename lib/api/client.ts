import { createTransport, type TransportOptions } from './http';
import { createInbox, inboxWalks } from './inbox';
import { createLive, type WebSocketConstructor } from './live';
import { createUserHandle, fetchMe } from './user';

export interface ClientOptions extends TransportOptions {
  /** The WebSocket class the live channel connects with; the global one by default. */
  WebSocket?: WebSocketConstructor;
}

/**
 * A client of the Inbox API. Nothing is sent until an operation is called.
 *
 * ```ts
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8787/api', token });
 * const { data, cursor } = await client.inbox.fetch({ unreadOnly: true });
 * await client.user('bob').follow();
 * const live = await client.inbox.live();
 * live.on('count', (count) => showBadge(count));
 * ```
 */
export function createClient(options: ClientOptions) {
  const client = createCoreClient(options);
  return { ...client, inbox: { ...client.inbox, ...inboxWalks(client.inbox.fetch) } };
}

export type Client = ReturnType<typeof createClient>;

/**
 * The client without the walks through every page of the inbox (`pages`, `items`): what the
 * extension's background uses, which never walks the whole inbox and so carries none of it.
 */
export function createCoreClient(options: ClientOptions) {
  const transport = createTransport(options);
  return {
    baseUrl: transport.baseUrl,
    inbox: { ...createInbox(transport), live: createLive(transport, options) },
    user: (username: string) => createUserHandle(transport, username),
    /** The profile of the person the token belongs to. */
    me: () => fetchMe(transport),
  };
}

export type CoreClient = ReturnType<typeof createCoreClient>;
