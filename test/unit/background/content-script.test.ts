import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { addToOpenTabs, syncProfileScript } from '../../../lib/background/content-script';
import { forgetTab, newClaim } from '../../../lib/background/profile-frames';
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

describe('the profile content script in pages already open', () => {
  beforeEach(() => fakeBrowser.reset());

  const open = async (url: string) => (await fakeBrowser.tabs.create({ url })).id as number;
  /** What went into which tab, in order: the script's file, or the tag whose leftovers a function took out. */
  const given = () => {
    const spy = vi.spyOn(fakeBrowser.scripting, 'executeScript');
    return () =>
      spy.mock.calls.map(([injection]) => {
        const { target, files, args } = injection as { target: { tabId: number }; files?: string[]; args?: string[] };
        return `${target.tabId} ${(files ?? args)?.join()}`;
      });
  };

  it('goes into each open page of a granted site, on that origin only, and into nothing without the grant', async () => {
    const injections = given();
    const profile = await open('http://127.0.0.1:8787/@alice');
    const home = await open('http://127.0.0.1:8787/');
    await open('http://127.0.0.1:9999/@alice');
    await open('https://example.social/@alice');
    expect(await addToOpenTabs([DEFAULT_SETTINGS])).toEqual([]);
    await grant(DEFAULT_SETTINGS.siteOrigin);
    expect(await addToOpenTabs([DEFAULT_SETTINGS])).toEqual([profile, home]);
    // What an earlier copy left goes first.
    expect(injections()).toEqual([
      `${profile} inbox-companion-profile`,
      `${profile} /content-scripts/profile.js`,
      `${home} inbox-companion-profile`,
      `${home} /content-scripts/profile.js`,
    ]);
  });

  it('goes into a page once: not again, nor where the page’s own copy has asked for its claim', async () => {
    await grant(DEFAULT_SETTINGS.siteOrigin);
    const injections = given();
    const loaded = await open('http://127.0.0.1:8787/@alice');
    const later = await open('http://127.0.0.1:8787/@bob');
    // The registered copy in a page loaded since has started and asked.
    newClaim(later, null);
    expect(await addToOpenTabs([DEFAULT_SETTINGS])).toEqual([loaded]);
    expect(await addToOpenTabs([DEFAULT_SETTINGS])).toEqual([]);
    // Two at once, as an install and a grant can come: still once.
    const third = await open('http://127.0.0.1:8787/@carol');
    const both = await Promise.all([addToOpenTabs([DEFAULT_SETTINGS]), addToOpenTabs([DEFAULT_SETTINGS])]);
    expect(both).toEqual([[third], []]);
    expect(injections().filter((each) => each.endsWith('.js'))).toHaveLength(2);
  });

  it('tries a page again where the browser kept the script out, and again in a tab closed and opened anew', async () => {
    await grant(DEFAULT_SETTINGS.siteOrigin);
    const tab = await open('http://127.0.0.1:8787/@alice');
    vi.spyOn(fakeBrowser.scripting, 'executeScript').mockRejectedValueOnce(
      new Error('Frame with ID 0 is showing error page'),
    );
    expect(await addToOpenTabs([DEFAULT_SETTINGS])).toEqual([]);
    expect(await addToOpenTabs([DEFAULT_SETTINGS])).toEqual([tab]);
    forgetTab(tab);
    expect(await addToOpenTabs([DEFAULT_SETTINGS])).toEqual([tab]);
  });

  it('covers every account’s granted site', async () => {
    const other = { siteOrigin: 'https://example.social' };
    await grant(DEFAULT_SETTINGS.siteOrigin, other.siteOrigin);
    const here = await open('http://127.0.0.1:8787/@alice');
    const there = await open('https://example.social/@bob');
    expect(await addToOpenTabs([DEFAULT_SETTINGS, other])).toEqual([here, there]);
  });
});
