import { browser } from 'wxt/browser';
import { defineContentScript } from 'wxt/utils/define-content-script';
import { PROFILE_FRAME_PAGE } from '../../lib/messaging';
import { askPlain } from '../../lib/messaging/ask-plain';
import { placeButtonsFrame } from '../../lib/profile/place-buttons-frame';

/**
 * Registered by the background for the configured site once the person grants it, so it has
 * no `matches` here and adds nothing to the manifest.
 */
export default defineContentScript({
  registration: 'runtime',
  globalName: false,
  noScriptStartedPostMessage: true,
  async main(ctx) {
    const frameUrl = browser.runtime.getURL(PROFILE_FRAME_PAGE);
    const extensionOrigin = new URL(browser.runtime.getURL('/')).origin;
    // How a refusal failed does not matter here, so the typed errors stay out of this script.
    const start = (url: string) => askPlain('profile.start', { url });
    const page = await placeButtonsFrame({ document, start, signal: ctx.signal, frameUrl, extensionOrigin });
    if (!page) return;
    // The Navigation API announces a URL change before the URL has changed; look once it has.
    ctx.addEventListener(window, 'wxt:locationchange', () => queueMicrotask(page.check));
  },
});
