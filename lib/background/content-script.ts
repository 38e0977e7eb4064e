/**
 * The profile content script is registered at run time for the configured site only, once the
 * person has granted its host permission, and follows the accounts' sites as they change. A
 * registered script reaches only the pages loaded after it, so the site's pages already open
 * when the extension starts, or when a site is granted, are given it too, once each.
 */
import { browser } from 'wxt/browser';
import { hasSitePermission } from '../permissions';
import { HOST_TAG } from '../profile/shadow-host';
import { isSiteUrl, siteMatchPattern } from '../profile-url';
import type { Settings } from '../settings';
import { forgetTab, hasClaim, newClaim } from './profile-frames';

export const PROFILE_SCRIPT_ID = 'profile';
export const PROFILE_SCRIPT_FILE = 'content-scripts/profile.js';

type Site = Pick<Settings, 'siteOrigin'>;

async function grantedSites(sites: readonly Site[]): Promise<Site[]> {
  const granted: Site[] = [];
  for (const site of sites) if (await hasSitePermission(site)) granted.push(site);
  return granted;
}

/** Registers, moves or removes the profile content script so it matches the accounts' sites and permissions. */
export async function syncProfileScript(
  sites: readonly Site[],
): Promise<'registered' | 'updated' | 'unchanged' | 'removed'> {
  const [existing] = await browser.scripting.getRegisteredContentScripts({ ids: [PROFILE_SCRIPT_ID] });
  const matches = [...new Set((await grantedSites(sites)).map(siteMatchPattern))].sort();
  if (matches.length === 0) {
    if (!existing) return 'unchanged';
    await browser.scripting.unregisterContentScripts({ ids: [PROFILE_SCRIPT_ID] });
    return 'removed';
  }
  const script = {
    id: PROFILE_SCRIPT_ID,
    matches,
    js: [PROFILE_SCRIPT_FILE],
    // From the start, so the buttons' frame goes in as soon as the page has parsed its anchor.
    runAt: 'document_start' as const,
    persistAcrossSessions: true,
  };
  if (!existing) {
    await browser.scripting.registerContentScripts([script]);
    return 'registered';
  }
  const same = JSON.stringify([...(existing.matches ?? [])].sort()) === JSON.stringify(matches);
  if (same && existing.runAt === script.runAt) return 'unchanged';
  await browser.scripting.updateContentScripts([script]);
  return 'updated';
}

/**
 * Runs in the page before the script goes in: takes out the buttons an earlier copy left there.
 * After an update Firefox cuts the old copy off without a word, and its buttons would stay beside
 * the new ones; Chrome's old copy hears the new one start and takes its own out.
 */
function removeEarlierButtons(tag: string) {
  for (const element of document.querySelectorAll('*')) {
    if ((element.localName === tag || element.localName.startsWith(`${tag}-`)) && element.shadowRoot) element.remove();
  }
}

/** The passes one after another, so two at once (an install and a grant) never both give a tab the script. */
let adding: Promise<unknown> = Promise.resolve();

/**
 * Gives the profile content script to the open tabs of the accounts' granted sites that do not
 * have it yet; resolves to their ids. A tab whose page has asked the background for its claim
 * has it. The tab's claim is taken before the script goes in, so a later pass passes it by.
 */
export function addToOpenTabs(sites: readonly Site[]): Promise<number[]> {
  const pass = adding.then(async () => {
    const granted = await grantedSites(sites);
    if (granted.length === 0) return [];
    const added: number[] = [];
    // Without the tabs permission a tab has its address only where the extension holds the host.
    for (const { id, url, discarded } of await browser.tabs.query({})) {
      if (id === undefined || discarded || !granted.some((site) => isSiteUrl(url, site))) continue;
      if (await hasClaim(id)) continue;
      newClaim(id, null);
      try {
        const target = { tabId: id };
        await browser.scripting.executeScript({ target, func: removeEarlierButtons, args: [HOST_TAG] });
        await browser.scripting.executeScript({ target, files: [`/${PROFILE_SCRIPT_FILE}` as const] });
        added.push(id);
      } catch {
        // A page the browser keeps scripts out of (an error page, one still being replaced).
        forgetTab(id);
      }
    }
    return added;
  });
  adding = pass.catch(() => undefined);
  return pass;
}
