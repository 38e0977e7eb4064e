import type { Plugin } from 'vite';
import { defineConfig } from 'wxt';

/**
 * Builds for the local reference service (`npm start`, mode `development`) and for the
 * end-to-end tests (mode `e2e`) hold the loopback origins as granted host permissions, and
 * the notifications permission, so they work without a permission prompt, which a test cannot
 * click. Store builds ask for every origin, and for notifications, at run time.
 */
const LOOPBACK = ['http://127.0.0.1/*', 'http://localhost/*'];

/**
 * The oldest browsers it runs in. Chrome 116 is the first whose extension APIs all answer with
 * promises (notifications last), which the background relies on without a polyfill.
 */
const MINIMUM_CHROME = 116;
const MINIMUM_FIREFOX = 142;

/**
 * The popup loads the parts it does not need for its first row (the snooze menu, the snoozed
 * view) with `import()`. Vite wraps each such import in a helper that first preloads the chunk's
 * own imports and styles: 0.7 kB gzip in the popup's first load, for nothing here, since those
 * chunks import only what the page has already loaded and take their styles from popup.css.
 * This helper just imports.
 */
const PRELOAD_HELPER = '\0vite/preload-helper.js';
const plainDynamicImports: Plugin = {
  name: 'inbox-companion:plain-dynamic-imports',
  enforce: 'pre',
  resolveId: (id) => (id === PRELOAD_HELPER ? id : undefined),
  load: (id) => (id === PRELOAD_HELPER ? 'export const __vitePreload = (load) => load();' : undefined),
};

export default defineConfig({
  imports: false,
  // Chrome and Firefox preload modules themselves; Vite's polyfill for browsers that do not is dead weight.
  // The code is built for the oldest browsers the manifest admits, so nothing newer is rewritten.
  vite: () => ({
    plugins: [plainDynamicImports],
    build: {
      modulePreload: { polyfill: false },
      target: [`chrome${MINIMUM_CHROME}`, `firefox${MINIMUM_FIREFOX}`],
    },
  }),
  manifestVersion: 3,
  manifest: ({ mode, browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    permissions: ['storage', 'alarms', 'scripting', 'identity', ...(mode === 'production' ? [] : ['notifications'])],
    optional_permissions: ['notifications'],
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    ...(mode === 'production' ? {} : { host_permissions: LOOPBACK }),
    action: { default_title: '__MSG_extName__' },
    ...(browser === 'firefox' ? {} : { minimum_chrome_version: String(MINIMUM_CHROME) }),
    browser_specific_settings: {
      gecko: {
        id: 'inbox-companion@example.social',
        strict_min_version: `${MINIMUM_FIREFOX}.0`,
        // The token the person enters is sent to the service they configured, and nowhere else.
        data_collection_permissions: { required: ['authenticationInfo'] },
      },
    },
  }),
});
