/**
 * Follows the page: which profile it shows (its URL, read with the configured pattern) and
 * where the buttons belong. Single-page navigation changes the URL without a reload and may
 * replace the part of the page that held the anchor; every such change ends the buttons of the
 * old profile and starts those of the new one, or moves the one host to the new anchor.
 */
import type { ProfilePageConfig } from '../messaging';
import { usernameFromUrl } from '../profile-url';
import { attachBeside, findAnchor } from './attach';

export interface ProfilePageOptions {
  document: Document;
  config: Pick<ProfilePageConfig, 'siteOrigin' | 'profilePath' | 'profileAnchor'>;
  /**
   * The one element that holds the buttons, in a shadow root. Its tag is its own: another
   * element of that tag without a shadow root is a copy the page made of it.
   */
  host: HTMLElement;
  /** Aborts when the content script ends: everything is taken off the page. */
  signal: AbortSignal;
  /** The page now shows this profile; `signal` aborts when it stops showing it. */
  open(username: string, signal: AbortSignal): void;
  /** Whether the buttons have something to show for the current profile. */
  shown(): boolean;
  /** The host was put back on the page after the page moved or dropped it. */
  placed?(): void;
}

export interface ProfilePage {
  /** Reads the URL and the anchor again; call it on any sign that the page changed. */
  check(): void;
}

export function watchProfilePage(options: ProfilePageOptions): ProfilePage {
  const { document, config, host, signal } = options;
  let href: string | null = null;
  let current: { key: string; stop: AbortController } | null = null;

  const follow = () => {
    if (document.location.href === href) return;
    href = document.location.href;
    const username = usernameFromUrl(href, config);
    const key = username?.toLowerCase() ?? null;
    if (key === (current?.key ?? null)) return;
    current?.stop.abort();
    current = null;
    host.remove();
    if (username && key) {
      current = { key, stop: new AbortController() };
      options.open(username, current.stop.signal);
    }
  };

  const returns = pacer();
  let waiting: ReturnType<typeof setTimeout> | undefined;
  let placedBefore = false;
  let allowed = false;

  const check = () => {
    if (signal.aborted) return;
    const permitted = allowed;
    allowed = false;
    follow();
    // A page that clones its own DOM (a snapshot cache, a template copied with its children)
    // copies the host without its shadow root: an empty, dead second host.
    for (const copy of [...document.getElementsByTagName(host.localName)]) {
      if (copy !== host && !copy.shadowRoot) copy.remove();
    }
    if (!current || !options.shown()) {
      host.remove();
      return;
    }
    if (placedBefore && !host.isConnected && !permitted) {
      if (waiting !== undefined) return;
      const wait = returns.next();
      if (wait > 0) {
        waiting = setTimeout(() => {
          waiting = undefined;
          allowed = true;
          check();
        }, wait);
        return;
      }
    }
    // While the page is still being parsed its anchor may yet come: floating now and moving
    // later would load the frame twice.
    if (document.readyState === 'loading' && !findAnchor(document, config.profileAnchor)) return;
    if (attachBeside(host, document, config.profileAnchor)) {
      placedBefore = true;
      options.placed?.();
    }
  };

  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true });
  document.defaultView?.addEventListener('popstate', check, { signal });
  document.addEventListener('DOMContentLoaded', check, { signal });
  signal.addEventListener(
    'abort',
    () => {
      observer.disconnect();
      clearTimeout(waiting);
      current?.stop.abort();
      current = null;
      host.remove();
    },
    { once: true },
  );
  return { check };
}

/** Returns in quick succession before the next one waits; each wait after that doubles. */
const QUICK_RETURNS = 3;
const FIRST_WAIT_MS = 100;
const LONGEST_WAIT_MS = 5_000;

/**
 * How long to wait before putting the host back after the page took it off. A page that removes
 * it whenever it appears would otherwise trade mutations with the buttons forever, each answering
 * the other within one turn of the event loop, and the page would hang. A few returns are quick,
 * as single-page navigation needs; a host that stays off keeps coming back, less and less often.
 */
function pacer(now = () => performance.now()) {
  let count = 0;
  let last = Number.NEGATIVE_INFINITY;
  return {
    next(): number {
      const at = now();
      if (at - last > LONGEST_WAIT_MS) count = 0;
      count += 1;
      last = at;
      return count <= QUICK_RETURNS ? 0 : Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** (count - QUICK_RETURNS - 1));
    },
  };
}
