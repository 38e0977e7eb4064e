/**
 * The live badge in Chromium with the built extension: notifications made through the operator
 * API reach the badge with no alarm fired, after a restart of the service, and across two
 * service instances on one PostgreSQL database.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type ExtensionBrowser, launchWithExtension } from '../../scripts/chromium';
import { startTestService, type TestService, type TestServiceOptions } from '../support/service';
import { hasChromium } from './support/product';

const postgres = process.env.DATABASE_URL;

/** The longest backoff step the extension can be in after a few seconds of downtime (1, 2, 4, 8 s). */
const ONE_BACKOFF_STEP_MS = 8_000;

interface Setup {
  browser: ExtensionBrowser;
  badgeText(): Promise<string>;
  badgeTitle(): Promise<string>;
  /** Signs the extension in to this service, and waits until its badge is live. */
  signIn(service: TestService): Promise<void>;
  close(): Promise<void>;
}

async function launch(): Promise<Setup> {
  const browser = await launchWithExtension();
  const { worker } = browser;
  const badgeTitle = () => worker.evaluate(() => chrome.action.getTitle({}));
  const setup: Setup = {
    browser,
    badgeText: () => worker.evaluate(() => chrome.action.getBadgeText({})),
    badgeTitle,
    async signIn(service) {
      const token = await service.tokenFor('demo');
      const settings = {
        apiBaseUrl: service.apiBaseUrl,
        siteOrigin: service.origin,
        profilePath: '/@:username',
        profileAnchor: '[data-profile-actions]',
        pollIntervalSeconds: 60,
        desktopNotifications: false,
        unreadOnly: false,
      };
      // Storing the settings makes the background check the count at once, and open the channel.
      await worker.evaluate(
        async ({ settings, token, apiOrigin }) => {
          await chrome.storage.local.set({ token: { token, apiOrigin } });
          await chrome.storage.local.set({ settings });
        },
        { settings, token, apiOrigin: new URL(service.apiBaseUrl).origin },
      );
      await waitFor(async () => (await badgeTitle()).includes('Live:'), 10_000, 'the badge to go live');
    },
    close: () => browser.close(),
  };
  return setup;
}

/** Polls `check` until it holds; fails once `within` ms have passed. */
async function waitFor(check: () => Promise<boolean>, within: number, what: string): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > within) throw new Error(`Waited ${within} ms for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return Date.now() - started;
}

async function operatorNotify(service: TestService, text: string): Promise<void> {
  const operator = await service.server.admin.issueOperatorToken();
  const answer = await fetch(`${service.apiBaseUrl}/operator/notifications`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', type: 'mention', text, actor: 'alice' }),
  });
  expect(answer.status).toBe(201);
}

const unread = async (service: TestService) =>
  String(await service.client(await service.tokenFor('demo')).inbox.count());

describe.runIf(hasChromium)('the live badge in Chromium', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  const requests: string[] = [];
  const counted = () => requests.filter((line) => line.startsWith('GET /api/inbox/count')).length;
  const log = (line: string) => requests.push(line);

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
    requests.length = 0;
  });

  it('moves the badge within 2 s of an operator call, with no alarm fired and no check of the count', async () => {
    const service = await startTestService({ seed: true, log });
    cleanups.push(() => service.close());
    const setup = await launch();
    cleanups.push(() => setup.close());
    await setup.signIn(service);
    expect(await setup.badgeText()).toBe(await unread(service));

    const checks = counted();
    const before = Number(await setup.badgeText());
    await operatorNotify(service, 'Pushed to the badge');
    await waitFor(async () => (await setup.badgeText()) === String(before + 1), 2_000, 'the badge to rise');
    expect(counted()).toBe(checks);
    expect(await setup.badgeTitle()).toContain(`${before + 1} unread notifications`);
  });

  it('is right again within one backoff step after the service restarts', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'inbox-live-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const schema = `e2e_live_${randomBytes(5).toString('hex')}`;
    const options: TestServiceOptions = postgres
      ? { backend: 'postgres', schema, seed: true, log }
      : { backend: 'pglite', dataDir: folder, seed: true, log };
    if (postgres) cleanups.push(() => dropSchema(schema));
    let service = await startTestService(options);
    cleanups.push(() => service.close());
    const setup = await launch();
    cleanups.push(() => setup.close());
    await setup.signIn(service);

    const { port } = service.server;
    await service.close();
    service = await startTestService({ ...options, port });
    await operatorNotify(service, 'Made while the extension was reconnecting');
    const expected = await unread(service);
    await waitFor(
      async () => (await setup.badgeText()) === expected && (await setup.badgeTitle()).includes('Live:'),
      ONE_BACKOFF_STEP_MS,
      'the badge to be live and right again',
    );
  });

  it.runIf(postgres)(
    'carries a notification made through one service instance to a browser connected to another',
    async () => {
      const schema = `e2e_live_${randomBytes(5).toString('hex')}`;
      cleanups.push(() => dropSchema(schema));
      const first = await startTestService({ backend: 'postgres', schema, seed: true });
      cleanups.push(() => first.close());
      const second = await startTestService({ backend: 'postgres', schema, seed: false, log });
      cleanups.push(() => second.close());
      const setup = await launch();
      cleanups.push(() => setup.close());
      await setup.signIn(second);

      const checks = counted();
      const before = Number(await setup.badgeText());
      await operatorNotify(first, 'Made through the other instance');
      await waitFor(async () => (await setup.badgeText()) === String(before + 1), 2_000, 'the badge to rise');
      expect(counted()).toBe(checks);
    },
  );

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });
});

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgres });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
