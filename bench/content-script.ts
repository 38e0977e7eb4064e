/**
 * The in-page buttons: time from a profile page's DOMContentLoaded to the buttons being in the
 * page and visible, in Chromium with the extension signed in. A script in the page's own world
 * watches for the extension's host and reads the clock the moment the buttons' frame, drawn, has
 * a box.
 */
import type { Product } from '../test/e2e/support/product';
import type { Figure, Section } from './support/report';
import { median, percentile, repeat } from './support/stats';

export interface ContentScriptOptions {
  runs: number;
  username: string;
}

/** The goal for the in-page buttons: from the page's DOMContentLoaded to the buttons showing. */
export const BUTTONS_TARGET_MS = 30;

export const CONTENT_SCRIPT_DEFAULTS: ContentScriptOptions = { runs: 30, username: 'alice' };

declare global {
  interface Window {
    __inboxBenchButtonsAt?: number;
  }
}

/**
 * Runs in the page before its own scripts and notes when the extension's buttons first have a
 * box. Plain JavaScript text, since the page cannot run this process's compiled code.
 */
const WATCH_FOR_BUTTONS = `
  const observed = new WeakSet();
  const observer = new MutationObserver(check);
  function check() {
    const host = document.querySelector('inbox-companion-profile');
    const root = host && host.shadowRoot;
    if (!root) return;
    if (!observed.has(root)) {
      observed.add(root);
      observer.observe(root, { childList: true, subtree: true, attributes: true });
    }
    // The buttons are in the extension's frame, out of the page's reach: they show once the
    // content script gives the frame the size the frame reported after drawing them.
    const frame = root.querySelector('iframe');
    if (!frame || host.hasAttribute('data-loading') || !host.checkVisibility()) return;
    const box = frame.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return;
    window.__inboxBenchButtonsAt = performance.now();
    observer.disconnect();
  }
  observer.observe(document, { childList: true, subtree: true });
`;

export async function measureContentScript(
  product: Product,
  options: ContentScriptOptions = CONTENT_SCRIPT_DEFAULTS,
): Promise<Section> {
  const page = await product.browser.context.newPage();
  await page.addInitScript({ content: WATCH_FOR_BUTTONS });
  const url = `${product.service.origin}/@${options.username}`;
  try {
    const samples = await repeat(
      options.runs,
      async () => {
        await page.goto(url);
        await page.waitForFunction(() => window.__inboxBenchButtonsAt !== undefined, null, { timeout: 10_000 });
        return page.evaluate(() => {
          const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
          return (window.__inboxBenchButtonsAt as number) - (navigation?.domContentLoadedEventStart ?? 0);
        });
      },
      { warmup: 2 },
    );
    const how = `median of ${options.runs} page loads`;
    const figures: Figure[] = [
      {
        name: 'DOMContentLoaded → buttons visible',
        value: median(samples),
        unit: 'ms',
        how,
        target: BUTTONS_TARGET_MS,
      },
      {
        name: 'DOMContentLoaded → buttons visible p90',
        value: percentile(samples, 90),
        unit: 'ms',
        how: `p90 of ${options.runs} page loads`,
      },
    ];
    return { id: 'contentScript', title: 'Content script', figures, details: { ...options, samples } };
  } finally {
    await page.close();
  }
}
