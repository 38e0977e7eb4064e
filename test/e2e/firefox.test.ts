/**
 * The Firefox build as addons.mozilla.org sees it: Mozilla's own linter, the one the store runs.
 * The same build runs every end-to-end flow in Firefox ESR (see `support/browsers.ts`); the
 * suite's global setup makes it once, and this file only reads it, since other files install it
 * in Firefox meanwhile.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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
    // The same package is Firefox for Android's, from the lowest version its manifest's keys need there.
    expect(manifest.browser_specific_settings.gecko_android).toEqual({ strict_min_version: '142.0' });
  });

  it('passes addons-linter, for Firefox and for Firefox for Android, with no errors', async () => {
    const results = await lint(FIREFOX_EXTENSION_DIR);
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
  it('declares the lowest Firefox for Android the package runs in: one version lower, the linter warns', async () => {
    // The manifest alone, with its locales for the name, is what the linter's check of versions reads.
    const folder = await mkdtemp(join(tmpdir(), 'inbox-android-'));
    try {
      const manifest = JSON.parse(await readFile(join(FIREFOX_EXTENSION_DIR, 'manifest.json'), 'utf8'));
      manifest.browser_specific_settings.gecko_android.strict_min_version = '141.0';
      await writeFile(join(folder, 'manifest.json'), JSON.stringify(manifest));
      await cp(join(FIREFOX_EXTENSION_DIR, '_locales'), join(folder, '_locales'), { recursive: true });
      const { warnings } = await lint(folder);
      expect(
        warnings
          .filter(({ code }) => code === 'KEY_FIREFOX_ANDROID_UNSUPPORTED_BY_MIN_VERSION')
          .map((w) => w.description),
      ).toEqual([expect.stringContaining('data_collection_permissions')]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

/** What Mozilla's linter, as addons.mozilla.org runs it, finds in the extension in `folder`. */
async function lint(folder: string) {
  const { default: linter } = await import('addons-linter');
  const instance = linter.createInstance({
    config: {
      _: [folder],
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
  return instance.run();
}
