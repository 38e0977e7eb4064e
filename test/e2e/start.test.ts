/**
 * What `npm start` does to the Chromium profile it opens: the extension's toolbar button pinned,
 * where the badge is in sight, with what else the profile holds kept.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { E2E_EXTENSION_DIR, launchWithExtension, pinExtension, unpackedExtensionId } from '../../scripts/chromium';
import { hasChromium } from './support/product';

describe.runIf(hasChromium)('the Chromium profile npm start opens', () => {
  const profiles: string[] = [];
  const newProfile = () => {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-start-'));
    profiles.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of profiles.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** Whether the extension's button is on the toolbar, as the extension itself is told. */
  async function onToolbar(profile: string) {
    const browser = await launchWithExtension({ userDataDir: profile });
    try {
      expect(browser.extensionId).toBe(unpackedExtensionId(E2E_EXTENSION_DIR));
      return (await browser.worker.evaluate(() => chrome.action.getUserSettings())).isOnToolbar;
    } finally {
      await browser.close();
    }
  }

  it('has the toolbar button pinned, where a new profile has it in the extensions menu', async () => {
    expect(await onToolbar(newProfile())).toBe(false);
    const profile = newProfile();
    pinExtension(profile, E2E_EXTENSION_DIR);
    expect(await onToolbar(profile)).toBe(true);
  });

  it('keeps what the profile’s preferences hold, and pins the button once', async () => {
    const profile = newProfile();
    mkdirSync(join(profile, 'Default'));
    const file = join(profile, 'Default', 'Preferences');
    writeFileSync(
      file,
      JSON.stringify({ homepage: 'https://example.org/', extensions: { pinned_extensions: ['other'] } }),
    );
    pinExtension(profile, E2E_EXTENSION_DIR);
    pinExtension(profile, E2E_EXTENSION_DIR);
    const id = unpackedExtensionId(E2E_EXTENSION_DIR);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      homepage: 'https://example.org/',
      extensions: { pinned_extensions: ['other', id] },
    });
    writeFileSync(file, '{ not json');
    pinExtension(profile, E2E_EXTENSION_DIR);
    expect(readFileSync(file, 'utf8')).toBe('{ not json');
  });
});
