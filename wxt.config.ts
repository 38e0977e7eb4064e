import { defineConfig } from 'wxt';

export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  imports: false,
  manifest: {
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    permissions: ['storage', 'alarms', 'scripting'],
    optional_permissions: ['notifications'],
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    action: { default_title: '__MSG_extName__' },
  },
});
