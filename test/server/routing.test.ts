import type { Result } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { createApp, ProfileSplitRouter } from '../../server/app';

type Handler = number;

/** What a router found: each handler with its parameters' values, in the order they run. */
function found(result: Result<Handler>): { handler: Handler; params: Record<string, string | undefined> }[] {
  const [matches, stash] = result as [[Handler, Record<string, string | number>][], string[] | undefined];
  return matches.map(([handler, params]) => ({
    handler,
    params: Object.fromEntries(
      Object.entries(params).map(([name, value]) => [name, stash ? stash[value as number] : (value as string)]),
    ),
  }));
}

const PATHS = [
  '/',
  '/gallery',
  '/@demo',
  '/@Demo',
  '/@',
  '/@demo/',
  '/@demo/posts/1',
  '/@demo/posts/999',
  '/@demo/posts/1000',
  '/@demo/posts/0',
  '/@demo/other',
  '//@demo',
  '/demo',
  '/x/@demo',
  '/health',
  '/openapi.json',
  '/avatars/demo-1a2b.svg',
  '/oauth/authorize',
  '/.well-known/inbox-companion',
  '/api/inbox/count',
  '/api/inbox/fetch',
  '/api/inbox/mutes/7',
  '/api/inbox/nothing',
  '/api/user/bob',
  '/api/user/@bob',
  '/api/user/bob/follow',
  '/api/openapi.json',
  '/api/@demo',
];

describe('the service routes', () => {
  it('finds the same handlers, in the same order and with the same parameters, as a trie router of every route', () => {
    const app = createApp({} as Parameters<typeof createApp>[0]);
    const split = new ProfileSplitRouter<Handler>();
    const trie = new TrieRouter<Handler>();
    app.routes.forEach((route, i) => {
      split.add(route.method, route.path, i);
      trie.add(route.method, route.path, i);
    });
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
      for (const path of PATHS) {
        expect({ method, path, found: found(split.match(method, path)) }).toEqual({
          method,
          path,
          found: found(trie.match(method, path)),
        });
      }
    }
  });

  it('answers another method on a profile page with 405, and a path under it that is no page with 404', async () => {
    const app = createApp({} as Parameters<typeof createApp>[0]);
    const refused = await app.request('/@demo', { method: 'POST' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, HEAD');
    expect((await app.request('/@demo/posts/0')).status).toBe(404);
    expect((await app.request('/api/@demo')).status).toBe(404);
  });
});
