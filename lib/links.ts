/**
 * The URL of a notification if it may be opened in a tab: only http and https, never
 * javascript:, data: or the like, whatever the service sent.
 */
/**
 * The host a link leads to when it is not the site's own, so a person sees where a link from
 * the service would take them before they follow it; null for the site's own links.
 */
export function foreignHost(url: string, siteOrigin: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.origin === siteOrigin ? null : parsed.host;
  } catch {
    return null;
  }
}

export function openableUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}
