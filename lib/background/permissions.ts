import { browser } from 'wxt/browser';
import { siteMatchPattern } from '../profile-url';
import type { Settings } from '../settings';

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
