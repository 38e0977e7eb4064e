import { expect, vi } from 'vitest';

/**
 * Waits until `check` holds, for what happens over real sockets; fails naming the check. Time
 * in the code under test never moves by this waiting: it comes from a clock the test drives.
 */
export async function until(check: () => unknown | Promise<unknown>, timeout = 10_000): Promise<void> {
  const caller = new Error(`never true: ${check}`);
  await vi
    .waitFor(async () => expect(await check()).toBeTruthy(), { timeout, interval: 10 })
    .catch(() => {
      throw caller;
    });
}
