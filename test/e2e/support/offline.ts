/**
 * The service going away and coming back, and what the extension keeps meanwhile: for tests of
 * the outbox in any browser.
 */
import type { ExtensionContext } from './driver';
import type { E2EProduct } from './product';
import { E2E_ACCOUNT } from './product';

/** Starts the service stopped by `stopService` again, on the same port, with the same data. */
export async function restartService(product: E2EProduct): Promise<void> {
  const { port, hostname } = new URL(product.service.origin);
  await new Promise<void>((resolve, reject) => {
    product.service.server.httpServer.once('error', reject);
    product.service.server.httpServer.listen(Number(port), hostname, () => resolve());
  });
}

/** The changes waiting in the account's outbox, as the background stored them. */
export function waitingChanges(extension: ExtensionContext, account = E2E_ACCOUNT) {
  return extension.evaluate(
    async (key) =>
      ((await chrome.storage.local.get(key))[key] as { entries: { kind: string; key: string; ids?: string[] }[] })
        ?.entries ?? [],
    `outbox:${account}`,
  );
}

/** The changes the service received, as its log lines: `METHOD /path STATUS …`. */
export const received = (product: E2EProduct, method: string, path: string) =>
  product.requests.filter((line) => line.startsWith(`${method} ${path} `));
