/**
 * Hearing the broadcasts of `lib/messaging` in an extension page. The shape check's code
 * (`broadcast-schemas.ts`, with the validation library) loads with the first broadcast rather
 * than when the page opens; the listener is in place from the start, so none is missed.
 */
import type { GetDataType } from '@webext-core/messaging';
import { browser } from 'wxt/browser';
import { type BroadcastMap, broadcasts } from '.';

let schemas: Promise<typeof import('./broadcast-schemas')> | null = null;

/**
 * Hears one kind of broadcast from this extension's own contexts, never from a content script
 * (which could send anything), and only in the shape the protocol promises, until `signal`
 * aborts. Broadcasts are heard in the order they came, since each waits for the same load.
 */
export function onBroadcast<T extends keyof BroadcastMap>(
  type: T,
  listener: (data: GetDataType<BroadcastMap[T]>) => void,
  signal?: AbortSignal,
): void {
  // Asked for after the page began to close: an abort that already happened never fires again.
  if (signal?.aborted) return;
  const remove = broadcasts.onMessage(type, (message) => {
    if (message.sender.id !== browser.runtime.id || message.sender.tab) return;
    schemas ??= import('./broadcast-schemas').catch((error: unknown) => {
      schemas = null;
      throw error;
    });
    void schemas.then(
      ({ parseBroadcast }) => {
        const parsed = parseBroadcast(type, message.data);
        if (parsed.success) listener(parsed.output);
      },
      () => {
        // Without the check nothing is heard; the next broadcast tries to load it again.
      },
    );
  });
  signal?.addEventListener('abort', remove, { once: true });
}
