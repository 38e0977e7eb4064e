/**
 * `npm start`: the whole product on this machine. Starts the reference service with demo data,
 * builds the extension preconfigured for it (its address and the demo user's token, in this
 * build only), and opens Chromium with the extension loaded where there is a display and a
 * Chromium. Ctrl-C stops everything.
 *
 *   npm start [-- --port 8787 --memory --no-browser]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'wxt';
import { curlExample, DEMO_PASSWORD, startServer } from '../server/index';
import { extensionArgs, findChromium, pinExtension } from './chromium';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    memory: { type: 'boolean', default: false },
    'no-browser': { type: 'boolean', default: false },
  },
});

const DATA_DIR = resolve('.data');
const EXTENSION_DIR = resolve('.output/chrome-mv3-dev');
const say = (line = '') => process.stdout.write(`${line}\n`);

function hasDisplay(): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

const server = await startServer({
  port: Number(values.port),
  database: values.memory ? { memory: true } : { dataDir: DATA_DIR },
  seed: true,
  log: false,
  // Someone mentions, replies to, likes or follows demo about once a minute: the badge moves live.
  demoActivitySeconds: 60,
});
const token = server.demoTokens?.demo ?? (await server.admin.issueToken('demo'));

say(`Reference service: ${server.origin} (API ${server.apiBaseUrl}, data ${values.memory ? 'in memory' : DATA_DIR})`);
say('Building the extension for it…');
process.env.WXT_PRESET_API_BASE_URL = server.apiBaseUrl;
process.env.WXT_PRESET_SITE_ORIGIN = server.origin;
process.env.WXT_PRESET_TOKEN = token;
await build({ mode: 'development' });

let browser: ChildProcess | null = null;
const chromium = findChromium();
say();
say(`Signed in as demo. Unpacked extension: ${EXTENSION_DIR}`);
if (!values['no-browser'] && chromium && hasDisplay()) {
  // The browser profile keeps the extension's token; it lives beside the data it belongs to, so
  // an in-memory service, whose tokens die with it, gets a fresh profile each time.
  const profile = values.memory
    ? mkdtempSync(resolve(tmpdir(), 'inbox-companion-'))
    : resolve(DATA_DIR, 'chromium-profile');
  mkdirSync(profile, { recursive: true });
  pinExtension(profile, EXTENSION_DIR);
  browser = spawn(
    chromium,
    [...extensionArgs(EXTENSION_DIR), `--user-data-dir=${profile}`, `${server.origin}/@alice`],
    { stdio: 'ignore' },
  );
  say(`Opened ${chromium} with the extension loaded. Its toolbar button shows demo's unread count.`);
} else {
  say(
    !chromium
      ? 'No Chromium or Chrome found, so none was opened.'
      : values['no-browser']
        ? 'Not opening a browser (--no-browser).'
        : 'This machine has no display, so no browser was opened.',
  );
  say('To use the extension in Chrome or Chromium:');
  say('  1. open chrome://extensions and turn on Developer mode');
  say(`  2. click "Load unpacked" and choose ${EXTENSION_DIR}`);
  say(`  3. visit ${server.origin}/@alice for the in-page buttons, and click the toolbar button for the inbox`);
}
say();
say(`Token: ${token}   (user demo${values.memory ? ', valid while this service runs' : ''})`);
say(`Try:   ${curlExample(server.apiBaseUrl, token)}`);
say(`Sign-in: demo / ${DEMO_PASSWORD}   (every seeded user has this password, for signing in through the browser)`);
say();
say(`The service keeps running at ${server.origin}. Press Ctrl-C to stop.`);

let stopping = false;
async function stop() {
  if (stopping) process.exit(1);
  stopping = true;
  say('\nStopping…');
  browser?.kill('SIGTERM');
  await server.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
browser?.on('exit', () => say('The browser was closed; the service keeps running. Press Ctrl-C to stop.'));
