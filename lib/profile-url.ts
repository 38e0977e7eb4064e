/**
 * Which pages are profile pages: the configured site origin plus a path such as `/@:username`.
 * The background uses this to register the content script and to check its messages; the
 * content script uses it to read the username from the page's URL.
 */
import { isUsername } from './api/contract';
import type { Settings } from './settings';

type Site = Pick<Settings, 'siteOrigin' | 'profilePath'>;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let cached: { profilePath: string; pattern: RegExp | null } | undefined;

/** The pattern a profile path stands for, or null when it does not name `:username` exactly once. */
function pathPattern(profilePath: string): RegExp | null {
  if (cached?.profilePath === profilePath) return cached.pattern;
  const parts = profilePath.split(':username');
  const [before = '', after = ''] = parts;
  // A page answers at its path with or without a trailing slash, whichever the pattern was written with.
  const pattern =
    parts.length === 2
      ? new RegExp(`^${escapeRegExp(before)}([^/]+)${escapeRegExp(after.replace(/\/$/, ''))}/?$`)
      : null;
  cached = { profilePath, pattern };
  return pattern;
}

function originOf(url: string | URL): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The username a profile page URL names, or null when the URL is not a profile page of the site. */
export function usernameFromUrl(url: string | URL, site: Site): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const origin = originOf(site.siteOrigin);
  if (origin === null || parsed.origin !== origin) return null;
  const match = pathPattern(site.profilePath)?.exec(parsed.pathname);
  if (!match?.[1]) return null;
  let username: string;
  try {
    username = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  return isUsername(username) ? username : null;
}

/** True when a URL is on the configured site, profile page or not. */
export function isSiteUrl(url: string | URL | undefined, site: Pick<Settings, 'siteOrigin'>): boolean {
  if (url === undefined) return false;
  const origin = originOf(site.siteOrigin);
  return origin !== null && originOf(url) === origin;
}

/**
 * The match pattern for the site's pages. Match patterns cannot name a port in every browser,
 * so the pattern covers the host on any port and `isSiteUrl` narrows it to the exact origin.
 */
export function siteMatchPattern(site: Pick<Settings, 'siteOrigin'>): string {
  const { protocol, hostname } = new URL(site.siteOrigin);
  return `${protocol}//${hostname}/*`;
}
