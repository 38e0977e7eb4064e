/**
 * Puts the follow, unfollow and report buttons on the site's profile pages and keeps them
 * there as the page changes, until `signal` aborts. Asks the background for everything.
 */
import { render } from 'preact';
import type { ProfilePageStart } from '../../lib/messaging';
import { type ProfilePage, watchProfilePage } from '../../lib/profile/page';
import { type Ask, createProfileSession, type ProfileSession } from '../../lib/profile/profile-state';
import { createShadowHost } from '../../lib/profile/shadow-host';
import { usernameFromUrl } from '../../lib/profile-url';
import css from './profile.css?inline';
import { ProfileButtons } from './profile-buttons';

export interface StartOptions {
  document: Document;
  ask: Ask;
  signal: AbortSignal;
}

/** Starts the buttons; resolves to the page watcher, or null when this page gets none. */
export async function startProfileButtons({ document, ask, signal }: StartOptions): Promise<ProfilePage | null> {
  let start: ProfilePageStart;
  try {
    const { origin, pathname } = document.location;
    start = await ask('profile.start', { url: origin + pathname });
  } catch {
    // The background refuses pages that are not on the configured site, and is gone when the
    // extension was updated; either way this page gets no buttons.
    return null;
  }
  if (signal.aborted) return null;
  const { config } = start;
  /** The profile that came with the settings, until the page shows it or has moved on. */
  let first = start.profile;

  const { host, mountPoint } = createShadowHost(document, css);
  let session: ProfileSession | null = null;
  const draw = () => render(session && <ProfileButtons key={session.username} session={session} />, mountPoint);

  const page = watchProfilePage({
    document,
    config,
    host,
    signal,
    shown: () => session !== null && session.view.kind !== 'loading' && session.view.kind !== 'none',
    placed: draw,
    open(username, stop) {
      const given = first && first.username.toLowerCase() === username.toLowerCase() ? first.answer : undefined;
      first = null;
      const opened = createProfileSession(
        username,
        ask,
        stop,
        () => {
          const shows = usernameFromUrl(document.location.href, config)?.toLowerCase() === username.toLowerCase();
          // The page moved on without a sign the watcher saw: the buttons follow it now.
          if (!shows) queueMicrotask(() => page.check());
          return shows;
        },
        given,
        config.account ?? '',
      );
      session = opened;
      opened.subscribe(() => {
        draw();
        page.check();
      });
      stop.addEventListener('abort', () => {
        if (session !== opened) return;
        session = null;
        draw();
      });
      void opened.load();
    },
  });

  // Signing in happens on the options page; coming back to this tab shows the result.
  document.addEventListener(
    'visibilitychange',
    () => {
      if (document.visibilityState === 'visible' && session?.view.kind === 'signedOut') void session.load();
    },
    { signal },
  );
  signal.addEventListener('abort', () => render(null, mountPoint), { once: true });
  page.check();
  return page;
}
