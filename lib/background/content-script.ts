/**
 * The profile content script is registered at run time for the configured site only, once the
 * person has granted its host permission, and follows the accounts' sites as they change.
 */
import { browser } from 'wxt/browser';
import { hasSitePermission } from '../permissions';
import { siteMatchPattern } from '../profile-url';
import type { Settings } from '../settings';

export const PROFILE_SCRIPT_ID = 'profile';
export const PROFILE_SCRIPT_FILE = 'content-scripts/profile.js';

/** Registers, moves or removes the profile content script so it matches the accounts' sites and permissions. */
export async function syncProfileScript(
  sites: readonly Pick<Settings, 'siteOrigin'>[],
): Promise<'registered' | 'updated' | 'unchanged' | 'removed'> {
  const [existing] = await browser.scripting.getRegisteredContentScripts({ ids: [PROFILE_SCRIPT_ID] });
  const granted: string[] = [];
  for (const site of sites) if (await hasSitePermission(site)) granted.push(siteMatchPattern(site));
  const matches = [...new Set(granted)].sort();
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
