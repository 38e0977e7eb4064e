/**
 * The in-page buttons: time from a profile page's DOMContentLoaded to their room being held in
 * the page (the frame placed at its size, before it has drawn anything), and to working buttons
 * (the frame has drawn the buttons of a loaded profile, and the page shows the frame at its size),
 * in Chromium with the extension signed in. A script in the page's own world notes when the
 * frame has a box, and the same script in the frame notes when its buttons are drawn; each reads
 * its own clock, and the two are compared on the wall clock they share.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_EXTENSION_DIR, extensionArgs, findChromium } from '../scripts/chromium';
import { type Product, startProduct } from '../test/e2e/support/product';
import type { Figure, Section } from './support/report';
import { median, percentile, repeat } from './support/stats';

export interface ContentScriptOptions {
  runs: number;
  username: string;
  /** The build the product's browser loaded, for the loads without a DevTools client. */
  extensionDir?: string;
}

/** The goals for the in-page buttons, from the page's DOMContentLoaded. */
export const ROOM_TARGET_MS = 30;
export const BUTTONS_TARGET_MS = 80;

export const CONTENT_SCRIPT_DEFAULTS: ContentScriptOptions = { runs: 30, username: 'alice' };

interface Marks {
  /** When the page first showed the frame with a box, and that box's size. */
  roomAt?: number;
  room?: string;
  /** When the frame's buttons were drawn, on the wall clock. */
  drawnAt?: number;
}

declare global {
  interface Window {
    __inboxBench?: Marks;
  }
}

/**
 * Page JavaScript that calls `onRoom(box)` once, the moment the extension's frame first has a box
 * the page shows: the buttons' room is held. Shared by both watchers below.
 */
const WATCH_ROOM = `
  function watchRoom(onRoom) {
    const observed = new WeakSet();
    const observer = new MutationObserver(placed);
    function placed() {
      const host = document.querySelector('inbox-companion-profile');
      const root = host && host.shadowRoot;
      if (!root) return;
      if (!observed.has(root)) {
        observed.add(root);
        observer.observe(root, { childList: true, subtree: true, attributes: true });
      }
      const frame = root.querySelector('iframe');
      if (!frame || host.hasAttribute('data-loading') || !host.checkVisibility()) return;
      const box = frame.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return;
      observer.disconnect();
      onRoom(box);
    }
    observer.observe(document, { childList: true, subtree: true, attributes: true });
  }
`;

/**
 * Runs in the page and in every frame before their own scripts. In the page it notes when the
 * extension's frame first has a box that the page shows; in the buttons' frame, when the bar of
 * a loaded profile (not busy) holds its buttons. Plain JavaScript text, since neither can run
 * this process's compiled code.
 */
const WATCH = `${WATCH_ROOM}
  const marks = (window.__inboxBench = {});
  if (location.protocol === 'http:' || location.protocol === 'https:') {
    watchRoom((box) => {
      marks.roomAt = performance.now();
      marks.room = box.width + '×' + box.height;
    });
  } else {
    const observer = new MutationObserver(() => {
      if (!document.querySelector('.bar:not([aria-busy]) > .button')) return;
      marks.drawnAt = performance.timeOrigin + performance.now();
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true, attributes: true });
  }
`;

