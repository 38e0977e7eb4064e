/**
 * Fills the gaps of @webext-core/fake-browser that the extension uses: i18n answered from the
 * real English catalogue, in-memory permissions and scripting APIs, and an in-memory IndexedDB.
 *
 * Runs again for every test file, also where files share a worker's loaded modules: the hooks
 * here are each file's own, so they are the place for what every test must start or end with.
 */
import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/preact';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, vi } from 'vitest';
import english from '../../public/_locales/en/messages.json';
import {
  installFakeI18n,
  installFakeOptionsPage,
  installFakePermissions,
  installFakeScripting,
  restoreFakeBrowser,
} from './fake-apis';

// The popup tests talk to a real service; on two busy cores an answer can take longer than the
// 1 s testing-library waits for by default. A wait that never comes true still fails.
configure({ asyncUtilTimeout: 5_000 });

// Also for what a test file does as it loads.
installFakeI18n(english, 'en');

beforeEach(() => {
  // Node 22 and later have a WebSocket of their own. A test's background holds a live channel
  // only through the socket class the test gives it (a fake service's, or `ws` to a real one),
  // and none where it means a background that cannot hold one.
  Object.assign(globalThis, { WebSocket: undefined });
  // What an earlier test replaced of the browser (its messages' sender, an API it added) is put
  // back, also when that test was another file's.
  restoreFakeBrowser();
  installFakeI18n(english, 'en');
  // The token's IndexedDB starts empty for each test, as fakeBrowser's storage does.
  globalThis.indexedDB = new IDBFactory();
  installFakePermissions();
  installFakeScripting();
  installFakeOptionsPage();
});

afterEach(() => {
  // What a test rendered is unmounted when it ends. The testing library's own automatic cleanup
  // needs Vitest's globals, and would be registered only by the first file to load the library.
  cleanup();
  // A test that stopped before putting the clock back leaves no fake one to the next.
  vi.useRealTimers();
  // The next test starts on a blank page, as a new page would; a page environment stays for
  // every file after this one in the worker.
  if (typeof document !== 'undefined') document.body.replaceChildren();
});
