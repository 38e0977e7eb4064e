/**
 * The popup's first paint: time from opening `popup.html` to the first notification row, read
 * from the popup's own `inbox-first-row` performance mark, and to the popup answering input (its
 * `popup-interactive` mark, once its code has taken the painted screen over), with the
 * background's cached first page in storage and the popup's last first screen kept in its
 * `localStorage` (warm) and without either (the page comes from the service), beside what the
 * platform itself takes to open the page. The bytes it loads for each are in the size area.
 */
import { COPY_KEY } from '../lib/popup/first-screen-copy-key';
import type { Product } from '../test/e2e/support/product';
import { firstRowTime, openPopupTimed, parsedWithoutScripts } from './popup-opening';
import { measurePopupWithoutDevTools } from './popup-without-devtools';
import type { Figure, Section } from './support/report';
import { median, pairedRatio, percentile } from './support/stats';

export interface PopupOptions {
  runs: number;
}

export const POPUP_DEFAULTS: PopupOptions = { runs: 30 };
/** The goal for the first row with a warm cache. */
export const FIRST_ROW_TARGET_MS = 50;
/** The goal for what the popup's own code adds to the first row, over the floor. */
export const AFTER_FLOOR_TARGET_MS = 15;
/** The goal for the popup answering input, over the floor. */
export const INTERACTIVE_TARGET_MS = 50;

/**
 * Removes every account's cached first page (`inboxCache:<account>`), and the first screen the
 * popup keeps in its own `localStorage`, from a page of the extension that is not the popup.
 */
async function dropInboxCache(product: Product) {
  await product.worker.evaluate(async () => {
    const keys = Object.keys(await chrome.storage.local.get(null)).filter((key) => key.startsWith('inboxCache:'));
    if (keys.length === 0) throw new Error('No cached first page to drop.');
    await chrome.storage.local.remove(keys);
  });
  const page = await product.browser.context.newPage();
  try {
    await page.goto(product.browser.pageUrl('privacy.html'));
    await page.evaluate((key) => localStorage.removeItem(key), COPY_KEY);
  } finally {
    await page.close();
  }
}

export async function measurePopup(product: Product, options: PopupOptions = POPUP_DEFAULTS): Promise<Section> {
  // The first opening fills the cache and warms the browser's own caches of the extension's files.
  await firstRowTime(product, true);
  await firstRowTime(product, true);
  const warm: number[] = [];
  const interactive: number[] = [];
  const cold: number[] = [];
  const floor: number[] = [];
  for (let run = 0; run < options.runs; run++) {
    // The background rewrites the cache with each first page it fetches, so a cold run leaves it warm.
    const opening = await openPopupTimed(product);
    warm.push(opening.firstRow);
    interactive.push(opening.interactive);
    await dropInboxCache(product);
    // Open until the popup has kept its first screen, so the next warm opening paints it.
    cold.push(await firstRowTime(product, true));
    floor.push(await parsedWithoutScripts(product));
  }
  const how = `median of ${options.runs} openings`;
  const afterFloor = (times: number[]) => median(times.map((time, run) => time - (floor[run] as number)));
  const figures: Figure[] = [
    { name: 'first row, warm cache', value: median(warm), unit: 'ms', how, target: FIRST_ROW_TARGET_MS },
    { name: 'first row, warm cache p90', value: percentile(warm, 90), unit: 'ms', how: `p90 of ${options.runs}` },
    { name: 'first row, no cache', value: median(cold), unit: 'ms', how },
    { name: 'first row, no cache p90', value: percentile(cold, 90), unit: 'ms', how: `p90 of ${options.runs}` },
    { name: 'no cache ÷ warm cache', value: pairedRatio(cold, warm), unit: 'ratio', how: 'median of paired runs' },
    { name: 'popup.html parsed, scripts off (floor)', value: median(floor), unit: 'ms', how },
    {
      name: 'first row, warm cache, after the floor',
      value: afterFloor(warm),
      unit: 'ms',
      how: 'median of paired runs',
      target: AFTER_FLOOR_TARGET_MS,
    },
    { name: 'to interactive, warm cache', value: median(interactive), unit: 'ms', how },
    {
      name: 'to interactive, warm cache, after the floor',
      value: afterFloor(interactive),
      unit: 'ms',
      how: 'median of paired runs',
      target: INTERACTIVE_TARGET_MS,
    },
  ];
  const free = await measurePopupWithoutDevTools(options.runs);
  if (free) {
    const without = `median of ${options.runs} openings, no DevTools client`;
    figures.push(
      {
        name: 'the same, no DevTools client: first row after the floor',
        value: median(free.firstRow),
        unit: 'ms',
        how: without,
        target: AFTER_FLOOR_TARGET_MS,
      },
      {
        name: 'the same, no DevTools client: to interactive after the floor',
        value: median(free.interactive),
        unit: 'ms',
        how: without,
        target: INTERACTIVE_TARGET_MS,
      },
    );
  }
  return {
    id: 'popup',
    title: 'Popup first paint',
    figures,
    details: { ...options, warm, interactive, cold, floor, free },
    notes: [NO_DEVTOOLS_NOTE],
  };
}

const NO_DEVTOOLS_NOTE = `Popup: Playwright attaches to every page it opens before the page loads, which adds to each
opening; no person's browser has a client attached. The "no DevTools client" figures open the
popup in a Chromium started on the same profile with a DevTools port, creating each tab without
attaching to it and reading its marks once it has loaded, each paired with a floor of its round.`;