export async function measureContentScript(
  product: Product,
  options: ContentScriptOptions = CONTENT_SCRIPT_DEFAULTS,
): Promise<Section> {
  const page = await product.browser.context.newPage();
  await page.addInitScript({ content: WATCH });
  const url = `${product.service.origin}/@${options.username}`;
  const rooms: number[] = [];
  const buttons: number[] = [];
  let moved = 0;
  try {
    await repeat(
      options.runs,
      async (run) => {
        await page.goto(url);
        const frame = () => page.frames().find((each) => each.url().endsWith('/profile-frame.html'));
        await page.waitForFunction(() => window.__inboxBench?.roomAt !== undefined, null, { timeout: 10_000 });
        const drawnAt = async () => (await frame()?.evaluate(() => window.__inboxBench?.drawnAt)) ?? null;
        let drawn: number | null = null;
        for (const until = Date.now() + 10_000; drawn === null && Date.now() < until; ) {
          drawn = await drawnAt();
          if (drawn === null) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        if (drawn === null) throw new Error('The buttons were not drawn.');
        const seen = await page.evaluate(() => {
          const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
          const loaded = navigation?.domContentLoadedEventStart ?? 0;
          const box = document
            .querySelector('inbox-companion-profile')
            ?.shadowRoot?.querySelector('iframe')
            ?.getBoundingClientRect();
          return {
            loaded: performance.timeOrigin + loaded,
            roomAt: (window.__inboxBench?.roomAt ?? Number.NaN) - loaded,
            room: window.__inboxBench?.room,
            final: box && `${box.width}×${box.height}`,
          };
        });
        if (run < 0) return 0;
        rooms.push(seen.roomAt);
        // Working once drawn in the frame and shown in the page, whichever comes last.
        buttons.push(Math.max(seen.roomAt, drawn - seen.loaded));
        if (seen.room !== seen.final) moved += 1;
        return 0;
      },
      { warmup: 2 },
    );
    const how = `median of ${options.runs} page loads`;
    const p90 = `p90 of ${options.runs} page loads`;
    const figures: Figure[] = [
      {
        name: 'DOMContentLoaded → placeholder in place',
        value: median(rooms),
        unit: 'ms',
        how,
        target: ROOM_TARGET_MS,
      },
      { name: 'DOMContentLoaded → placeholder p90', value: percentile(rooms, 90), unit: 'ms', how: p90 },
      {
        name: 'DOMContentLoaded → working buttons',
        value: median(buttons),
        unit: 'ms',
        how,
        target: BUTTONS_TARGET_MS,
      },
      { name: 'DOMContentLoaded → working buttons p90', value: percentile(buttons, 90), unit: 'ms', how: p90 },
      {
        name: 'loads where the frame changed size as the buttons came',
        value: moved,
        unit: 'count',
        how: `of ${options.runs} page loads`,
        target: 0,
      },
    ];
    const free = await measureWithoutDevTools(options);
    if (free) {
      const came = free.buttons.length;
      const without =
        came === options.runs
          ? `median of ${came} page loads, no DevTools client`
          : `median of ${came} of ${options.runs} page loads, no DevTools client; ${free.short}`;
      figures.push(
        {
          name: 'the same, no DevTools client: placeholder',
          value: median(free.rooms),
          unit: 'ms',
          how: without,
          target: ROOM_TARGET_MS,
        },
        {
          name: 'the same, no DevTools client: working buttons',
          value: median(free.buttons),
          unit: 'ms',
          how: without,
          target: BUTTONS_TARGET_MS,
        },
        {
          name: 'the same, no DevTools client: working buttons p90',
          value: percentile(free.buttons, 90),
          unit: 'ms',
          how: `p90 of ${came} page loads`,
        },
      );
    }
    return {
      id: 'contentScript',
      title: 'Content script',
      figures,
      details: { ...options, rooms, buttons, moved, free },
      notes: [NO_DEVTOOLS_NOTE],
    };
  } finally {
    await page.close();
  }
}

const NO_DEVTOOLS_NOTE = `Content script: Playwright holds every new out-of-process frame before it commits until it has
set it up (a trace shows the commit resumed by a DevTools message, 35–50 ms later on this machine),
and the buttons' frame is one; no person's browser waits so. The "no DevTools client" figures load
the same page in a Chromium started without one, on the same profile, and note the same moments
from a second extension's content script: the page sees the buttons drawn when the frame tells
it their size, a message the page hears too.`;

/**
 * Notes, from the page, when the buttons' room is held and when the frame says its buttons are
 * drawn (its layout message), and posts both to the bench; the bench's answer says whether to
 * load the page again. A content script of its own extension, in its own world: the page's
 * content security policy does not govern what it sends.
 */
const WATCH_WITHOUT_DEVTOOLS = (report: string) => `${WATCH_ROOM}
  const seen = {};
  let sent = false;
  watchRoom(() => {
    seen.roomAt = performance.now();
    done();
  });
  addEventListener('message', ({ data }) => {
    if (!data || data.type !== 'inbox-companion:layout' || !data.shown || seen.drawnAt !== undefined) return;
    seen.drawnAt = performance.now();
    done();
  });
  function done() {
    if (seen.roomAt === undefined || seen.drawnAt === undefined || sent) return;
    if (document.readyState === 'loading') return document.addEventListener('DOMContentLoaded', done, { once: true });
    sent = true;
    const loaded = performance.getEntriesByType('navigation')[0].domContentLoadedEventStart;
    const sample = { room: seen.roomAt - loaded, buttons: Math.max(seen.roomAt, seen.drawnAt) - loaded };
    fetch(${JSON.stringify(report)}, { method: 'POST', body: JSON.stringify(sample) })
      .then((answer) => answer.json())
      .then(({ again }) => again && location.reload(), () => location.reload());
  }
  // The first load after the browser starts may come before the worker has its content script.
  setTimeout(() => sent || location.reload(), 3000);
`;

/**
 * The page loads of `measureContentScript` in a Chromium that no DevTools client drives: a
 * product is set up and signed in through Playwright on a profile folder of its own, its
 * browser closed, and Chromium started again on that folder with the watching extension beside
 * the product's. Null without a Chromium.
 */
async function measureWithoutDevTools(
  options: ContentScriptOptions,
): Promise<{ rooms: number[]; buttons: number[]; short: string | null } | null> {
  const executable = findChromium();
  if (!executable) return null;
  const folder = mkdtempSync(join(tmpdir(), 'inbox-bench-'));
  const extensionDir = options.extensionDir ?? E2E_EXTENSION_DIR;
  const product = await startProduct({ userDataDir: join(folder, 'profile'), extensionDir });
  const samples: { room: number; buttons: number }[] = [];
  const warmup = 2;
  let enough: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (enough = resolve));
  const bench = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      samples.push(JSON.parse(body));
      const again = samples.length < options.runs + warmup;
      if (!again) enough();
      response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      response.end(JSON.stringify({ again }));
    });
  });
  let chromium: ChildProcess | undefined;
  try {
    const url = `${product.service.origin}/@${options.username}`;
    // Once through Playwright, so the worker has registered its content script for the site.
    const page = await product.browser.context.newPage();
    await page.goto(url);
    await page.frameLocator('iframe[src$="/profile-frame.html"]').getByRole('group').waitFor({ timeout: 10_000 });
    await product.browser.close();
    await new Promise<void>((resolve) => bench.listen(0, '127.0.0.1', resolve));
    const report = `http://127.0.0.1:${(bench.address() as AddressInfo).port}/`;
    const watcherDir = mkdtempSync(join(folder, 'watcher-'));
    writeFileSync(
      join(watcherDir, 'manifest.json'),
      JSON.stringify({
        manifest_version: 3,
        name: 'bench watcher',
        version: '1',
        content_scripts: [{ matches: ['http://127.0.0.1/*'], js: ['watch.js'], run_at: 'document_start' }],
      }),
    );
    writeFileSync(join(watcherDir, 'watch.js'), WATCH_WITHOUT_DEVTOOLS(report));
    const args = extensionArgs(`${extensionDir},${watcherDir}`);
    chromium = spawn(
      executable,
      [
        ...args,
        '--headless',
        `--user-data-dir=${join(folder, 'profile')}`,
        '--lang=en-US',
        '--window-size=1000,800',
        // As Playwright starts it, so the one difference is the DevTools client.
        '--disable-background-timer-throttling',
        '--disable-backgrounding-occluded-windows',
        '--disable-renderer-backgrounding',
        url,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const started = performance.now();
    let said = '';
    chromium.stderr?.on('data', (chunk) => (said = `${said}${chunk}`.slice(-300)));
    const ended = new Promise<string>((resolve) =>
      chromium?.once('exit', (code, signal) => {
        const after = ((performance.now() - started) / 1000).toFixed(1);
        const last = said.trim().split('\n').at(-1) ?? '';
        resolve(`Chromium ended after ${after} s (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ''}`);
      }),
    );
    // Loads that did not come in time are said beside the figures, not left out without a word.
    const seconds = 30 + options.runs * 2;
    const late = new Promise<string>((resolve) =>
      setTimeout(() => resolve(`the rest did not come in ${seconds} s`), seconds * 1000),
    );
    const short = await Promise.race([finished.then(() => null), ended, late]);
    const kept = samples.slice(warmup, warmup + options.runs);
    return { rooms: kept.map((sample) => sample.room), buttons: kept.map((sample) => sample.buttons), short };
  } finally {
    if (chromium?.pid !== undefined && chromium.exitCode === null) {
      const exited = new Promise((resolve) => chromium?.once('exit', resolve));
      chromium.kill('SIGTERM');
      await exited;
    }
    bench.close();
    await product.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
