/**
 * Polling cost: the background's real poller, in Node on WXT's fake browser, against the real
 * service for one simulated hour of an unchanged inbox, once with conditional requests and once
 * with them turned off. The clock jumps to each alarm the poller sets, so the hour takes seconds
 * and the schedule (the person's interval, the service's X-Poll-Interval) is the product's own.
 */
import { execFile } from 'node:child_process';
import type { Socket } from 'node:net';
import { promisify } from 'node:util';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { startServer } from '../server/index';
import { installFakePermissions } from '../test/support/fake-apis';
import type { Figure, Section } from './support/report';

const HOUR = 3_600_000;
/** The one account the hour is polled for. */
const ACCOUNT = 'bench';
const START = Date.parse('2026-11-21T09:00:00Z');
const UNREAD = 12;

interface HourOfPolling {
  requests: number;
  /** Bytes on the wire both ways: request line, headers and bodies. */
  wireBytes: number;
  /** Bytes of answer bodies the poller received. */
  bodyBytes: number;
  statuses: Record<number, number>;
}

/**
 * The extension APIs resolve `chrome` when first imported, so the fake goes in before any of
 * them: this works only in a process where nothing imported them yet.
 */
async function extensionModules() {
  (globalThis as { chrome?: unknown }).chrome = fakeBrowser;
  // The background keeps tokens in IndexedDB, which Node has not.
  const { indexedDB, IDBKeyRange } = await import('fake-indexeddb');
  Object.assign(globalThis, { indexedDB, IDBKeyRange });
  const [poller, session, settings, permissions, accounts] = await Promise.all([
    import('../lib/background/poller'),
    import('../lib/background/api-session'),
    import('../lib/settings'),
    import('../lib/permissions'),
    import('../lib/background/account-store'),
  ]);
  const { settingsItem } = await import('../lib/background/stored-items');
  return { ...poller, ...session, ...settings, ...permissions, ...accounts, settingsItem };
}

async function pollForAnHour(apiBaseUrl: string, token: string, conditional: boolean, sockets: Set<Socket>) {
  const lib = await extensionModules();
  fakeBrowser.reset();
  Object.assign(fakeBrowser.i18n, { getMessage: () => '', getUILanguage: () => 'en' });
  installFakePermissions({ origins: [lib.originPattern(apiBaseUrl)] });
  await lib.settingsItem.setValue(lib.DEFAULT_SETTINGS);
  const addresses = { ...lib.DEFAULT_SETTINGS, apiBaseUrl, siteOrigin: new URL(apiBaseUrl).origin };
  await lib.addAccount(addresses, token, ACCOUNT);

  const hour: HourOfPolling = { requests: 0, wireBytes: 0, bodyBytes: 0, statuses: {} };
  let counting = false;
  const countingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (counting) {
      hour.requests += 1;
      hour.statuses[response.status] = (hour.statuses[response.status] ?? 0) + 1;
      hour.bodyBytes += (await response.clone().arrayBuffer()).byteLength;
    }
    return response;
  };
  let clock = START;
  const poller = lib.createPoller({
    session: lib.createSession(ACCOUNT, { fetch: countingFetch, retries: 0 }),
    now: () => clock,
    isOnline: () => true,
    conditional,
  });

  // The first check learns the count; the hour measured is the steady state after it.
  const first = await poller.poll();
  if (first.kind !== 'ok') throw new Error(`The first poll ended ${JSON.stringify(first)}.`);
  const wireBefore = wireBytes(sockets);
  counting = true;
  let end = Number.POSITIVE_INFINITY;
  for (;;) {
    const alarm = await fakeBrowser.alarms.get(lib.pollAlarmName(ACCOUNT));
    if (!alarm) throw new Error('The poller scheduled no next check.');
    end = Math.min(end, alarm.scheduledTime + HOUR);
    if (alarm.scheduledTime >= end) break;
    clock = alarm.scheduledTime;
    const status = await poller.poll();
    if (status.kind !== 'ok' || status.count !== UNREAD) throw new Error(`A poll ended ${JSON.stringify(status)}.`);
  }
  counting = false;
  hour.wireBytes = wireBytes(sockets) - wireBefore;
  return hour;
}

const wireBytes = (sockets: Set<Socket>) =>
  [...sockets].reduce((sum, socket) => sum + socket.bytesRead + socket.bytesWritten, 0);

/** Measures in a process of its own, where the fake extension API is the first one loaded. */
export async function measurePolling(): Promise<Section> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'bench/support/polling-process.ts'],
    {
      maxBuffer: 1024 * 1024,
    },
  );
  return JSON.parse(stdout) as Section;
}

export async function measurePollingInThisProcess(): Promise<Section> {
  const server = await startServer({ port: 0, database: { memory: true }, seed: false });
  const sockets = new Set<Socket>();
  server.httpServer.on('connection', (socket: Socket) => sockets.add(socket));
  try {
    await server.admin.createUser({ username: 'bench', displayName: 'Bench' });
    await server.admin.fillInbox('bench', UNREAD);
    const token = await server.admin.issueToken('bench');
    const withEtag = await pollForAnHour(server.apiBaseUrl, token, true, sockets);
    const without = await pollForAnHour(server.apiBaseUrl, token, false, sockets);
    const how = 'one simulated hour, default settings';
    const figures: Figure[] = [
      { name: 'checks per hour', value: withEtag.requests, unit: 'count', how },
      { name: 'wire bytes per hour, conditional', value: withEtag.wireBytes, unit: 'bytes', how: 'both ways' },
      { name: 'wire bytes per hour, unconditional', value: without.wireBytes, unit: 'bytes', how: 'both ways' },
      {
        name: 'conditional ÷ unconditional wire bytes',
        value: withEtag.wireBytes / without.wireBytes,
        unit: 'ratio',
        how: 'same run',
      },
      {
        name: 'body bytes per unchanged check, conditional',
        value: withEtag.bodyBytes / withEtag.requests,
        unit: 'bytes',
        how: 'answer bodies',
        target: 0,
      },
      {
        name: 'body bytes per unchanged check, unconditional',
        value: without.bodyBytes / without.requests,
        unit: 'bytes',
        how: 'answer bodies',
      },
    ];
    return { id: 'polling', title: 'Polling an unchanged inbox', figures, details: { withEtag, without } };
  } finally {
    await server.close();
  }
}
