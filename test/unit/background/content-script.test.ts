import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { syncProfileScript } from '../../../lib/background/content-script';
import { DEFAULT_SETTINGS } from '../../../lib/settings';
import { grant } from '../../support/background';

const registered = () => fakeBrowser.scripting.getRegisteredContentScripts();

describe('profile content script registration', () => {
  beforeEach(() => fakeBrowser.reset());

  it('registers nothing without the site’s host permission', async () => {
    expect(await syncProfileScript([DEFAULT_SETTINGS])).toBe('unchanged');
    expect(await registered()).toEqual([]);
  });

  it('registers the script for the site once permission is granted', async () => {
    await grant(DEFAULT_SETTINGS.siteOrigin);
    expect(await syncProfileScript([DEFAULT_SETTINGS])).toBe('registered');
    expect(await registered()).toEqual([
      expect.objectContaining({ id: 'profile', matches: ['http://127.0.0.1/*'], js: ['content-scripts/profile.js'] }),
    ]);
    expect(await syncProfileScript([DEFAULT_SETTINGS])).toBe('unchanged');
  });

  it('follows the site when the settings change', async () => {
    const moved = { ...DEFAULT_SETTINGS, siteOrigin: 'https://example.social' };
    await grant(DEFAULT_SETTINGS.siteOrigin, moved.siteOrigin);
    await syncProfileScript([DEFAULT_SETTINGS]);
    expect(await syncProfileScript([moved])).toBe('updated');
    expect((await registered())[0]?.matches).toEqual(['https://example.social/*']);
  });

  it('moves a script an earlier version registered to run at idle to the start of the page', async () => {
    await grant(DEFAULT_SETTINGS.siteOrigin);
    await fakeBrowser.scripting.registerContentScripts([
      { id: 'profile', matches: ['http://127.0.0.1/*'], js: ['content-scripts/profile.js'], runAt: 'document_idle' },
    ]);
    expect(await syncProfileScript([DEFAULT_SETTINGS])).toBe('updated');
    expect((await registered())[0]?.runAt).toBe('document_start');
  });

  it('covers the sites of every account, and only those granted', async () => {
    const other = { siteOrigin: 'https://example.social' };
    await grant(DEFAULT_SETTINGS.siteOrigin);
    expect(await syncProfileScript([DEFAULT_SETTINGS, other])).toBe('registered');
    expect((await registered())[0]?.matches).toEqual(['http://127.0.0.1/*']);
    await grant(other.siteOrigin);
    expect(await syncProfileScript([DEFAULT_SETTINGS, other])).toBe('updated');
    expect((await registered())[0]?.matches).toEqual(['http://127.0.0.1/*', 'https://example.social/*']);
    expect(await syncProfileScript([other, DEFAULT_SETTINGS])).toBe('unchanged');
  });

  it('removes the script when the permission is taken back', async () => {
    await grant(DEFAULT_SETTINGS.siteOrigin);
    await syncProfileScript([DEFAULT_SETTINGS]);
    await fakeBrowser.permissions.remove({ origins: ['http://127.0.0.1/*'] });
    expect(await syncProfileScript([DEFAULT_SETTINGS])).toBe('removed');
    expect(await registered()).toEqual([]);
  });
});
