import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../lib/api';
import { DISCOVERY_PATH, OAUTH_CLIENT_ID } from '../../lib/api/oauth-contract';
import { createApp } from '../../server/app';
import { openApiJson } from '../../server/openapi';
import { BACKENDS, startTestService, type TestService } from '../support/service';
import { occupyDatabase } from './support/busy-database';
import { schemaErrors } from './support/json-schema';
import { newTicket, openLive, refusal } from './support/live';
import { authorizationCode, CHROME_REDIRECT } from './support/oauth';

type Operation = { responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> };
type PathItem = Record<string, Operation> & { servers?: { url: string }[] };
type Document = { paths: Record<string, PathItem> } & Record<string, unknown>;

const checkedIn = readFileSync(new URL('../../server/openapi.json', import.meta.url), 'utf8');
const document = JSON.parse(checkedIn) as Document;
const METHODS = ['get', 'post', 'delete', 'put', 'patch'];

const documentedOperations = () =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );

/** A path documented with a server of its own lives on the site origin, outside the API. */
const onSite = (template: string) => document.paths[template]?.servers !== undefined;

describe('the OpenAPI document', () => {
  it('is the one built from the contract module (run `npx tsx server/openapi.ts` after changing either)', () => {
    expect(checkedIn).toBe(openApiJson());
  });

  it('passes Redocly’s recommended lint with no error, and names every operation', () => {
    const cli = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));
    const file = fileURLToPath(new URL('../../server/openapi.json', import.meta.url));
    const output = execFileSync(process.execPath, [cli, 'lint', '--format=json', file], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { problems } = JSON.parse(output) as { problems: { ruleId: string; severity: string; message: string }[] };
    const errors = problems.filter((problem) => problem.severity === 'error');
    expect(errors).toEqual([]);
    expect(problems.filter((problem) => problem.ruleId === 'operation-operationId')).toEqual([]);
  });

  it('names exactly the API routes the service has, and the site paths it documents on the site origin', () => {
    const app = createApp({} as Parameters<typeof createApp>[0]);
    const sitePaths = Object.keys(document.paths).filter(onSite);
    const routed = app.routes
      .filter((route) => (route.path.startsWith('/api/') || sitePaths.includes(route.path)) && route.method !== 'ALL')
      .map((route) => `${route.method} ${route.path.replace(/^\/api\//, '/').replace(/:(\w+)/g, '{$1}')}`);
    expect(new Set(routed)).toEqual(new Set(documentedOperations()));
  });
});

