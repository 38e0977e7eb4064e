/**
 * The buttons' frame: an extension page the content script frames into the site's profile
 * pages. It shows the profile its tab shows, as the background reads it from the tab's address
 * (never from the frame's own address or from a message the page could send), and tells the
 * content script only how much room it needs.
 */
import { errorFields } from '../../lib/api/errors';
import { uiLanguage } from '../../lib/i18n';
import type { ProfileFrameStart } from '../../lib/messaging';
import { type ClickGuard, guardClicks } from '../../lib/profile/click-guard';
import { type FrameLayout, readFinding } from '../../lib/profile/frame-messages';
import { type Ask, createProfileSession } from '../../lib/profile/profile-state';
import { profileButtons } from './profile-buttons';

/** Claims the frame tries before it gives up: a page that posts more only keeps its buttons off. */
const MAX_CLAIMS = 20;

export interface FramePageOptions {
  document: Document;
  ask: Ask;
  /** Tells the page's content script, on the site's origin, the frame's layout. */
  tell(layout: FrameLayout, siteOrigin: string): void;
  /** Asks the page's content script how the page shows the frame now (see `guardClicks`). */
  look?(siteOrigin: string): void;
  /** The next claim the parent window posts; the content script's is among them. */
  nextClaim(): Promise<string>;
  /** Aborts when the frame goes; by default it lives as long as its page. */
  signal?: AbortSignal;
  /** Which clicks act: by default only those on a frame shown whole and seen or rested on (see `guardClicks`). */
  guard?: ClickGuard;
}

/** Starts the buttons in the frame; resolves once they know what to show. */
export async function startButtonsFramePage({
  document,
  ask,
  tell,
  look,
  nextClaim,
  signal = new AbortController().signal,
  guard: given,
}: FramePageOptions): Promise<void> {
  document.documentElement.lang = uiLanguage();
  let siteOrigin = '';
  // Watching from the start: the browser's word that it sees the frame whole takes a moment.
  const guard = given ?? guardClicks({ document, signal, look: () => siteOrigin && look?.(siteOrigin) });
  let start: ProfileFrameStart | undefined;
  let claim = '';
  // The page may post claims of its own first; the background takes only the content script's.
  for (let tries = 0; start === undefined && tries < MAX_CLAIMS; tries++) {
    try {
      claim = await nextClaim();
      start = await ask('profile.frame', { claim });
    } catch (error) {
      // Anything but a refused claim (the background gone with an update) ends the frame.
      if (errorFields(error)?.code !== 'forbidden') return;
    }
  }
  if (!start) return;
  const { username, answer, accounts } = start;
  siteOrigin = start.siteOrigin;
  // The content script says how the page shows the frame with the claim the background took:
  // the page, which never learns it, can tell the frame nothing.
  const view = document.defaultView;
  view?.addEventListener(
    'message',
    (event) => {
      const finding = event.source === view.parent ? readFinding(event.data, claim) : null;
      if (finding) guard.see?.(finding);
    },
    { signal },
  );
  const mount = document.getElementById('app') ?? document.body;
  // The frame lives as long as the profile it shows: the content script makes a new one for the next.
  let stopSession = new AbortController();
  const open = (account: string, given?: typeof answer) => {
    stopSession.abort();
    stopSession = new AbortController();
    const stop = AbortSignal.any([signal, stopSession.signal]);
    const opened = createProfileSession(username, ask, stop, () => true, given, account);
    opened.subscribe(draw);
    return opened;
  };
  /** With several accounts on this site, the person chooses whom the buttons act as. */
  let switched = false;
  const choose = (account: string) => {
    // The bar stays, with the choice, while the other account's view of the profile loads.
    switched = true;
    session = open(account);
    draw();
    void session.load();
  };
  let told = '';
  const measure = () => {
    const { view } = session;
    const box = mount.getBoundingClientRect();
    // The width asked for is the buttons' on one line; the page may give the frame less (its
    // width is at most its container's), and the buttons then wrap, as tall as they are now.
    mount.style.maxWidth = 'none';
    const oneLine = mount.getBoundingClientRect().width;
    mount.style.maxWidth = '';
    const layout: FrameLayout = {
      shown: view.kind !== 'none' && (view.kind !== 'loading' || switched),
      modal: view.kind === 'ready' && view.report !== null,
      width: Math.ceil(oneLine),
      height: Math.ceil(box.height),
    };
    const text = JSON.stringify(layout);
    if (text === told) return;
    told = text;
    tell(layout, siteOrigin);
  };
  const drawButtons = profileButtons(mount, guard);
  function draw() {
    drawButtons({ session, accounts, onAccount: choose });
    measure();
  }
  let session = open(start.account, answer);
  const resizes = new ResizeObserver(measure);
  resizes.observe(mount);
  signal.addEventListener('abort', () => resizes.disconnect(), { once: true });
  // Signing in happens on the options page; coming back to this tab shows the result.
  document.addEventListener(
    'visibilitychange',
    () => {
      if (document.visibilityState === 'visible' && session.view.kind === 'signedOut') void session.load();
    },
    { signal },
  );
  await session.load();
}
