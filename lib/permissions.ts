import { browser } from 'wxt/browser';
import { siteMatchPattern } from './profile-url';
import type { Settings } from './settings';

/** The match pattern covering an address's host (any port: not every browser can name one). */
export function originPattern(address: string): string {
  return siteMatchPattern({ siteOrigin: new URL(address).origin });
}

export async function hasApiPermission(settings: Pick<Settings, 'apiBaseUrl'>): Promise<boolean> {
  return browser.permissions.contains({ origins: [originPattern(settings.apiBaseUrl)] });
}

export async function hasSitePermission(settings: Pick<Settings, 'siteOrigin'>): Promise<boolean> {
  return browser.permissions.contains({ origins: [originPattern(settings.siteOrigin)] });
}

/**
 * Gives back the host permissions of a removed account that no remaining account needs. Those
 * the build itself holds (the loopback origins of a test build) cannot be given back, and stay.
 */
export async function giveBackPermissions(
  removed: Pick<Settings, 'apiBaseUrl' | 'siteOrigin'>,
  remaining: readonly Pick<Settings, 'apiBaseUrl' | 'siteOrigin'>[],
): Promise<string[]> {
  const needed = new Set(remaining.flatMap((account) => [account.apiBaseUrl, account.siteOrigin].map(originPattern)));
  const unused = [...new Set([removed.apiBaseUrl, removed.siteOrigin].map(originPattern))].filter(
    (pattern) => !needed.has(pattern),
  );
  if (unused.length === 0) return [];
  try {
    return (await browser.permissions.remove({ origins: unused })) ? unused : [];
  } catch {
    return [];
  }
}