describe.each(BACKENDS)('the OpenAPI document against the service on %s', (backend) => {
  let service: TestService;
  const seen = new Set<string>();

  beforeAll(async () => {
    service = await startTestService({ backend, healthTimeoutMs: 300 });
  });
  afterAll(() => service?.close());

  /** Sends a request and checks the answer is documented for the operation, body and all. */
  async function check(method: string, template: string, path: string, init: RequestInit & { token?: string } = {}) {
    const response = onSite(template)
      ? await fetch(`${service.origin}${path}`, { ...init, method })
      : await service.request(path, { ...init, method });
    const operation = document.paths[template]?.[method.toLowerCase()];
    expect(operation, `${method} ${template}`).toBeDefined();
    const documented = operation?.responses[String(response.status)];
    expect(documented, `${method} ${path} answered ${response.status}`).toBeDefined();
    seen.add(`${method} ${template} ${response.status}`);
    const type = response.headers.get('content-type')?.split(';')[0] ?? null;
    const content = documented?.content;
    if (!content) {
      expect(await response.text()).toBe('');
      return response;
    }
    expect(Object.keys(content)).toContain(type);
    const errors = schemaErrors(await response.json(), content[type as string]?.schema ?? {}, document);
    expect(errors, `${method} ${path}`).toEqual([]);
    return response;
  }

  /** Opens the live channel with a ticket: the upgrade (101) or the refusal is documented. */
  async function checkUpgrade(ticket: string) {
    const answer = await refusal(service, ticket);
    const documented = document.paths['/inbox/live']?.get?.responses[String(answer.status)];
    expect(documented, `the upgrade answered ${answer.status}`).toBeDefined();
    seen.add(`GET /inbox/live ${answer.status}`);
    const schema = documented?.content?.['application/problem+json']?.schema;
    if (schema) expect(schemaErrors(answer.body, schema, document)).toEqual([]);
  }

  it('describes every answer of every operation, and every documented answer occurs', async () => {
    const me = await service.newUser('doc');
    const other = await service.newUser('docother');
    const actor = await service.newUser('docactor');
    await service.notify(me.username, [
      { type: 'follow', actor: actor.username, text: 'followed you' },
      { type: 'system', text: 'system' },
    ]);
    await service.fillInbox(me.username, 3);
    const auth = { token: me.token };
    const json = (body: unknown) => ({ ...auth, body: JSON.stringify(body) });

    const first = await check('GET', '/inbox/fetch', '/inbox/fetch?limit=2', auth);
    const { cursor } = await first.json().catch(() => ({ cursor: null }));
    await check('GET', '/inbox/fetch', `/inbox/fetch?limit=2&cursor=${cursor ?? ''}`, auth);
    await check('GET', '/inbox/fetch', '/inbox/fetch?limit=0', auth);
    await check('GET', '/inbox/fetch', '/inbox/fetch');

    const count = await check('GET', '/inbox/count', '/inbox/count', auth);
    await check('GET', '/inbox/count', '/inbox/count', {
      ...auth,
      headers: { 'if-none-match': count.headers.get('etag') as string },
    });
    await check('GET', '/inbox/count', '/inbox/count');

    for (const path of ['/inbox/read', '/inbox/delete', '/inbox/unread']) {
      await check('POST', path, path, json({ ids: [crypto.randomUUID()] }));
      await check('POST', path, path, json({ ids: 'ALL' }));
      await check('POST', path, path, { body: '{"ids":"all"}' });
      await check('POST', path, path, { ...json({ ids: 'all' }), headers: { 'content-type': 'text/plain' } });
    }
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    await check('POST', '/inbox/snooze', '/inbox/snooze', json({ ids: [crypto.randomUUID()], until: inAnHour }));
    await check('POST', '/inbox/snooze', '/inbox/snooze', json({ ids: [crypto.randomUUID()], until: '2020-01-01' }));
    await check('POST', '/inbox/snooze', '/inbox/snooze', { body: JSON.stringify({ ids: [], until: inAnHour }) });
    await check('POST', '/inbox/snooze', '/inbox/snooze', {
      ...json({ ids: [], until: inAnHour }),
      headers: { 'content-type': 'text/plain' },
    });
    await check('POST', '/inbox/unsnooze', '/inbox/unsnooze', json({ ids: [crypto.randomUUID()] }));
    await check('POST', '/inbox/unsnooze', '/inbox/unsnooze', json({ ids: 'all' }));
    await check('POST', '/inbox/unsnooze', '/inbox/unsnooze', { body: '{"ids":[]}' });
    await check('POST', '/inbox/unsnooze', '/inbox/unsnooze', {
      ...json({ ids: [] }),
      headers: { 'content-type': 'text/plain' },
    });
    await check('GET', '/inbox/fetch', '/inbox/fetch?snoozed=true&types=mention,reply', auth);
    const [firstId = ''] = (await me.client.inbox.fetch()).data.map((n) => n.id);
    const { undo } = await me.client.inbox.markRead([firstId]);
    await check('POST', '/inbox/undo', '/inbox/undo', json({ undo }));
    await check('POST', '/inbox/undo', '/inbox/undo', json({ undo }));
    await check('POST', '/inbox/undo', '/inbox/undo', json({ undo: 'forged.token' }));
    await check('POST', '/inbox/undo', '/inbox/undo', { body: JSON.stringify({ undo }) });
    await check('POST', '/inbox/undo', '/inbox/undo', { ...json({ undo }), headers: { 'content-type': 'text/plain' } });

    await check('GET', '/me', '/me', auth);
    await check('GET', '/me', '/me');
    const profile = '/user/{username}';
    await check('GET', profile, `/user/${other.username}`);
    await check('GET', profile, `/user/${other.username}`, auth);
    await check('GET', profile, `/user/${other.username}`, { token: 'revoked.or.unknown' });
    await check('GET', profile, '/user/nobody_at_all');

    const follow = '/user/{username}/follow';
    for (const method of ['POST', 'DELETE']) {
      await check(method, follow, `/user/${other.username}/follow`, auth);
      await check(method, follow, `/user/${other.username}/follow`, auth);
      await check(method, follow, `/user/${other.username}/follow`);
      await check(method, follow, '/user/nobody_at_all/follow', auth);
      await check(method, follow, `/user/${other.username}/follow`, {
        ...json({}),
        headers: { 'content-type': 'text/plain' },
      });
    }
    const flooder = await service.newUser('docflood');
    for (let i = 0; i < LIMITS.followCallsPerHour; i++) {
      await flooder.client.user(other.username)[i % 2 === 0 ? 'follow' : 'unfollow']();
    }
    for (const method of ['POST', 'DELETE']) {
      await check(method, follow, `/user/${other.username}/follow`, { token: flooder.token });
    }

    const report = '/user/{username}/report';
    await check('POST', report, `/user/${other.username}/report`, json({ reason: 'boring', comment: '' }));
    await check('POST', report, `/user/${other.username}/report`, { body: '{}' });
    await check('POST', report, `/user/${other.username}/report`, {
      ...json({ reason: 'spam', comment: '' }),
      headers: { 'content-type': 'text/plain' },
    });
    await check('POST', report, '/user/nobody_at_all/report', json({ reason: 'spam', comment: '' }));
    for (let i = 0; i <= LIMITS.reportsPerHour; i++) {
      await check('POST', report, `/user/${other.username}/report`, json({ reason: 'spam', comment: `${i}` }));
    }
    await check('POST', '/inbox/live/ticket', '/inbox/live/ticket', auth);
    await check('POST', '/inbox/live/ticket', '/inbox/live/ticket');
    await check('POST', '/inbox/live/ticket', '/inbox/live/ticket', {
      ...json({}),
      headers: { 'content-type': 'text/plain' },
    });
    await check('GET', '/inbox/live', '/inbox/live?ticket=none');
    await checkUpgrade(await newTicket(service, me.token));
    await checkUpgrade('not-a-ticket');
    // A user with all the channels they may have: the next ticket, and one taken before, are refused.
    const held = await newTicket(service, me.token);
    const channels = [];
    for (let i = 0; i < LIMITS.liveChannelsPerUser; i++) channels.push(await openLive(service, me.token));
    await check('POST', '/inbox/live/ticket', '/inbox/live/ticket', auth);
    await checkUpgrade(held);
    for (const channel of channels) channel.close();

    const operator = { token: await service.operatorToken() };
    const notification = { username: me.username, type: 'system', text: 'From the operator' };
    const notifications = '/operator/notifications';
    await check('POST', notifications, notifications, { ...operator, body: JSON.stringify(notification) });
    await check('POST', notifications, notifications, {
      ...operator,
      body: JSON.stringify({ ...notification, text: '' }),
    });
    await check('POST', notifications, notifications, { body: JSON.stringify(notification) });
    await check('POST', notifications, notifications, json(notification));
    await check('POST', notifications, notifications, {
      ...operator,
      body: JSON.stringify(notification),
      headers: { 'content-type': 'text/plain' },
    });
    await check('POST', notifications, notifications, {
      ...operator,
      body: JSON.stringify({ ...notification, username: 'nobody_at_all' }),
    });
    const revoke = '/operator/tokens/revoke';
    const spare = await service.server.admin.issueToken(other.username);
    await check('POST', revoke, revoke, { ...operator, body: JSON.stringify({ token: spare }) });
    await check('POST', revoke, revoke, { ...operator, body: '{}' });
    await check('POST', revoke, revoke, { body: JSON.stringify({ token: spare }) });
    await check('POST', revoke, revoke, json({ token: spare }));
    await check('POST', revoke, revoke, { ...operator, body: '{}', headers: { 'content-type': 'text/plain' } });

    const mutes = '/inbox/mutes';
    await check('POST', mutes, mutes, json({ actor: actor.username }));
    const listed = await service.request(mutes, auth);
    const [{ id: muteId }] = (await listed.json()).data;
    await check('POST', mutes, mutes, json({ actor: actor.username, until: null }));
    await check('POST', mutes, mutes, json({ actor: me.username }));
    await check('POST', mutes, mutes, json({ actor: 'nobody_at_all' }));
    await check('POST', mutes, mutes, { body: JSON.stringify({ actor: actor.username }) });
    await check('POST', mutes, mutes, {
      ...json({ actor: actor.username }),
      headers: { 'content-type': 'text/plain' },
    });
    await service.server.database.query(
      `INSERT INTO mutes (user_id, path)
       SELECT u.id, 'https://example.org/' || g FROM users u, generate_series(1, $2::int) g WHERE u.username = $1`,
      [me.username, LIMITS.mutesPerUser],
    );
    await check('POST', mutes, mutes, json({ url: 'https://example.org/one/more' }));
    await check('GET', mutes, mutes, auth);
    await check('GET', mutes, mutes);
    await check('GET', '/inbox/fetch', '/inbox/fetch?muted=true&q=followed', auth);
    const oneMute = '/inbox/mutes/{id}';
    await check('DELETE', oneMute, `/inbox/mutes/${muteId}`, auth);
    await check('DELETE', oneMute, `/inbox/mutes/${muteId}`, auth);
    await check('DELETE', oneMute, `/inbox/mutes/${muteId}`);
    await check('DELETE', oneMute, `/inbox/mutes/${muteId}`, {
      ...json({}),
      headers: { 'content-type': 'text/plain' },
    });
    const policy = '/inbox/policy';
    await check('GET', policy, policy, auth);
    await check('GET', policy, policy);
    await check('PUT', policy, policy, json({ strangers: 'mute' }));
    await check('PUT', policy, policy, json({ strangers: 'maybe' }));
    await check('PUT', policy, policy, { body: JSON.stringify({ strangers: 'mute' }) });
    await check('PUT', policy, policy, { ...json({ strangers: 'mute' }), headers: { 'content-type': 'text/plain' } });
    await check('PUT', policy, policy, json({ strangers: 'accept' }));

    await check('GET', '/openapi.json', '/openapi.json');
    await check('GET', DISCOVERY_PATH, DISCOVERY_PATH);
    await check('GET', '/health', '/health');
    const busy = await occupyDatabase(service.server.database);
    await check('GET', '/health', '/health').finally(() => busy.release());

    await service.server.admin.setPassword(me.username, 'a password');
    const { code, pkce } = await authorizationCode(service, { username: me.username, password: 'a password' });
    const form = (fields: Record<string, string>) => ({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const exchange = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CHROME_REDIRECT,
      client_id: OAUTH_CLIENT_ID,
      code_verifier: pkce.verifier,
    };
    await check('POST', '/oauth/token', '/oauth/token', form(exchange));
    await check('POST', '/oauth/token', '/oauth/token', form(exchange));
    await check('POST', '/oauth/token', '/oauth/token', { body: JSON.stringify(exchange) });
    const revoked = await service.server.admin.issueToken(me.username);
    await check('POST', '/oauth/revoke', '/oauth/revoke', form({ token: revoked }));
    await check('POST', '/oauth/revoke', '/oauth/revoke', form({}));
    await check('POST', '/oauth/revoke', '/oauth/revoke', { body: JSON.stringify({ token: revoked }) });

    // Every POST and DELETE that takes an Idempotency-Key: a key used before for another request is
    // refused, and on PostgreSQL one whose first request still runs (its lock held here) is too.
    const keyed = Object.entries(document.paths).flatMap(([template, item]) =>
      Object.entries(item)
        .filter(([, operation]) =>
          JSON.stringify((operation as { parameters?: unknown }).parameters ?? []).includes('IdempotencyKey'),
        )
        .map(([method]) => ({ method: method.toUpperCase(), template })),
    );
    const ownerOf = async (token: string) => {
      if (token.startsWith('op_')) return `operator:${token.slice(3).split('.')[0]}`;
      const found = await service.server.database.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [
        me.username,
      ]);
      return `user:${found.rows[0]?.id}`;
    };
    const keyedCall = (template: string, key: string) => {
      const token = template.startsWith('/operator/') ? operator.token : me.token;
      const path = template.replace('{username}', other.username);
      const init = { token, headers: { 'idempotency-key': key }, body: '{}' };
      return { token, path, init };
    };
    for (const { method, template } of keyed) {
      const key = crypto.randomUUID();
      const { token, path, init } = keyedCall(template, key);
      const [seedPath, seedBody] = token === me.token ? ['/inbox/read', { ids: [] }] : [revoke, { token: 'unknown' }];
      await service.request(seedPath, { method: 'POST', ...init, body: JSON.stringify(seedBody) });
      await check(method, template, path, init);
    }
    if (backend === 'postgres') {
      const key = crypto.randomUUID();
      await service.server.database.transaction(async (tx) => {
        for (const token of [me.token, operator.token]) {
          // The lock a request takes while it runs with this caller's key.
          await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${await ownerOf(token)} ${key}`]);
        }
        for (const { method, template } of keyed) {
          const { path, init } = keyedCall(template, key);
          await check(method, template, path, init);
        }
      });
    }

    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([key]) => METHODS.includes(key))
        .flatMap(([method, operation]) =>
          Object.keys((operation as Operation).responses).map((status) => `${method.toUpperCase()} ${path} ${status}`),
        ),
    );
    // PGlite runs one transaction at a time: a request never finds its key still in use there.
    const inProgress = new Set(keyed.map(({ method, template }) => `${method} ${template} 409`));
    expect([...seen].sort()).toEqual(
      documented.filter((each) => backend === 'postgres' || !inProgress.has(each)).sort(),
    );
  });

  it('is served at /api/openapi.json', async () => {
    const response = await service.request('/openapi.json');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(document);
  });

  it('answers 405 with the documented methods in Allow for every other method on a documented path', async () => {
    for (const [template, item] of Object.entries(document.paths)) {
      const path = template.replace('{username}', 'alice').replace('{id}', crypto.randomUUID());
      const allowed = Object.keys(item)
        .filter((key) => METHODS.includes(key))
        .map((m) => m.toUpperCase());
      for (const method of ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS']) {
        if (allowed.includes(method)) continue;
        const response = onSite(template)
          ? await fetch(`${service.origin}${path}`, { method })
          : await service.request(path, { method });
        expect(response.status, `${method} ${path}`).toBe(405);
        const allow = (response.headers.get('allow') ?? '').split(/,\s*/);
        expect(new Set(allow)).toEqual(new Set([...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])]));
        expect((await response.json()).code).toBe('method_not_allowed');
      }
    }
  });
});
