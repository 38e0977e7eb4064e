/**
 * The database writes a page's JSON (`server/store/notifications.ts`): its bytes must be what
 * the service wrote when it serialised each notification itself, whatever the text, names,
 * pictures and links hold, in every listing and through shared statements and searches alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification, Page } from '../../lib/api/contract';
import { toWireNotification } from '../../server/api/wire';
import { findNotification } from '../../server/store/notifications';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../support/service';

/** Texts that JSON escapes, or that look like what the service fills in. */
const TEXTS = [
  'Quotes " and \\ backslashes \\" and a trailing backslash \\',
  'Controls \u0001\u0008\t\n\f\r\u001f, DEL \u007f, separators \u2028\u2029',
  'Accents é, a face 😀, CJK 漢字 and a zero-width joiner \u200d',
  '"avatarUrl":"\u0001alice\u0001Alice" inside a text',
  '\u0001x\u0001y',
];

describe.each(BACKENDS)('pages written by the database on %s', (backend) => {
  let service: TestService;
  let reader: TestUser;
  let userId: number;
  const ids: string[] = [];

  beforeAll(async () => {
    service = await startTestService({ backend });
    reader = await service.newUser('pagejson');
    const admin = service.server.admin;
    userId = (await admin.findUser(reader.username))?.id as number;
    const actors = [
      { username: `pj_drawn_${Date.now() % 100000}`, displayName: 'Ünïcode "Quoted" \\ Näme 😀' },
      { username: `pj_empty_${Date.now() % 100000}`, displayName: '' },
      { username: `pj_own_${Date.now() % 100000}`, displayName: 'Own', avatarUrl: 'https://pics.example/a.png?x="1"' },
      { username: `pj_site_${Date.now() % 100000}`, displayName: 'Site', avatarUrl: '/media/site.png' },
      { username: `pj_ctl_${Date.now() % 100000}`, displayName: '\u0001ctl\u0001 name' },
    ];
    for (const actor of actors) await admin.createUser(actor);
    const paths = [null, '/@someone/posts/1?a="b"&c=é', 'https://elsewhere.example/thread/1', '/'];
    const notifications = TEXTS.flatMap((text, i) =>
      actors.map((actor, j) => ({
        type: (['mention', 'reply', 'like', 'follow'] as const)[(i + j) % 4] ?? 'mention',
        text,
        actor: (i + j) % 6 === 5 ? null : actor.username,
        path: paths[(i * 5 + j) % paths.length] ?? null,
        read: (i + j) % 3 === 0,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i * 10 + j)).toISOString(),
      })),
    );
    ids.push(...(await service.notify(reader.username, notifications)));
  });
  afterAll(() => service?.close());

  /** The page as the service used to write it: each stored notification serialised by JSON.stringify. */
  async function expected(page: Page): Promise<string> {
    const data: Notification[] = [];
    for (const { id } of page.data) {
      const stored = await findNotification(service.server.database, userId, id);
      if (!stored) throw new Error(`${id} is not stored`);
      data.push(toWireNotification(stored, service.origin));
    }
    return JSON.stringify({ data, cursor: page.cursor });
  }

  async function pageText(query: string): Promise<{ text: string; page: Page }> {
    const response = await service.request(`/inbox/fetch?${query}`, { token: reader.token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const text = await response.text();
    return { text, page: JSON.parse(text) as Page };
  }

  it('writes every page of the inbox byte for byte as JSON.stringify of its notifications', async () => {
    let cursor: string | null = null;
    const seen: string[] = [];
    do {
      const { text, page }: { text: string; page: Page } = await pageText(
        `limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(text).toBe(await expected(page));
      seen.push(...page.data.map((n) => n.id));
      cursor = page.cursor;
    } while (cursor);
    expect(seen.sort()).toEqual([...ids].sort());
  });

  it('writes drawn pictures, own pictures and links as the site addresses them', async () => {
    const { page } = await pageText('limit=100');
    const actors = page.data.flatMap((n) => (n.actor ? [n.actor] : []));
    expect(actors.some((actor) => actor.avatarUrl?.startsWith(`${service.origin}/avatars/`))).toBe(true);
    expect(actors.some((actor) => actor.avatarUrl === `${service.origin}/media/site.png`)).toBe(true);
    expect(actors.some((actor) => actor.avatarUrl === 'https://pics.example/a.png?x="1"')).toBe(true);
    expect(page.data.some((n) => n.url === `${service.origin}/@someone/posts/1?a="b"&c=é`)).toBe(true);
    for (const actor of actors) expect(actor.avatarUrl ?? '').not.toContain('\u0001');
  });

  it('refuses a search, which has a statement of its own, for an altered or revoked token', async () => {
    const other = await service.newUser('pagejsonrevoked');
    const altered = `${other.token.slice(0, -1)}${other.token.endsWith('A') ? 'B' : 'A'}`;
    const status = async (token: string) => {
      const response = await service.request('/inbox/fetch?limit=5&q=quotes', { token });
      await response.arrayBuffer();
      return response.status;
    };
    expect(await status(other.token)).toBe(200);
    expect(await status(altered)).toBe(401);
    expect(await service.server.admin.revokeToken(other.token)).toBe(true);
    expect(await status(other.token)).toBe(401);
  });

  it('writes filtered, unread, searched and empty pages the same way', async () => {
    for (const query of [
      'limit=3&unreadOnly=true',
      'limit=4&types=like,follow',
      'limit=2&types=mention',
      'limit=5&q=quotes',
      `limit=5&q=${encodeURIComponent('"avatarUrl"')}`,
      'limit=5&q=nothingmatchesthis',
      'limit=5&snoozed=true',
    ]) {
      const { text, page } = await pageText(query);
      expect(text, query).toBe(await expected(page));
    }
  });
});
