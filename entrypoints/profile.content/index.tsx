import { defineContentScript } from 'wxt/utils/define-content-script';
import { startProfileButtons } from '../../components/profile/start';
import { ask } from '../../lib/messaging';

/**
 * Registered by the background for the configured site once the person grants it, so it has
 * no `matches` here and adds nothing to the manifest.
 */
export default defineContentScript({
  registration: 'runtime',
  globalName: false,
  noScriptStartedPostMessage: true,
  async main(ctx) {
    const page = await startProfileButtons({ document, ask, signal: ctx.signal });
    if (!page) return;
    // The Navigation API announces a URL change before the URL has changed; look once it has.
    ctx.addEventListener(window, 'wxt:locationchange', () => queueMicrotask(page.check));
  },
});
