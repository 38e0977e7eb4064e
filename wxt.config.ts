import type { Plugin } from 'vite';
import { defineConfig, type WxtHooks } from 'wxt';
import { terserPass } from './scripts/terser-pass';

/**
 * Builds for the local reference service (`npm start`, mode `development`) and for the
 * end-to-end tests (mode `e2e`) hold the loopback origins as granted host permissions, and
 * the notifications permission, so they work without a permission prompt, which a test cannot
 * click. Store builds ask for every origin, and for notifications, at run time.
 */
const LOOPBACK = ['http://127.0.0.1/*', 'http://localhost/*'];

/**
 * The oldest browsers it runs in. Chrome 116 is the first whose extension APIs all answer with
 * promises (notifications last), which the background relies on without a polyfill: WXT's
 * webextension-polyfill module would add 2,741 B gzip to the background, 2,865 B to the popup's
 * first load and 5,539 B to the in-page buttons.
 */
const MINIMUM_CHROME = 116;
const MINIMUM_FIREFOX = 142;
/**
 * Firefox for Android takes the same package. Of what the manifest names, `data_collection_permissions`
 * came last there, in 142 as on the desktop (MDN's compatibility data, which addons-linter checks
 * against); `identity`, `commands` and desktop alerts' buttons it lacks in every version, and the
 * code does without them there (see the README's table of browsers).
 */
const MINIMUM_FIREFOX_ANDROID = 142;

/** The shortcut suggested for opening the popup; the person may change it in the browser's shortcut settings. */
const OPEN_POPUP_SHORTCUT = 'Alt+Shift+I';

/**
 * The extension's pages run only their own scripts, as by default, and show pictures only from
 * the extension itself and from where people's pictures may come: https, or this computer over
 * plain http (`avatarSource` in `lib/links.ts`). A `data:` or `javascript:` address, or plain http
 * to another host, loads nothing, whatever a service sends.
 */
const EXTENSION_PAGES_CSP =
  "script-src 'self'; object-src 'self'; img-src 'self' https: http://127.0.0.1:* http://localhost:*";

/**
 * Firefox is built as MV2 (WXT's default for it), Chrome as MV3. Firefox unloads an MV3 background,
 * an event page, after about 30 s without extension events whatever its WebSocket does, which
 * would drop the live channel every half minute; an MV2 background page is persistent, and runs
 * the same live channel Chrome's worker does. What the manifest versions name differently is
 * here; what the code calls differently is in `lib/browser-api.ts`. In MV2 the host permissions
 * and optional ones join `permissions` and `optional_permissions`, the toolbar button is a
 * `browser_action` and the popup's command `_execute_browser_action`.
 */
const manifestVersionParts = (manifestVersion: 2 | 3, optionalHosts: string[]) =>
  manifestVersion === 2
    ? {
        content_security_policy: EXTENSION_PAGES_CSP,
        optional_permissions: ['notifications', ...optionalHosts],
        commands: { _execute_browser_action: { suggested_key: { default: OPEN_POPUP_SHORTCUT } } },
      }
    : {
        content_security_policy: { extension_pages: EXTENSION_PAGES_CSP },
        optional_permissions: ['notifications'],
        optional_host_permissions: optionalHosts,
        commands: { _execute_action: { suggested_key: { default: OPEN_POPUP_SHORTCUT } } },
      };

/**
 * The buttons' frame (`entrypoints/profile-frame`) and the popup are each built on their own, not
 * together with the options page. Sharing chunks with the popup and the options page split the
 * frame's in two (about 0.5 kB gzip more in the popup's first load), and the frame, loaded on every
 * profile page, needs little of what they share. The popup's first module, which paints the first
 * row, found itself in a chunk shared with the options page, carrying some of the options page's
 * code before the first row.
 */
const BUILT_ALONE = ['profile-frame', 'popup'];
const buildAlone: WxtHooks['entrypoints:grouped'] = (_, groups) => {
  for (const group of [...groups]) {
    if (!Array.isArray(group)) continue;
    for (const name of BUILT_ALONE) {
      const index = group.findIndex((entrypoint) => entrypoint.name === name);
      if (index < 0 || group.length === 1) continue;
      const [alone] = group.splice(index, 1);
      if (alone) groups.push([alone]);
    }
  }
};

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

