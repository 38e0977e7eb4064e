import { createTransport, type TransportOptions } from './http';
import { createInbox } from './inbox';
import { createUserHandle } from './user';

export type ClientOptions = TransportOptions;

/**
 * A client of the Inbox API. Nothing is sent until an operation is called.
 *
 * ```ts
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8787/api', token });
 * const { data, cursor } = await client.inbox.fetch({ unreadOnly: true });
 * await client.user('bob').follow();
 * ```
 */
export function createClient(options: ClientOptions) {
  const transport = createTransport(options);
  return {
    baseUrl: transport.baseUrl,
    inbox: createInbox(transport),
    user: (username: string) => createUserHandle(transport, username),
  };
}

export type Client = ReturnType<typeof createClient>;
