import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../lib/api';
import {
  authorizationCode,
  authorizeParams,
  exchangeCode,
  newPkce,
  openAuthorize,
  submitAuthorize,
} from './support/oauth';

const root = new URL('../..', import.meta.url).pathname;
const tsx = join(root, 'node_modules/.bin/tsx');
const env = { ...process.env, DATABASE_URL: '' };

interface Started {
  child: ChildProcess;
  output: string[];
  apiBaseUrl: string;
  token: string | undefined;
  exited: Promise<number | null>;
}

/** Starts `npm run server`'s program and waits for it to print its addresses and token. */
async function startCli(args: string[]): Promise<Started> {
  const child = spawn(tsx, ['server/main.ts', '--port', '0', ...args], { cwd: root, env });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const output: string[] = [];
  let apiBaseUrl = '';
  await new Promise<void>((resolve, reject) => {
    child.on('exit', () => reject(new Error(`the service exited early:\n${output.join('\n')}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      output.push(line);
      apiBaseUrl ||= /^API:\s+(\S+)/.exec(line)?.[1] ?? '';
      if (/^Try:/.test(line) || (apiBaseUrl && args.includes('--no-seed'))) resolve();
    });
  });
  const token = output.map((line) => /^Token:\s+(\S+)/.exec(line)?.[1]).find(Boolean);
  return { child, output, apiBaseUrl, token, exited };
}

describe('the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-cli-'));
  const dataDir = join(dir, 'data');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('seeds an empty folder, prints the API and demo token, writes every demo token, and stops on SIGTERM', {
    timeout: 90_000,
  }, async () => {
    const tokensFile = join(dir, 'tokens.json');
    const cli = await startCli(['--data', dataDir, '--demo-tokens', tokensFile]);
    expect(cli.output).toContain('Seeded the demo data.');
    expect(cli.output).toContain('Sign-in: demo / demo   (every seeded user has this password)');
    expect(cli.apiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    const tokens = JSON.parse(readFileSync(tokensFile, 'utf8')) as Record<string, string>;
    expect(Object.keys(tokens).length).toBeGreaterThanOrEqual(26);
    expect(cli.token).toBe(tokens.demo);
    const [, header, url] = /^Try:\s+curl -H '([^']+)' (\S+)$/.exec(cli.output.at(-1) ?? '') ?? [];
    expect(header).toBe(`Authorization: Bearer ${cli.token}`);
    const tried = await fetch(url as string, { headers: { authorization: header?.split(': ')[1] as string } });
    const answer = (await tried.json()) as { count: number; byType: Record<string, number> };
    expect(answer.count).toBeGreaterThan(0);
    expect(Object.values(answer.byType).reduce((sum, n) => sum + n, 0)).toBe(answer.count);
    const delivered = await fetch(`${cli.apiBaseUrl}/operator/notifications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens['@operator']}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', type: 'mention', text: 'Through the operator API', actor: 'alice' }),
    });
    expect(delivered.status).toBe(201);
    const demo = createClient({ baseUrl: cli.apiBaseUrl, token: cli.token });
    expect(await demo.inbox.count()).toBeGreaterThanOrEqual(30);
    expect(await createClient({ baseUrl: cli.apiBaseUrl, token: tokens.carol }).inbox.count()).toBeGreaterThanOrEqual(
      0,
    );

    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.output.some((line) => /^GET \/api\/inbox\/count 200/.test(line))).toBe(true);
    expect(existsSync(join(dataDir, 'inbox-companion.lock'))).toBe(false);
  });

  it('issues user and operator tokens, refuses an unknown user, and serves the same data again', {
    timeout: 90_000,
  }, async () => {
    const run = promisify(execFile);
    const { stdout } = await run(tsx, ['server/main.ts', 'token', 'alice', '--data', dataDir], { cwd: root, env });
    const alice = stdout.trim();
    expect(alice).toMatch(/^\S{20,}$/);
    await expect(
      run(tsx, ['server/main.ts', 'token', 'nobody', '--data', dataDir], { cwd: root, env }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('no user called "nobody"') });

    const operator = (
      await run(tsx, ['server/main.ts', 'operator-token', '--data', dataDir], { cwd: root, env })
    ).stdout.trim();
    expect(operator).toMatch(/^op_\S{20,}$/);

    const cli = await startCli(['--data', dataDir, '--quiet', '--demo-password', 'new secret']);
    expect(cli.output).not.toContain('Seeded the demo data.');
    expect(cli.output).toContain('Sign-in: demo / new secret   (every seeded user has this password)');
    const site = { origin: new URL(cli.apiBaseUrl).origin, apiBaseUrl: cli.apiBaseUrl };
    const pkce = newPkce();
    const page = await openAuthorize(site, authorizeParams(pkce));
    expect((await submitAuthorize(site, page, { username: 'carol', password: 'demo' })).status).toBe(400);
    const { code, pkce: carolPkce } = await authorizationCode(site, { username: 'carol', password: 'new secret' });
    const exchanged = await exchangeCode(site, { code, codeVerifier: carolPkce.verifier });
    const { access_token } = (await exchanged.json()) as { access_token: string };
    expect((await createClient({ baseUrl: cli.apiBaseUrl, token: access_token }).user('carol')).self).toBe(true);
    const forbidden = await fetch(`${cli.apiBaseUrl}/operator/tokens/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json' },
      body: JSON.stringify({ token: alice }),
    });
    expect(forbidden.status).toBe(403);
    expect(cli.token).toBeTruthy();
    const profile = await createClient({ baseUrl: cli.apiBaseUrl, token: alice }).user('alice');
    expect(profile.self).toBe(true);
    expect(await createClient({ baseUrl: cli.apiBaseUrl, token: cli.token }).inbox.count()).toBeGreaterThan(0);
    await expect(
      run(tsx, ['server/main.ts', 'token', 'demo', '--data', dataDir], { cwd: root, env }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/in use by .*"Token:" line/s) });
    const revoked = await fetch(`${cli.apiBaseUrl}/operator/tokens/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
      body: JSON.stringify({ token: cli.token }),
    });
    expect(await revoked.json()).toEqual({ revoked: true });
    await expect(createClient({ baseUrl: cli.apiBaseUrl, token: cli.token }).inbox.count()).rejects.toMatchObject({
      status: 401,
    });
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
  });

  it('refuses unknown options with the usage and exit code 2', async () => {
    const run = promisify(execFile);
    await expect(run(tsx, ['server/main.ts', '--colour'], { cwd: root, env })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Usage: npm run server'),
    });
  });

  it('caps connections per client address, but not from the proxies it is told to trust', {
    timeout: 60_000,
  }, async () => {
    const cli = await startCli([
      '--memory',
      '--no-seed',
      '--quiet',
      '--max-connections-per-client',
      '2',
      '--trust-proxy',
      '127.0.0.3,10.0.0.0/8',
      '--trust-proxy',
      '127.0.0.4',
    ]);
    const port = Number(new URL(cli.apiBaseUrl).port);
    const sockets: Socket[] = [];
    /** What the service says to a connection from `from` that sends nothing, within a second. */
    const firstWords = (from: string) =>
      new Promise<string>((resolve) => {
        const socket = connect({ port, host: '127.0.0.1', localAddress: from });
        sockets.push(socket);
        let received = '';
        socket.on('data', (chunk) => {
          received += chunk;
        });
        socket.on('error', () => {});
        socket.on('close', () => resolve(received));
        setTimeout(() => resolve(received), 1_000);
      });
    try {
      expect(await Promise.all(['127.0.0.2', '127.0.0.2'].map(firstWords))).toEqual(['', '']);
      expect(await firstWords('127.0.0.2')).toMatch(/^HTTP\/1\.1 429 /);
      const proxies = ['127.0.0.3', '127.0.0.3', '127.0.0.3', '127.0.0.4', '127.0.0.4', '127.0.0.4'];
      expect(await Promise.all(proxies.map(firstWords))).toEqual(proxies.map(() => ''));
    } finally {
      for (const socket of sockets) socket.destroy();
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });

  it('refuses a proxy that is not an address or a block, or a public origin that is not one, with the usage', async () => {
    const run = promisify(execFile);
    await expect(
      run(tsx, ['server/main.ts', '--memory', '--trust-proxy', '10.0.0/8'], { cwd: root, env }),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('not "10.0.0/8"') });
    await expect(
      run(tsx, ['server/main.ts', '--memory', '--public-origin', 'inbox.example/api'], { cwd: root, env }),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--public-origin takes an origin') });
  });

  it('names the address a proxy in front serves it at', { timeout: 60_000 }, async () => {
    const cli = await startCli(['--memory', '--no-seed', '--quiet', '--public-origin', 'https://inbox.example']);
    cli.child.kill('SIGTERM');
    await cli.exited;
    expect(cli.apiBaseUrl).toBe('https://inbox.example/api');
    expect(cli.output).toContain('Site:  https://inbox.example/');
  });

  it('refuses a connection limit that is not a whole number above 0', async () => {
    const run = promisify(execFile);
    await expect(
      run(tsx, ['server/main.ts', '--memory', '--max-connections', '0'], { cwd: root, env }),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--max-connections must be a whole number') });
  });
});
