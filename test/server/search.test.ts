import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '../../lib/api/contract';
import type { Queryable } from '../../server/db/database';
import { fillInboxes, listNotifications, type PageOptions } from '../../server/store/notifications';
import { BACKENDS, startTestService, type TestService, type TestUser } from '../support/service';
import { problemOf } from './support/problem';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** The statement the service runs for a listing of `userId`'s with `options`, as it runs it. */
async function listingStatement(userId: number, options: PageOptions) {
  const statements: { sql: string; params: unknown[] }[] = [];
  const recorder: Queryable = {
    async query(sql, params = []) {
      statements.push({ sql, params: [...params] });
      return { rows: [], rowCount: 0 };
    },
  };
  await listNotifications(recorder, userId, options);
  return statements[0];
}

describe.each(BACKENDS)('search on %s', (backend) => {
  let service: TestService;
  let me: TestUser;
  let zoe: TestUser;
  let muller: TestUser;

  /** Every text a search shows, page after page of `limit`. */
  async function found(query: string, limit = 100): Promise<string[]> {
    const texts: string[] = [];
    let cursor: string | null = null;
    do {
      const after = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const response = await service.request(`/inbox/fetch?limit=${limit}&${query}${after}`, { token: me.token });
      if (response.status !== 200) throw new Error(`${query}: ${response.status} ${await response.text()}`);
      const page = (await response.json()) as { data: Notification[]; cursor: string | null };
      texts.push(...page.data.map((n) => n.text));
      cursor = page.cursor;
    } while (cursor !== null);
    return texts;
  }
  const q = (text: string) => `q=${encodeURIComponent(text)}`;

  beforeAll(async () => {
    service = await startTestService({ backend });
    me = await service.newUser('searcher');
    zoe = await service.newUser('zoe', { displayName: 'Zoë Dupont' });
    muller = await service.newUser('jm', { displayName: 'Jürgen Müller' });
    await service.notify(me.username, [
      { type: 'mention', actor: zoe.username, text: 'Café tomorrow at the Straße corner?', createdAt: minutesAgo(1) },
      { type: 'reply', actor: muller.username, text: 'The quarterly report is ready', createdAt: minutesAgo(2) },
      { type: 'like', actor: zoe.username, text: 'Zoë liked your post', read: true, createdAt: minutesAgo(3) },
      { type: 'system', text: 'Storage 100% full, 50_000 files', createdAt: minutesAgo(4) },
      { type: 'mention', actor: muller.username, text: 'RÉSUMÉ attached', createdAt: minutesAgo(5) },
    ]);
  });
  afterAll(() => service?.close());

  it('finds every word, in the text or the actor’s names, ignoring case and accents, as substrings', async () => {
    expect(await found(q('zoe'))).toEqual(['Café tomorrow at the Straße corner?', 'Zoë liked your post']);
    expect(await found(q('MULLER'))).toEqual(['The quarterly report is ready', 'RÉSUMÉ attached']);
    expect(await found(q('mul'))).toEqual(['The quarterly report is ready', 'RÉSUMÉ attached']);
    expect(await found(q('resume'))).toEqual(['RÉSUMÉ attached']);
    expect(await found(q('cafe strasse'))).toEqual(['Café tomorrow at the Straße corner?']);
    expect(await found(q('  dupont   liked '))).toEqual(['Zoë liked your post']);
    expect(await found(q('jürgen report'))).toEqual(['The quarterly report is ready']);
    expect(await found(q(zoe.username.toUpperCase()))).toHaveLength(2);
    expect(await found(q('zoe report'))).toEqual([]);
  });

  it('takes % and _ as the characters they are', async () => {
    expect(await found(q('100%'))).toEqual(['Storage 100% full, 50_000 files']);
    expect(await found(q('%'))).toEqual(['Storage 100% full, 50_000 files']);
    expect(await found(q('0_0'))).toEqual(['Storage 100% full, 50_000 files']);
    expect(await found(q('r_p'))).toEqual([]);
  });

  it('combines with unreadOnly, types, snoozed and muted', async () => {
    expect(await found(`${q('zoe')}&unreadOnly=true`)).toEqual(['Café tomorrow at the Straße corner?']);
    expect(await found(`${q('müller')}&types=mention`)).toEqual(['RÉSUMÉ attached']);
    const [resume] = (await me.client.inbox.fetch({ types: ['mention'] })).data.filter((n) => n.text.startsWith('R'));
    await me.client.inbox.snooze([resume?.id as string], new Date(Date.now() + 3_600_000));
    expect(await found(q('muller'))).toEqual(['The quarterly report is ready']);
    expect(await found(`${q('muller')}&snoozed=true`)).toEqual(['RÉSUMÉ attached']);
    await me.client.inbox.unsnooze([resume?.id as string]);
    const mute = await service.request('/inbox/mutes', {
      method: 'POST',
      token: me.token,
      body: JSON.stringify({ actor: zoe.username }),
    });
    expect(await found(q('zoe'))).toEqual([]);
    expect(await found(`${q('zoe')}&muted=true`)).toEqual([
      'Café tomorrow at the Straße corner?',
      'Zoë liked your post',
    ]);
    await service.request(`/inbox/mutes/${(await mute.json()).id}`, { method: 'DELETE', token: me.token });
  });

  it('pages through the results with a cursor bound to the search', async () => {
    expect(await found(q('e'), 1)).toEqual(await found(q('e')));
    expect((await found(q('e'), 2)).length).toBeGreaterThan(3);
    const first = await service.request(`/inbox/fetch?limit=1&${q('zoe')}`, { token: me.token });
    const { cursor } = (await first.json()) as { cursor: string };
    expect(cursor).toEqual(expect.any(String));
    const next = await service.request(`/inbox/fetch?limit=1&${q('zoe')}&cursor=${cursor}`, { token: me.token });
    expect(((await next.json()) as { data: Notification[] }).data.map((n) => n.text)).toEqual(['Zoë liked your post']);
    for (const other of [q('zoë'), q('dupont'), '', 'muted=true', `${q('zoe')}&muted=true`]) {
      const response = await service.request(`/inbox/fetch?limit=1&${other}&cursor=${cursor}`, { token: me.token });
      expect(response.status, other).toBe(400);
      expect((await problemOf(response)).code, other).toBe('invalid_cursor');
    }
    const plain = await service.request('/inbox/fetch?limit=1', { token: me.token });
    const { cursor: unsearched } = (await plain.json()) as { cursor: string };
    const bound = await service.request(`/inbox/fetch?limit=1&${q('zoe')}&cursor=${unsearched}`, { token: me.token });
    expect((await problemOf(bound)).code).toBe('invalid_cursor');
  });

  it('refuses a search that is empty once trimmed, longer than 100 characters, or given twice', async () => {
    for (const query of ['q=', `q=${encodeURIComponent('   ')}`, `q=${'a'.repeat(101)}`, 'q=a&q=b']) {
      const response = await service.request(`/inbox/fetch?${query}`, { token: me.token });
      expect(response.status, query).toBe(400);
      expect((await problemOf(response)).code, query).toBe('invalid_parameter');
    }
    expect(await found(`q=${encodeURIComponent(` ${'a'.repeat(100)} `)}`)).toEqual([]);
    const anonymous = await service.request(`/inbox/fetch?${q('zoe')}`);
    expect((await problemOf(anonymous)).code).toBe('unauthenticated');
  });

  it('looks words of 3 or more characters up in the trigram index', async () => {
    const user = await service.newUser('indexed');
    await service.fillInbox(user.username, 5_000);
    await service.notify(user.username, [{ type: 'mention', actor: zoe.username, text: 'The quarterly numbers' }]);
    await service.server.database.query('ANALYZE notifications');
    const { rows } = await service.server.database.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [
      user.username,
    ]);
    const userId = rows[0]?.id as number;
    const options = { unreadOnly: false, snoozed: false, types: null, words: ['QUARTERLY'], limit: 21, after: null };
    const statement = await listingStatement(userId, options);
    const plan = await service.server.database.query<Record<string, unknown>>(
      `EXPLAIN ${statement?.sql}`,
      statement?.params,
    );
    const text = plan.rows.map((row) => Object.values(row)[0]).join('\n');
    expect(text).toContain('notification_search_idx');
    // The few found are looked up in the listing by their key: nothing reads a whole listing.
    expect(text).not.toMatch(/Seq Scan on inbox_(listed|unread)/);
    expect((await listNotifications(service.server.database, userId, options)).map((n) => n.text)).toEqual([
      'The quarterly numbers',
    ]);
  });
  describe('in an inbox of 5,000', () => {
    let user: TestUser;
    let userId: number;
    /** The texts of the inbox in its order, newest first: `fillInbox` numbers them from the newest. */
    const inbox = Array.from({ length: 5_000 }, (_, i) => `Generated notification #${i + 1}`);

    beforeAll(async () => {
      user = await service.newUser('walked');
      await service.fillInbox(user.username, inbox.length);
      const { rows } = await service.server.database.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [
        user.username,
      ]);
      userId = rows[0]?.id as number;
    });

    // "generated" is in every one, "#1" in a page's worth of the newest 200 and more after them,
    // "#4" in a few of those and 1,111 in all, "#49" in one of them and 111 in all, "#4999" in one.
    it.each(['generated', '#1', '#4', '#49', '#4999', 'quarterly'])(
      'gives every notification with %s in the inbox’s order, page after page',
      async (word) => {
        const pages = async (limit: number) => {
          const texts: string[] = [];
          let cursor: string | null = null;
          do {
            const page = await user.client.inbox.fetch({ q: word, limit, ...(cursor ? { cursor } : {}) });
            texts.push(...page.data.map((n) => n.text));
            cursor = page.cursor;
          } while (cursor !== null);
          return texts;
        };
        const expected = inbox.filter((text) => text.toLowerCase().includes(word));
        expect(await pages(100)).toEqual(expected);
        if (expected.length <= 1_111) expect(await pages(25)).toEqual(expected);
      },
    );

    /**
     * The plan the database keeps for a statement after some runs, one for any values, run with
     * `options`: its nodes as `EXPLAIN (ANALYZE, FORMAT JSON)` gives them.
     */
    async function keptPlan(options: PageOptions): Promise<Record<string, unknown>[]> {
      const statement = await listingStatement(userId, options);
      const literal = (value: unknown) =>
        typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
      return service.server.database.transaction(async (tx) => {
        await tx.query('SET LOCAL plan_cache_mode = force_generic_plan');
        await tx.query(`PREPARE kept AS ${statement?.sql}`);
        try {
          const { rows } = await tx.query<Record<string, unknown>>(
            `EXPLAIN (ANALYZE, FORMAT JSON, TIMING OFF) EXECUTE kept(${statement?.params.map(literal).join(', ')})`,
          );
          const [explained] = Object.values(rows[0] ?? {});
          const [{ Plan }] = (typeof explained === 'string' ? JSON.parse(explained) : explained) as [
            { Plan: Record<string, unknown> },
          ];
          const nodes: Record<string, unknown>[] = [];
          const walk = (node: Record<string, unknown>) => {
            nodes.push(node);
            for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
          };
          walk(Plan);
          return nodes;
        } finally {
          await tx.query('DEALLOCATE kept');
        }
      });
    }

    it('keeps one plan for any words, which reads a few entries for a common word and the found ones for a rare one', async () => {
      const base = { snoozed: false, types: null, limit: 26, after: null };
      const searchIndex = (nodes: Record<string, unknown>[]) =>
        nodes.filter((node) => node['Index Name'] === 'notification_search_idx');
      for (const unreadOnly of [false, true]) {
        const common = await keptPlan({ ...base, unreadOnly, words: ['GENERATED'] });
        const rare = await keptPlan({ ...base, unreadOnly, words: ['#4999'] });
        for (const nodes of [common, rare]) {
          expect(nodes.filter((node) => node['Node Type'] === 'Seq Scan')).toEqual([]);
          // The listing is walked no further than 200 entries.
          for (const node of nodes.filter((n) => String(n['Relation Name']).startsWith('inbox_'))) {
            expect(node['Actual Rows']).toBeLessThanOrEqual(200);
          }
        }
        // A common word fills the page from the walk: the trigram index is never read.
        expect(searchIndex(common).map((node) => node['Actual Loops'])).toEqual([0]);
        // A rare word's page comes from the index, each found notification looked up by its key.
        expect(searchIndex(rare).map((node) => node['Actual Loops'])).toEqual([1]);
      }
    });

    it('reads none of another inbox’s notifications for a word common there and absent here', async () => {
      const neighbour = await service.newUser('neighbour');
      const { rows } = await service.server.database.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [
        neighbour.username,
      ]);
      await fillInboxes(service.server.database, [rows[0]?.id as number], 2_000, { text: 'Alpha report' });
      expect((await neighbour.client.inbox.fetch({ q: 'alpha', limit: 25 })).data).toHaveLength(25);
      expect((await user.client.inbox.fetch({ q: 'alpha', limit: 25 })).data).toEqual([]);
      const nodes = await keptPlan({
        snoozed: false,
        types: null,
        limit: 26,
        after: null,
        unreadOnly: false,
        words: ['alpha'],
      });
      const looked = nodes.filter((node) => node['Index Name'] === 'notification_search_idx');
      // The index was asked, and gave nothing: the neighbour's 2,000 are not this search's to read.
      expect(looked.map((node) => [node['Actual Loops'], node['Actual Rows']])).toEqual([[1, 0]]);
    });
  });
});
