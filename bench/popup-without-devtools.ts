/**
 * The popup's warm openings as people's browsers make them. Playwright attaches to every new page
 * before it loads, and its client adds to each opening; no person's browser does that. A product
 * is signed in through Playwright on a profile folder of its own and its popup opened until it
 * keeps its first screen; the browser is closed and Chromium started again on that folder with a
 * DevTools port. Through it the bench opens each popup tab without attaching to it, and reads the
 * popup's marks once it has loaded; the floor is measured as `parsedWithoutScripts` does it
 * (attached, scripts off), in the same round.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { FIRST_ROW_MARK, INTERACTIVE_MARK } from '../components/popup/first-row-mark';
import { E2E_EXTENSION_DIR, extensionArgs, findChromium } from '../scripts/chromium';
import { startProduct } from '../test/e2e/support/product';
import { waitUntil } from '../test/e2e/support/wait';
import { openPopupTimed } from './popup-opening';

/** Long enough for an opening to have painted and taken over; the tab is read only then. */
const SETTLE_MS = 1_000;

interface Marks {
  firstRow?: number;
  interactive?: number;
  parsed: number;
}

const READ_MARKS = `JSON.stringify({
  firstRow: performance.getEntriesByName(${JSON.stringify(FIRST_ROW_MARK)})[0]?.startTime,
  interactive: performance.getEntriesByName(${JSON.stringify(INTERACTIVE_MARK)})[0]?.startTime,
  parsed: performance.getEntriesByType('navigation')[0]?.domInteractive,
})`;

/** A DevTools connection to the browser: commands in, answers out, one session per attached tab. */
async function connect(port: number) {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let last = 0;
  const waiting = new Map<number, (answer: { result?: unknown; error?: { message: string } }) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id !== undefined) waiting.get(message.id)?.(message);
    if (message.id !== undefined) waiting.delete(message.id);
  });
  const send = <R>(method: string, params: object = {}, sessionId?: string) =>
    new Promise<R>((resolve, reject) => {
      last += 1;
      waiting.set(last, (answer) =>
        answer.error ? reject(new Error(`${method}: ${answer.error.message}`)) : resolve(answer.result as R),
      );
      socket.send(JSON.stringify({ id: last, method, params, sessionId }));
    });
  return { send, close: () => socket.close() };
}

type Connection = Awaited<ReturnType<typeof connect>>;

async function readMarks(cdp: Connection, targetId: string): Promise<Marks> {
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  const { result } = await cdp.send<{ result: { value: string } }>(
    'Runtime.evaluate',
    { expression: READ_MARKS, returnByValue: true },
    sessionId,
  );
  await cdp.send('Target.closeTarget', { targetId });
  return JSON.parse(result.value) as Marks;
}

/** One warm opening, no client attached while it loads. */
async function openUnattached(cdp: Connection, url: string): Promise<Marks> {
  const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url });
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  return readMarks(cdp, targetId);
}

/** When `popup.html` is parsed with script execution turned off. */
async function floorOf(cdp: Connection, url: string): Promise<number> {
  const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  await cdp.send('Emulation.setScriptExecutionDisabled', { value: true }, sessionId);
  await cdp.send('Page.navigate', { url }, sessionId);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS / 2));
  const { parsed } = await readMarks(cdp, targetId);
  return parsed;
}

/**
 * `runs` warm openings and floors, after two of each to warm up: the first row and interactive
 * after the floor, paired by round. Null without a Chromium.
 */
export async function measurePopupWithoutDevTools(
  runs: number,
  extensionDir = E2E_EXTENSION_DIR,
): Promise<{ firstRow: number[]; interactive: number[] } | null> {
  const executable = findChromium();
  if (!executable) return null;
  const folder = mkdtempSync(join(tmpdir(), 'inbox-bench-popup-'));
  const profile = join(folder, 'profile');
  const product = await startProduct({ userDataDir: profile, extensionDir });
  let chromium: ChildProcess | undefined;
  let cdp: Connection | undefined;
  try {
    // The first opening fills the background's cache, the second paints from the kept screen.
    await openPopupTimed(product, true);
    await openPopupTimed(product, true);
    const url = product.browser.pageUrl('popup.html');
    await product.browser.close();
    chromium = spawn(
      executable,
      [
        ...extensionArgs(extensionDir),
        '--headless',
        `--user-data-dir=${profile}`,
        '--lang=en-US',
        '--window-size=1000,800',
        // As Playwright starts it, so the one difference is the client attached to each page.
        '--disable-background-timer-throttling',
        '--disable-backgrounding-occluded-windows',
        '--disable-renderer-backgrounding',
        '--remote-debugging-port=0',
        'about:blank',
      ],
      { stdio: 'ignore' },
    );
    const portFile = join(profile, 'DevToolsActivePort');
    await waitUntil('Chromium to open its DevTools port', 10_000, async () => existsSync(portFile));
    cdp = await connect(Number(readFileSync(portFile, 'utf8').split('\n')[0]));
    const firstRow: number[] = [];
    const interactive: number[] = [];
    for (let round = -2; round < runs; round++) {
      const opening = await openUnattached(cdp, url);
      const floor = await floorOf(cdp, url);
      if (round < 0 || opening.firstRow === undefined || opening.interactive === undefined) continue;
      firstRow.push(opening.firstRow - floor);
      interactive.push(opening.interactive - floor);
    }
    return { firstRow, interactive };
  } finally {
    cdp?.close();
    if (chromium?.pid !== undefined && chromium.exitCode === null) {
      const exited = new Promise((resolve) => chromium?.once('exit', resolve));
      chromium.kill('SIGTERM');
      await exited;
    }
    await product.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
