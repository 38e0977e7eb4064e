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
