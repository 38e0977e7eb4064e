import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestService, type TestService } from '../support/service';
import { holdTableLock } from './support/table-lock';

describe.each(BACKENDS)('HTTP behaviour on %s', (backend) => {
  let service: TestService;
  const lines: string[] = [];

  beforeAll(async () => {
    service = await startTestService({ backend, log: (line) => lines.push(line) });
  });
  afterAll(() => service?.close());

  async function expectProblem(response: Response, status: number, code: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const body = await response.json();
    expect(body).toEqual({ type: 'about:blank', title: expect.any(String), status, detail: expect.any(String), code });
    return body;
  }

  it('answers unknown API paths with 404 not_found, whatever the method', async () => {
    for (const [method, path] of [
      ['GET', '/nothing'],
      ['POST', '/inbox'],
      ['GET', '/inbox/count/'],
      ['DELETE', '/user'],
      ['GET', '/user/alice/followers'],
      ['PUT', '/inbox/fetch/x'],
    ] as const) {
      await expectProblem(await service.request(path, { method }), 404, 'not_found');
    }
    await expectProblem(await fetch(`${service.origin}/nothing/here`), 404, 'not_found');
  });

  it('answers an unknown site page asked for by a browser with a 404 HTML page', async () => {
    const response = await fetch(`${service.origin}/nothing/here`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('answers HEAD like GET without a body', async () => {
    const user = await service.newUser('head');
    const response = await service.request('/inbox/count', { method: 'HEAD', token: user.token });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBeTruthy();
    expect(await response.text()).toBe('');
  });

  it('refuses a body over the size limit with 413 payload_too_large, declared or streamed', async () => {
    const user = await service.newUser('big');
    const body = JSON.stringify({ ids: 'all', padding: 'x'.repeat(70 * 1024) });
    await expectProblem(
      await service.request('/inbox/read', { method: 'POST', token: user.token, body }),
      413,
      'payload_too_large',
    );
    const streamed = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    });
    const response = await service.request('/inbox/delete', {
      method: 'POST',
      token: user.token,
      body: streamed,
      duplex: 'half',
    } as RequestInit);
    await expectProblem(response, 413, 'payload_too_large');
    await service.fillInbox(user.username, 2);
    expect(await user.client.inbox.count()).toBe(2);
  });

  it('answers a JSON endpoint sent any other body type with 415 unsupported_media_type, and changes nothing', async () => {
    const user = await service.newUser('media');
    const target = await service.newUser('mediatarget');
    await service.fillInbox(user.username, 3);
    const endpoints = [
      ['/inbox/read', '{"ids":"all"}'],
      ['/inbox/delete', '{"ids":"all"}'],
      [`/user/${target.username}/report`, '{"reason":"spam","comment":""}'],
    ] as const;
    const types = [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-16',
      'application/jsonp',
      '',
    ];
    for (const [path, body] of endpoints) {
      for (const type of types) {
        const response = await service.request(path, {
          method: 'POST',
          token: user.token,
          body,
          headers: { 'content-type': type },
        });
        const problem = await expectProblem(response, 415, 'unsupported_media_type');
        expect(problem.detail, `${path} ${type}`).toContain('application/json');
        expect(response.headers.get('accept')).toBe('application/json');
      }
      // No Content-Type at all: a raw request, since fetch labels a string body itself.
      const raw = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(`${service.apiBaseUrl}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${user.token}`, 'content-length': Buffer.byteLength(body) },
        });
        request.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
        request.end(body);
      });
      expect(raw, path).toBe(415);
    }
    expect(await user.client.inbox.count()).toBe(3);
    expect(await target.client.inbox.count()).toBe(0);
    // The same bodies labelled as JSON are taken, charset or not; no body at all is the endpoint's 400.
    const read = await service.request('/inbox/read', {
      method: 'POST',
      token: user.token,
      body: '{"ids":"all"}',
      headers: { 'content-type': 'Application/JSON; charset="UTF-8"' },
    });
    expect(await read.json()).toMatchObject({ count: 3 });
    await expectProblem(
      await service.request('/inbox/delete', {
        method: 'POST',
        token: user.token,
        headers: { 'content-type': 'text/plain' },
      }),
      400,
      'invalid_ids',
    );
    expect(
      (await service.request(`/user/${target.username}/follow`, { method: 'POST', token: user.token })).status,
    ).toBe(204);
  });

  it('answers malformed escapes in paths and queries with 4xx problems, never 5xx', async () => {
    const user = await service.newUser('escapes');
    const cases: [string, number][] = [
      ['/user/%E0%A4%A', 404],
      ['/user/%', 404],
      ['/user/%00/follow', 404],
      ['/inbox/fetch?limit=%ZZ', 400],
      ['/inbox/fetch?cursor=%E0%A4%A', 400],
      ['/inbox/fetch?unreadOnly=%', 400],
    ];
    for (const [path, status] of cases) {
      const response = await service.request(path, {
        token: user.token,
        method: path.endsWith('follow') ? 'POST' : 'GET',
      });
      expect(response.status, path).toBe(status);
      expect(response.headers.get('content-type'), path).toBe('application/problem+json');
    }
  });

  it('sends JSON as application/json with nosniff and no caching of private data', async () => {
    const user = await service.newUser('headers');
    const response = await service.request('/inbox/fetch', { token: user.token });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('logs one line per request', async () => {
    const user = await service.newUser('logged');
    lines.length = 0;
    await user.client.inbox.count();
    await service.request('/nothing');
    await user.client
      .user(user.username)
      .follow()
      .catch(() => {});
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^GET \/api\/inbox\/count 200 \d+(\.\d+)?ms$/);
    expect(lines[1]).toMatch(/^GET \/api\/nothing 404 /);
    expect(lines[2]).toMatch(/^POST \/api\/user\/\w+\/follow 400 /);
    expect(lines.join('\n')).not.toContain(user.token);
  });

  it('lets a request in flight finish when it closes, then refuses new connections', async () => {
    const extra = await startTestService({ backend });
    const user = await extra.newUser('closing');
    await extra.fillInbox(user.username, 3);
    const lock = await holdTableLock(extra.server.database, 'tokens', 'ACCESS EXCLUSIVE');
    const arrived = new Promise((resolve) => extra.server.httpServer.once('request', resolve));
    const inFlight = user.client.inbox.fetch({ limit: 100 });
    await arrived;
    const closed = extra.close();
    await lock.release();
    expect((await inFlight).data).toHaveLength(3);
    await closed;
    await expect(fetch(`${extra.apiBaseUrl}/inbox/count`)).rejects.toThrow();
  });

  it('answers 503 service_unavailable without internals once the database is gone', async () => {
    const user = await service.newUser('gone');
    await service.server.database.close();
    const raw = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${service.apiBaseUrl}/inbox/count`, {
        headers: { authorization: `Bearer ${user.token}` },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(raw.status).toBe(503);
    expect(JSON.parse(raw.body)).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect(raw.body).not.toMatch(/\bat \w|\.ts:|node_modules|PGlite|pool/i);
  });
});