/**
 * The popup's first module paints the kept copy of its first screen, then asks for the modules
 * that take over from it (`import()`), which the browser would fetch only once that module has
 * run. Named in `popup.html` as `modulepreload` links, with the hashes of this build, they are
 * fetched and compiled beside the first module; the first module still runs alone before the
 * first paint.
 */
const POPUP_HTML = /[\\/]popup[\\/]index\.html$/;
const preloadTakeOver: Plugin = {
  name: 'inbox-companion:preload-take-over',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(_, { filename, chunk, bundle }) {
      if (!POPUP_HTML.test(filename) || !chunk || !bundle) return;
      const preloaded = new Set<string>();
      const visit = (file: string) => {
        const imported = bundle[file];
        if (preloaded.has(file) || imported?.type !== 'chunk') return;
        preloaded.add(file);
        for (const each of imported.imports) visit(each);
      };
      for (const file of chunk.dynamicImports) visit(file);
      for (const file of [chunk.fileName, ...chunk.imports]) preloaded.delete(file);
      return [...preloaded].map((file) => ({
        tag: 'link',
        attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
        injectTo: 'head' as const,
      }));
    },
  },
};

/**
 * The in-page buttons are an extension page framed into the site's profile pages, so it must be
 * web-accessible on the site. The site's origin is a setting, and no browser lets an extension
 * add a web-accessible resource at run time, so it is so on the http(s) pages the extension may
 * be granted at all (its optional host permissions), and on nothing else: the page alone, not its
 * scripts or styles (the frame loads those as itself). Chrome gives it a URL that changes every
 * session (`use_dynamic_url`) and Firefox one with the install's own random host, so another
 * site cannot probe for the extension; and the frame shows and does nothing outside a tab of the
 * configured site (`lib/background/sender.ts`).
 */
const profileFrameResource = (browser: string) => ({
  resources: ['profile-frame.html'],
  matches: ['http://*/*', 'https://*/*'],
  ...(browser === 'firefox' ? {} : { use_dynamic_url: true }),
});

/** Firefox's own key, which Chrome and Edge list as an unrecognised one on their extensions page. */
const firefoxSettings = {
  browser_specific_settings: {
    gecko: {
      id: 'inbox-companion@example.social',
      strict_min_version: `${MINIMUM_FIREFOX}.0`,
      // The token the person enters is sent to the service they configured, and nowhere else.
      data_collection_permissions: { required: ['authenticationInfo'] },
    },
    gecko_android: { strict_min_version: `${MINIMUM_FIREFOX_ANDROID}.0` },
  },
};

export default defineConfig({
  hooks: { 'entrypoints:grouped': buildAlone },
  imports: false,
  // Chrome and Firefox preload modules themselves; Vite's polyfill for browsers that do not is dead weight.
  // The code is built for the oldest browsers the manifest admits, so nothing newer is rewritten.
  // Every mode's JSX is the store build's: the end-to-end build (mode `e2e`) is what the tests and
  // the benchmarks run, and development JSX, which records each element's place in the source,
  // made its popup code 26 % larger than the one people install.
  vite: () => ({
    plugins: [plainDynamicImports, preloadTakeOver, terserPass],
    esbuild: { jsxDev: false },
    build: {
      modulePreload: { polyfill: false },
      target: [`chrome${MINIMUM_CHROME}`, `firefox${MINIMUM_FIREFOX}`],
      // The terser pass takes most of a build's time by design; Rolldown's note on it is no warning.
      rolldownOptions: { checks: { bundlerTimings: false } },
    },
  }),
  manifest: ({ mode, browser, manifestVersion }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    permissions: ['storage', 'alarms', 'scripting', 'identity', ...(mode === 'production' ? [] : ['notifications'])],
    ...manifestVersionParts(manifestVersion, ['http://*/*', 'https://*/*']),
    ...(mode === 'production' ? {} : { host_permissions: LOOPBACK }),
    action: { default_title: '__MSG_extName__' },
    web_accessible_resources: [profileFrameResource(browser)],
    // Edge takes Chrome's manifest as it is: its versions are Chromium's.
    ...(browser === 'firefox' ? firefoxSettings : { minimum_chrome_version: String(MINIMUM_CHROME) }),
  }),
});
