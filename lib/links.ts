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

/**
 * The URL of a notification if it may be opened in a tab: only http and https, never
 * javascript:, data: or the like, whatever the service sent.
 */
export function openableUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** This computer: 127.0.0.0/8, ::1 and localhost, where nothing crosses a network. */
function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Whether what goes to this address is kept from the network: https, or plain http to this computer. */
export function isPrivateAddress(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopback(parsed));
  } catch {
    return false;
  }
}

/**
 * The address of a person's picture if it may be loaded: https, or http on this computer;
 * null for anything else (javascript:, data:, file:, plain http elsewhere), which shows no picture.
 */
export function avatarSource(url: string | null | undefined): string | null {
  return url && isPrivateAddress(url) ? new URL(url).href : null;
}
