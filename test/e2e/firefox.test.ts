/**
 * The Firefox build as addons.mozilla.org sees it: Mozilla's own linter, the one the store runs.
 * The same build runs every end-to-end flow in Firefox ESR (see `support/browsers.ts`); the
 * suite's global setup makes it once, and this file only reads it, since other files install it
 * in Firefox meanwhile.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIREFOX_EXTENSION_DIR } from '../../scripts/firefox';

describe('Firefox build', () => {
  it('is MV2 with a persistent background page, and asks for what the MV3 build asks for', async () => {
    const manifest = JSON.parse(await readFile(resolve(FIREFOX_EXTENSION_DIR, 'manifest.json'), 'utf8'));
    expect(manifest.manifest_version).toBe(2);
    expect(manifest.background).toEqual({ persistent: true, scripts: ['background.js'] });
    expect(manifest.browser_action.default_popup).toBe('popup.html');
    expect(manifest.commands).toEqual({ _execute_browser_action: { suggested_key: { default: 'Alt+Shift+I' } } });
    // MV2 has no host permission keys of its own: the origins are asked for at run time, as in MV3.
    expect(manifest.permissions).toEqual(['storage', 'alarms', 'scripting', 'identity']);
    expect(manifest.optional_permissions).toEqual(['notifications', 'http://*/*', 'https://*/*']);
    expect(manifest.host_permissions).toBeUndefined();
    expect(manifest.browser_specific_settings.gecko.data_collection_permissions).toEqual({
      required: ['authenticationInfo'],
    });
  });

  it('passes addons-linter with no errors', async () => {
    const { default: linter } = await import('addons-linter');
    const instance = linter.createInstance({
      config: {
        _: [FIREFOX_EXTENSION_DIR],
        logLevel: 'fatal',
        stack: false,
        pretty: false,
        warningsAsErrors: false,
        metadata: false,
        output: 'none',
        boring: true,
        selfHosted: false,
      },
      runAsBinary: false,
    });
    const results = await instance.run();
    expect(results.errors.map(({ code, file, message }) => `${code} ${file ?? ''}: ${message}`)).toEqual([]);
    // The only warnings allowed are Preact's own innerHTML path (`dangerouslySetInnerHTML`),
    // which this project never uses, in each chunk that carries Preact.
    const unsafe = results.warnings.filter((w) => w.code === 'UNSAFE_VAR_ASSIGNMENT');
    expect(results.warnings.filter((w) => !unsafe.includes(w)).map((w) => w.code)).toEqual([]);
    for (const { file } of unsafe) {
      const code = await readFile(join(FIREFOX_EXTENSION_DIR, file ?? ''), 'utf8');
      expect(code, `${file} assigns markup`).toContain('dangerouslySetInnerHTML');
    }
  });
});
