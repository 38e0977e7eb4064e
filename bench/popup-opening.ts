/**
 * Opening the popup through the bench's browser: timed by the popup's own marks, kept open until
 * it has kept its first screen, or with its scripts off for the floor. The popup area and its
 * openings without a DevTools client share these.
 */
import { FIRST_ROW_MARK, INTERACTIVE_MARK } from '../components/popup/first-row-mark';
import { COPY_KEY } from '../lib/popup/first-screen-copy-key';
import type { Product } from '../test/e2e/support/product';

interface Opening {
  /** Milliseconds from opening the popup in a new tab to its first notification row. */
  firstRow: number;
  /** And to the popup answering input. */
  interactive: number;
}

/**
 * Opens the popup in a new tab and times its first row and its taking input. `untilKept`: the tab
 * stays open until the popup has kept its first screen for the next opening, as a popup open for
 * more than a moment does.
 */
export async function openPopupTimed(product: Product, untilKept = false): Promise<Opening> {
  const page = await product.browser.context.newPage();
  try {
    await page.goto(product.browser.pageUrl('popup.html'));
    // No helper functions inside: the bundler for the benchmarks names them with a function the page lacks.
    const handle = await page.waitForFunction(
      ([first, interactive]) => {
        const firstRow = performance.getEntriesByName(first as string)[0]?.startTime;
        const ready = performance.getEntriesByName(interactive as string)[0]?.startTime;
        return firstRow !== undefined && ready !== undefined && { firstRow, interactive: ready };
      },
      [FIRST_ROW_MARK, INTERACTIVE_MARK],
      { timeout: 10_000 },
    );
    const opening = (await handle.jsonValue()) as Opening;
    if (untilKept) await page.waitForFunction((key) => localStorage.getItem(key) !== null, COPY_KEY);
    return opening;
  } finally {
    await page.close();
  }
}

/** Milliseconds from opening the popup in a new tab to its first notification row. */
export async function firstRowTime(product: Product, untilKept = false): Promise<number> {
  return (await openPopupTimed(product, untilKept)).firstRow;
}

/**
 * What the platform takes before any of the popup's code can run: the time `popup.html` is
 * parsed (domInteractive) with script execution turned off.
 */
export async function parsedWithoutScripts(product: Product): Promise<number> {
  const page = await product.browser.context.newPage();
  try {
    const cdp = await product.browser.context.newCDPSession(page);
    await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
    await page.goto(product.browser.pageUrl('popup.html'));
    const { result } = await cdp.send('Runtime.evaluate', {
      expression: "performance.getEntriesByType('navigation')[0].domInteractive",
      returnByValue: true,
    });
    return result.value as number;
  } finally {
    await page.close();
  }
}
