const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Retries `attempt` every 50 ms until it gives something other than undefined, and throws
 * after `timeout` ms with what it was waiting for and the last error seen. For support code:
 * tests themselves use `expect.poll`.
 */
export async function until<T>(what: string, timeout: number, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${timeout} ms${last ? ` (${(last as Error).message})` : ''}`);
    }
    await sleep(50);
  }
}

/** Waits until `done` says yes. */
export async function waitUntil(what: string, timeout: number, done: () => Promise<boolean>): Promise<void> {
  await until(what, timeout, async () => ((await done()) ? true : undefined));
}

/**
 * Waits until `read` has given the same number for half a second: no new check of the count,
 * say, as after signing in, when the settings and the account each start one.
 */
export function untilSteady(what: string, read: () => number, timeout = 10_000): Promise<void> {
  return waitUntil(what, timeout, async () => {
    const before = read();
    await new Promise((resolve) => setTimeout(resolve, 500));
    return read() === before;
  });
}
