/**
 * Who sent a message. Extension pages (popup, options) may ask anything; the profile content
 * script only profile operations, and only from the top frame of a page on an account's site;
 * the buttons' frame (an extension page) only profile operations too, and only framed in a tab
 * of such a site. Anything else — another extension, a web page, a content script on another
 * origin, another extension page framed into a web page — is refused.
 */
import { MESSAGE_SCOPE, type MessageType, PROFILE_FRAME_PAGE } from '../messaging';
import { isSiteUrl } from '../profile-url';
import type { Settings } from '../settings';

export interface Sender {
  id?: string;
  url?: string;
  origin?: string;
  tab?: { id?: number; url?: string };
  frameId?: number;
}

export interface Extension {
  id: string;
  /** The extension's own origin with a trailing slash, as runtime.getURL('/') gives it. */
  baseUrl: string;
}

export type SenderKind = 'extension' | 'profile' | 'frame' | null;

const pathOf = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
};

export function senderKind(
  sender: Sender,
  extension: Extension,
  sites: readonly Pick<Settings, 'siteOrigin'>[],
): SenderKind {
  if (sender.id !== extension.id || typeof sender.url !== 'string') return null;
  if (sender.url.startsWith(extension.baseUrl)) {
    // A framed extension page is only ever the buttons' frame, whatever its tab's address says:
    // a browser leaves that address out where the extension has no host permission.
    const tabUrl = sender.tab?.url;
    if (sender.frameId !== undefined && sender.frameId !== 0) {
      const onSite = tabUrl !== undefined && sites.some((site) => isSiteUrl(tabUrl, site));
      return pathOf(sender.url) === PROFILE_FRAME_PAGE && onSite ? 'frame' : null;
    }
    // The popup has no tab; the options page opens in a tab of its own, as its top frame.
    if (sender.tab === undefined) return 'extension';
    if (tabUrl === undefined) return sender.frameId === 0 ? 'extension' : null;
    return tabUrl.startsWith(extension.baseUrl) ? 'extension' : null;
  }
  const site = sites.find((one) => isSiteUrl(sender.url, one));
  if (site && sender.tab !== undefined && sender.frameId === 0) {
    if (sender.origin !== undefined && !isSiteUrl(sender.origin, site)) return null;
    return 'profile';
  }
  return null;
}

export function mayAsk(type: MessageType, kind: SenderKind): boolean {
  if (kind === 'extension') return true;
  return (kind === 'profile' || kind === 'frame') && MESSAGE_SCOPE[type] === 'profile';
}
