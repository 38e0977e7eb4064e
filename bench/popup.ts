/**
 * The popup's first paint: time from opening `popup.html` to the first notification row, read
 * from the popup's own `inbox-first-row` performance mark, with the background's cached first
 * page in storage (warm) and without it (the page comes from the service).
 */
import { FIRST_ROW_MARK } from '../components/popup/notification-feed';
import type { Product } from '../test/e2e/support/product';
import type { Figure, Section } from './support/report';
import { median, pairedRatio, percentile } from './support/stats';

export interface PopupOptions {
  runs: number;
}

export const POPUP_DEFAULTS: PopupOptions = { runs: 25 };
/** The goal for the first row with a warm cache. */
export const FIRST_ROW_TARGET_MS = 50;

/** Milliseconds from opening the popup in a new tab to its first notification row. */
export async function firstRowTime(product: Product): Promise<number> {
  const page = await product.browser.context.newPage();
  try {
    await page.goto(product.browser.pageUrl('popup.html'));
    const handle = await page.waitForFunction(
      (mark) => performance.getEntriesByName(mark)[0]?.startTime,
      FIRST_ROW_MARK,
      { timeout: 10_000 },
    );
    return (await handle.jsonValue()) as number;
  } finally {
    await page.close();
  }
}

const dropInboxCache = (product: Product) => product.worker.evaluate(() => chrome.storage.local.remove('inboxCache'));

export async function measurePopup(product: Product, options: PopupOptions = POPUP_DEFAULTS): Promise<Section> {
  // The first opening fills the cache and warms the browser's own caches of the extension's files.
  await firstRowTime(product);
  await firstRowTime(product);
  const warm: number[] = [];
  const cold: number[] = [];
  for (let run = 0; run < options.runs; run++) {
    // The background rewrites the cache with each first page it fetches, so a cold run leaves it warm.
    warm.push(await firstRowTime(product));
    await dropInboxCache(product);
    cold.push(await firstRowTime(product));
  }
  const how = `median of ${options.runs} openings`;
  const figures: Figure[] = [
    { name: 'first row, warm cache', value: median(warm), unit: 'ms', how, target: FIRST_ROW_TARGET_MS },
    { name: 'first row, warm cache p90', value: percentile(warm, 90), unit: 'ms', how: `p90 of ${options.runs}` },
    { name: 'first row, no cache', value: median(cold), unit: 'ms', how },
    { name: 'first row, no cache p90', value: percentile(cold, 90), unit: 'ms', how: `p90 of ${options.runs}` },
    { name: 'no cache ÷ warm cache', value: pairedRatio(cold, warm), unit: 'ratio', how: 'median of paired runs' },
  ];
  return { id: 'popup', title: 'Popup first paint', figures, details: { ...options, warm, cold } };
}
