import { defineConfig } from 'wxt';

/**
 * Builds for the local reference service (`npm start`, mode `development`) and for the
 * end-to-end tests (mode `e2e`) hold the loopback origins as granted host permissions, so
 * they work without a permission prompt, which a test cannot click. Store builds ask for
 * every origin at run time.
 */
const LOOPBACK = ['http://127.0.0.1/*', 'http://localhost/*'];

export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  imports: false,
  manifestVersion: 3,
  manifest: ({ mode }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    permissions: ['storage', 'alarms', 'scripting'],
    optional_permissions: ['notifications'],
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    ...(mode === 'production' ? {} : { host_permissions: LOOPBACK }),
    action: { default_title: '__MSG_extName__' },
    browser_specific_settings: {
      gecko: {
        id: 'inbox-companion@example.social',
        strict_min_version: '142.0',
        // The token the person enters is sent to the service they configured, and nowhere else.
        data_collection_permissions: { required: ['authenticationInfo'] },
      },
    },
  }),
});
