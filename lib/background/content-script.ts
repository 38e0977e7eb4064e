/**
 * The profile content script is registered at run time for the configured site only, once the
 * person has granted its host permission, and follows the site when the settings change.
 */
import { browser } from 'wxt/browser';
import { siteMatchPattern } from '../profile-url';
import type { Settings } from '../settings';
import { hasSitePermission } from './permissions';

export const PROFILE_SCRIPT_ID = 'profile';
export const PROFILE_SCRIPT_FILE = 'content-scripts/profile.js';

/** Registers, moves or removes the profile content script so it matches the settings and permissions. */
export async function syncProfileScript(
  settings: Settings,
): Promise<'registered' | 'updated' | 'unchanged' | 'removed'> {
  const [existing] = await browser.scripting.getRegisteredContentScripts({ ids: [PROFILE_SCRIPT_ID] });
  if (!(await hasSitePermission(settings))) {
    if (!existing) return 'unchanged';
    await browser.scripting.unregisterContentScripts({ ids: [PROFILE_SCRIPT_ID] });
    return 'removed';
  }
  const script = {
    id: PROFILE_SCRIPT_ID,
    matches: [siteMatchPattern(settings)],
    js: [PROFILE_SCRIPT_FILE],
    // From the start, so the buttons' frame goes in as soon as the page has parsed its anchor.
    runAt: 'document_start' as const,
    persistAcrossSessions: true,
  };
  if (!existing) {
    await browser.scripting.registerContentScripts([script]);
    return 'registered';
  }
  const same = existing.matches?.length === 1 && existing.matches[0] === script.matches[0];
  if (same && existing.runAt === script.runAt) return 'unchanged';
  await browser.scripting.updateContentScripts([script]);
  return 'updated';
}
