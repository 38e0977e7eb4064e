/**
 * Puts the follow, unfollow and report buttons on the site's profile pages and keeps them there
 * as the page changes, until `signal` aborts. The buttons live in a frame of the extension's own
 * (`entrypoints/profile-frame`): cross-origin to the page, so its script can neither read whom
 * the person follows nor click for them. This side only places the frame, one per profile shown,
 * sizes it as the frame says, follows the page's own navigation, and tells the frame how the page
 * shows it (see `frame-finding.ts`), which the frame's guard needs and cannot see for itself.
 */

import { t } from '../i18n';
import type { ProfilePageStart } from '../messaging';
import { buttonsRoom } from './buttons-room';
import { findFrame, placeInSight, TOP_LAYER } from './frame-finding';
import { claimMessage, findingMessage, isLook, isReady, readLayout } from './frame-messages';
import { type ProfilePage, watchProfilePage } from './page';
import { createShadowHost } from './shadow-host';

export interface PlaceFrameOptions {
  document: Document;
  /** Asks the background for the site's settings (`profile.start`); a refusal rejects. */
  start(url: string): Promise<ProfilePageStart>;
  signal: AbortSignal;
  /** The address of the buttons' frame page (in Chrome, one that changes every session). */
  frameUrl: string;
  /** The extension's own origin, which the frame's document has whatever address loaded it. */
  extensionOrigin: string;
}

interface Frame {
  iframe: HTMLIFrameElement;
  state: 'loading' | 'shown' | 'none';
}

/** Places the buttons' frame in the page; resolves to the page watcher, or null when this page gets none. */
export async function placeButtonsFrame({
  document,
  start: askStart,
  signal,
  frameUrl,
  extensionOrigin,
}: PlaceFrameOptions): Promise<ProfilePage | null> {
  let start: ProfilePageStart;
  try {
    const { origin, pathname } = document.location;
    start = await askStart(origin + pathname);
  } catch {
    // The background refuses pages that are not on the configured site, and is gone when the
    // extension was updated; either way this page gets no buttons.
    return null;
  }
  if (signal.aborted) return null;
  const frameOrigins = new Set([new URL(frameUrl).origin, extensionOrigin]);
  const { host, root, spacer, layer } = createShadowHost(document);
  let frame: Frame | null = null;

  /** The page's dialogs and popovers that were open when the layer last went into the top layer, under it. */
  let below = new Set<Element>();
  /**
   * Shows the layer in the top layer over the host's place: each time the host is put on the
   * page (taking it off hides the layer), and again at the next look when the page hid it.
   */
  const raise = () => {
    if (!layer.popover || !host.isConnected || layer.matches(':popover-open')) return;
    below = new Set(document.querySelectorAll(TOP_LAYER));
    layer.showPopover();
  };
  // One of them closed: opened again, it is over the layer.
  document.addEventListener('toggle', (event) => below.delete(event.target as Element), { capture: true, signal });

  /** The buttons' room, measured once from an unseen copy of them; null while it cannot be. */
  let room: { width: number; height: number } | null = null;
  const measureRoom = () => {
    const copy = buttonsRoom(document);
    root.append(copy);
    const { width, height } = copy.getBoundingClientRect();
    copy.remove();
    if (width > 0 && height > 0) room = { width: Math.ceil(width), height: Math.ceil(height) };
    return room;
  };
  // Signed in with one account, the frame first shows the buttons themselves (or, on the person's
  // own profile, holds their room unseen); otherwise it shows something else, of a size only it knows.
  const holdsRoom = start.config.signedIn && start.config.accounts.length <= 1;

  /**
   * The frame is (re)loading. Beside the anchor it takes the buttons' room at once, empty until it
   * draws them there, so nothing on the page moves when they come; floating, or when it will show
   * something else first, it stays hidden until it says how big it is.
   */
  const loading = () => {
    host.removeAttribute('data-modal');
    const size = holdsRoom && host.isConnected && !host.hasAttribute('data-floating') ? (room ?? measureRoom()) : null;
    host.toggleAttribute('data-loading', !size);
    if (size && frame) setSize([frame.iframe, spacer], size);
    raise();
  };

  const page = watchProfilePage({
    document,
    config: start.config,
    host,
    signal,
    shown: () => frame !== null && frame.state !== 'none',
    // Placing the frame loads it, and moving it in the page loads it again.
    placed: loading,
    open(username, stop) {
      const iframe = document.createElement('iframe');
      iframe.title = t('profile_frame_title', username);
      iframe.src = frameUrl;
      const opened: Frame = { iframe, state: 'loading' };
      frame = opened;
      host.toggleAttribute('data-loading', true);
      layer.append(iframe);
      stop.addEventListener('abort', () => {
        iframe.remove();
        if (frame === opened) frame = null;
      });
    },
  });

  document.defaultView?.addEventListener(
    'message',
    (event) => {
      // Only the frame we placed speaks: the page cannot send from its window, and a frame the
      // page navigated elsewhere has another origin.
      if (!frame || event.source !== frame.iframe.contentWindow || !frameOrigins.has(event.origin)) return;
      // Each new frame document (the frame reloads when the page moves it) says it listens, and
      // gets the claim as soon as its script runs rather than once all of it has loaded. Posted
      // to the extension's origin only, so a document the page navigated the frame to gets nothing.
      if (isReady(event.data)) {
        frame.iframe.contentWindow?.postMessage(claimMessage(start.claim), extensionOrigin);
        return;
      }
      if (isLook(event.data)) return look();
      const layout = readLayout(event.data);
      if (!layout) return;
      frame.state = layout.shown ? 'shown' : 'none';
      // Covering the page, the frame lays its buttons out in all its width: their place in the
      // page keeps the size it had, so the page does not move under the dialog.
      setSize(layout.modal ? [frame.iframe] : [frame.iframe, spacer], layout);
      host.toggleAttribute('data-modal', layout.modal);
      host.toggleAttribute('data-loading', !layout.shown);
      page.check();
      look();
    },
    { signal },
  );

  /**
   * Finds how the page shows the frame and tells the frame, now and then and whenever it asks (a
   * click waits for the answer). Posted to the extension's origin with the tab's claim, which the
   * frame already holds: nothing the page posts can pass for it.
   */
  const look = () => {
    if (frame?.state !== 'shown' || !host.isConnected) return;
    const { iframe } = frame;
    raise();
    // Floating or covering the page, the frame has no place on the page to be out of sight.
    const inSight = host.matches('[data-floating], [data-modal]') || placeInSight(host, layer);
    host.toggleAttribute('data-under', !inSight);
    iframe.contentWindow?.postMessage(
      findingMessage(start.claim, findFrame({ iframe, inSight, below })),
      extensionOrigin,
    );
  };
  // Often enough that a frame moved or restyled is known before a click a person makes on it.
  const looking = setInterval(look, 100);
  signal.addEventListener('abort', () => clearInterval(looking), { once: true });
  document.defaultView?.addEventListener('scroll', look, { capture: true, passive: true, signal });

  page.check();
  return page;
}

/** Gives the frame, or the frame and the room it holds in the page, the frame's size. */
function setSize(elements: HTMLElement[], { width, height }: { width: number; height: number }) {
  for (const { style } of elements) {
    style.width = `${width}px`;
    style.height = `${height}px`;
  }
}
