/**
 * Fills the gaps of @webext-core/fake-browser that the extension uses: i18n answered from the
 * real English catalogue, in-memory permissions and scripting APIs, and an in-memory IndexedDB.
 */
import 'fake-indexeddb/auto';
import { configure } from '@testing-library/preact';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import english from '../../public/_locales/en/messages.json';
import { installFakeOptionsPage, installFakePermissions, installFakeScripting } from './fake-apis';

type Catalogue = Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;

export function getMessageFrom(catalogue: Catalogue) {
  return (key: string, substitutions?: string | string[]): string => {
    const entry = catalogue[key];
    if (!entry) return '';
    const subs = substitutions === undefined ? [] : Array.isArray(substitutions) ? substitutions : [substitutions];
    const positional = (text: string) => text.replace(/\$(\d)/g, (_, n: string) => subs[Number(n) - 1] ?? '');
    return entry.message.replace(/\$([A-Za-z0-9_]+)\$/g, (whole, name: string) => {
      const placeholder = entry.placeholders?.[name.toLowerCase()];
      return placeholder ? positional(placeholder.content) : whole;
    });
  };
}

// The popup tests talk to a real service; on two busy cores an answer can take longer than the
// 1 s testing-library waits for by default. A wait that never comes true still fails.
configure({ asyncUtilTimeout: 5_000 });

const i18n = fakeBrowser.i18n as unknown as Record<string, unknown>;
i18n.getMessage = getMessageFrom(english as Catalogue);
i18n.getUILanguage = () => 'en';

beforeEach(() => {
  // The token's IndexedDB starts empty for each test, as fakeBrowser's storage does.
  globalThis.indexedDB = new IDBFactory();
  installFakePermissions();
  installFakeScripting();
  installFakeOptionsPage();
});
