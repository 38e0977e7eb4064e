// @vitest-environment happy-dom
import { render } from '@testing-library/preact';
import { render as renderInto } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { FIRST_ROW_MARK } from '../../../components/popup/first-row-mark';
import { drawFirstScreen, keepFirstScreen } from '../../../components/popup/first-screen';
import { holdInput, paintCopy } from '../../../components/popup/first-screen-copy';
import { Popup } from '../../../components/popup/popup';
import { startPopup } from '../../../components/popup/take-over';
import type { Notification } from '../../../lib/api/contract';
import { writeCachedFirstPage } from '../../../lib/inbox-cache';
import { setInboxFilter } from '../../../lib/inbox-filter';
import { ALL_ACCOUNTS } from '../../../lib/messaging';
import { type FirstScreen, readFirstScreen, snapshotFirstScreen } from '../../../lib/popup/first-screen-state';
import { createInboxStore } from '../../../lib/popup/inbox-store';
import { getSettings, SYNCED, updateSettings } from '../../../lib/settings';
import { writeStored } from '../../../lib/stored';
import { ACCOUNT, anotherAccount } from '../../support/background';
import { createPopupBackground, makeInbox, makeNotification, trouble, type World } from './popup-background';
import { resetPopupWorld } from './popup-harness';

beforeEach(() => {
  resetPopupWorld();
  localStorage.clear();
  document.body.replaceChildren();
});

afterEach(() => {
  const app = document.getElementById('app');
  // A popup started here renders into its own root, which the testing library does not know: it
  // closes with the test, before the next one (perhaps another file's) uses the same page.
  if (app) renderInto(null, app);
});

const POST = 'http://127.0.0.1:8787/posts/1';
/** Rows of every kind: unread and read, a group of likes, a link to another site, a notice from nobody. */
const MIXED = makeInbox(8, (n) =>
  n === 1
    ? { url: 'https://elsewhere.example/thread', actor: null, type: 'system' }
    : n >= 3 && n <= 5
      ? { type: 'like', url: POST, read: n === 4 }
      : {},
);

interface Setup extends World {
  inbox?: Notification[];
  cursor?: string | null;
  unreadOnly?: boolean;
  trouble?: (request: Request) => Response | undefined;
}

/** Storage as the background leaves it after a check of the service and a first page fetched. */
async function storedWorld({ inbox = MIXED, cursor = 'next', unreadOnly = false, ...world }: Setup = {}) {
  const background = createPopupBackground(inbox, world);
  background.answerWith(world.trouble ?? null);
  if (unreadOnly) await updateSettings({ unreadOnly: true });
  await background.check();
  const data = unreadOnly ? inbox.filter((item) => !item.read) : inbox;
  await writeCachedFirstPage(ACCOUNT, unreadOnly, { data, cursor });
  return background;
}

const firstScreen = async () => readFirstScreen(await snapshotFirstScreen());

/**
 * An element tree as text: tags, attributes in order of name, the state of form controls, and
 * each text node on its own (the popup takes the painted nodes over as they are).
 */
function shape(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return `«${node.textContent ?? ''}»`;
  if (!(node instanceof Element)) return '';
  const attributes = [...node.attributes]
    .map((attribute) => `${attribute.name}="${attribute.value}"`)
    .sort()
    .join(' ');
  const state = node instanceof HTMLInputElement ? ` checked=${node.checked} indeterminate=${node.indeterminate}` : '';
  // The shortcut help loads its code when first rendered, and shows once it is there.
  const inner = node.tagName === 'FOOTER' ? '' : [...node.childNodes].map(shape).join('');
  return `<${node.tagName.toLowerCase()} ${attributes}${state}>${inner}</${node.tagName.toLowerCase()}>`;
}

/** The first screen drawn, and what the popup renders from the same state. */
function paintAndRender(screen: FirstScreen) {
  const painted = drawFirstScreen(screen);
  const { container } = render(<Popup store={createInboxStore(undefined, screen)} />);
  return { painted, rendered: container.firstElementChild };
}

describe('the first screen', () => {
  it.each([
    ['every kind of row, with more to load', {}],
    ['the whole inbox loaded', { cursor: null }],
    ['unread only', { unreadOnly: true }],
  ] satisfies [string, Setup][])('is what the popup renders for the same state: %s', async (_, setup) => {
    await storedWorld(setup);
    const { painted, rendered } = paintAndRender(await firstScreen());
    expect(painted).not.toBeNull();
    expect(shape(painted as Element)).toBe(shape(rendered as Element));
  });

  it('is what the popup renders for all accounts as one list, each row naming its account', async () => {
    await storedWorld({ cursor: null });
    await anotherAccount('work', 'work-token', {}, 'worker');
    const work = [makeNotification(20, { text: 'From work', id: 'work-20' })];
    await writeCachedFirstPage('work', false, { data: work, cursor: null });
    const screen = await firstScreen();
    expect(screen.state.account).toBe(ALL_ACCOUNTS);
    const { painted, rendered } = paintAndRender(screen);
    expect([...(painted?.querySelectorAll('.account') ?? [])].map((each) => each.textContent)).toContain('for @worker');
    expect(shape(painted as Element)).toBe(shape(rendered as Element));
  });

  it('is the real list for assistive technology: the feed named "Notifications", its articles, Load more', async () => {
    await storedWorld();
    const app = document.body.appendChild(drawFirstScreen(await firstScreen()) as HTMLElement);
    const feed = app.querySelector('[role="feed"]');
    expect(feed?.getAttribute('aria-label')).toBe('Notifications');
    const articles = feed?.querySelectorAll('article') ?? [];
    // Eight notifications, three of them one group.
    expect(articles).toHaveLength(6);
    const first = articles[0] as HTMLElement;
    expect(document.getElementById(first.getAttribute('aria-labelledby') ?? '')?.textContent).toBe(
      'Notification number 8',
    );
    expect(first.querySelector('button[aria-label="Mark read"]')).not.toBeNull();
    expect(app.querySelector('button.load-more')?.textContent).toBe('Load more');
    expect(app.querySelector('[role="switch"]')?.getAttribute('aria-checked')).toBe('false');
  });

  it.each([
    ['signed out', { signedIn: false }],
    ['the service refuses the token', { trouble: trouble.unauthorized }],
    ['an empty inbox', { inbox: [] }],
  ] satisfies [string, Setup][])('is not drawn, and no copy kept, when %s', async (_, setup) => {
    await storedWorld(setup);
    expect(drawFirstScreen(await firstScreen())).toBeNull();
    localStorage.setItem('firstScreen', JSON.stringify({ html: '<div><article></article></div>', lang: 'en' }));
    keepFirstScreen(await firstScreen());
    expect(paintCopy(document.createElement('div'))).toBeNull();
  });

  it('is not drawn when the list shows one type, which the cache does not hold', async () => {
    await storedWorld();
    await setInboxFilter(['mention']);
    expect(drawFirstScreen(await firstScreen())).toBeNull();
  });

  it('follows the settings as the popup reads them, the synced ones over this computer’s', async () => {
    const cases: Record<string, unknown>[] = [
      {},
      { unreadOnly: true, groupNotifications: false },
      { unreadOnly: 'yes', markReadOnOpen: false, groupedTypes: { like: false, mention: true, reply: 'no' } },
      { density: 'comfortable' },
      { density: 'roomy' },
    ];
    for (const synced of cases) {
      fakeBrowser.reset();
      await fakeBrowser.storage.local.set({ settings: { unreadOnly: true, groupedTypes: { follow: false } } });
      await writeStored(SYNCED, synced);
      const settings = await getSettings();
      const { state } = await firstScreen();
      expect(state.unreadOnly).toBe(settings.unreadOnly);
      expect(state.markReadOnOpen).toBe(settings.markReadOnOpen);
      expect(state.grouping).toEqual(settings.groupNotifications && settings.groupedTypes);
      expect(state.density).toBe(settings.density);
    }
  });

  it.each(['compact', 'comfortable'] as const)(
    'is drawn in the %s density the person chose, as the popup renders it',
    async (density) => {
      await storedWorld();
      await updateSettings({ density });
      const { painted, rendered } = paintAndRender(await firstScreen());
      expect(painted?.className).toBe(`popup ${density}`);
      expect(shape(painted as Element)).toBe(shape(rendered as Element));
    },
  );
});

function appRoot() {
  const app = document.body.appendChild(document.createElement('div'));
  app.id = 'app';
  return app;
}

/** An earlier opening of the popup, with no copy to paint, which keeps its first screen and closes. */
async function openedBefore() {
  const earlier = document.body.appendChild(document.createElement('div'));
  await startPopup(earlier);
  await vi.waitFor(() => expect(localStorage.getItem('firstScreen')).not.toBeNull());
  renderInto(null, earlier);
  earlier.remove();
  performance.clearMarks();
}

describe('the popup taking over the first screen', () => {
  /** An opening after one that kept its first screen: the copy painted, as the popup's first module does. */
  async function open() {
    const background = await storedWorld();
    await openedBefore();
    const app = appRoot();
    const painted = paintCopy(app) as HTMLElement;
    return { app, painted, background };
  }

  it('keeps focus and scroll, and leaves one feed', async () => {
    const { app, painted } = await open();
    const scroller = painted.querySelector('.scroller') as HTMLElement;
    scroller.scrollTop = 120;
    const snooze = painted.querySelectorAll<HTMLElement>('button[aria-label="Snooze"]')[2] as HTMLElement;
    snooze.focus();
    const rows = [...painted.querySelectorAll('article')];
    await startPopup(app, undefined, painted);
    // The same elements, now the popup's.
    expect(app.firstElementChild).toBe(painted);
    expect([...document.querySelectorAll('[role="feed"] article')]).toEqual(rows);
    expect(document.querySelectorAll('[role="feed"]')).toHaveLength(1);
    expect(document.activeElement).toBe(snooze);
    expect(document.querySelector('.scroller')?.scrollTop).toBe(120);
    // And they answer: the focused Snooze opens the snooze menu.
    snooze.click();
    await vi.waitFor(() => expect(document.querySelector('[role="menu"]')).not.toBeNull());
  });

  it('paints the faces without their pictures, which the popup gives back as it takes over', async () => {
    const picture = (n: number) => `http://127.0.0.1:8787/avatars/user${n}.svg`;
    await storedWorld({
      inbox: makeInbox(3, (n) => ({
        actor: { username: `user${n}`, displayName: `User ${n}`, avatarUrl: picture(n) },
      })),
    });
    await openedBefore();
    const app = appRoot();
    const painted = paintCopy(app) as HTMLElement;
    const faces = [...painted.querySelectorAll('.avatar img')];
    expect(faces).toHaveLength(3);
    expect(faces.filter((face) => face.hasAttribute('src'))).toEqual([]);
    await startPopup(app, undefined, painted);
    expect([...app.querySelectorAll('.avatar img')]).toEqual(faces);
    expect(faces.map((face) => face.getAttribute('src'))).toEqual([picture(3), picture(2), picture(1)]);
  });

  it('acts on the clicks made on the painted screen once it has taken over', async () => {
    const { app, painted } = await open();
    const clicks = holdInput(painted);
    const rows = painted.querySelectorAll<HTMLElement>('article.unread');
    const marked = rows[0] as HTMLElement;
    const ticked = rows[1] as HTMLElement;
    (marked.querySelector('button[aria-label="Mark read"]') as HTMLElement).click();
    (ticked.querySelector('input.select') as HTMLInputElement).click();
    // The painted screen does nothing on its own but tick the box.
    expect(marked.classList.contains('unread')).toBe(true);
    expect(painted.querySelector('.selected-count')).toBeNull();
    await startPopup(app, undefined, painted, clicks);
    const now = (row: HTMLElement) => document.querySelector(`article[data-id="${row.dataset.id}"]`) as HTMLElement;
    await vi.waitFor(() => expect(document.querySelector('.selected-count')?.textContent).toBe('1 selected'));
    expect((now(ticked).querySelector('input.select') as HTMLInputElement).checked).toBe(true);
    await vi.waitFor(() => expect(now(marked).classList.contains('unread')).toBe(false));
  });

  it('acts on the keys pressed on the painted screen once it has taken over, each after the one before', async () => {
    const { app, painted } = await open();
    const held = holdInput(painted);
    const press = (key: string) =>
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    // Down to the first row, down to the second, and select it.
    press('j');
    press('j');
    press('x');
    expect(painted.querySelector('.selected-count')).toBeNull();
    await startPopup(app, undefined, painted, held);
    await vi.waitFor(() => expect(app.querySelector('.selected-count')?.textContent).toBe('1 selected'));
    const second = app.querySelectorAll('article')[1] as HTMLElement;
    expect((second.querySelector('input.select') as HTMLInputElement).checked).toBe(true);
    expect(document.activeElement).toBe(second);
  });

  it('takes input before the code that talks to the background is there, and acts on it once', async () => {
    const { app, painted, background } = await open();
    background.calls.splice(0);
    await startPopup(app, undefined, painted);
    // Taken over, and nothing asked of the background yet: that part of the popup is still loading.
    expect(background.calls).toEqual([]);
    const row = app.querySelector<HTMLElement>('article.unread') as HTMLElement;
    (row.querySelector('button[aria-label="Mark read"]') as HTMLElement).click();
    (app.querySelector('input.select') as HTMLInputElement).click();
    await vi.waitFor(() => expect(app.querySelector('.selected-count')?.textContent).toBe('1 selected'));
    await vi.waitFor(() => expect(row.classList.contains('unread')).toBe(false));
    const marks = background.calls.filter(({ type }) => type === 'inbox.markRead');
    expect(marks).toEqual([{ type: 'inbox.markRead', data: expect.objectContaining({ ids: [row.dataset.id] }) }]);
  });

  it('paints the first screen itself when no copy is kept, and keeps one for the next opening', async () => {
    await storedWorld();
    const app = appRoot();
    expect(paintCopy(app)).toBeNull();
    await startPopup(app);
    expect(app.querySelectorAll('[role="feed"] article')).toHaveLength(6);
    expect(performance.getEntriesByName(FIRST_ROW_MARK)).toHaveLength(1);
    await vi.waitFor(() =>
      expect(paintCopy(document.createElement('div'))?.querySelectorAll('[role="feed"] article')).toHaveLength(6),
    );
  });
});

describe('the kept copy of the first screen', () => {
  const HOUR = 3_600_000;

  it('paints at once what the popup rendered last time, with each age counted to the opening', async () => {
    // The whole inbox cached, as the service gives it again when the popup opens.
    await storedWorld({ cursor: null });
    await openedBefore();
    // Opened an hour later: the rows' ages have grown by an hour since.
    const opened = Date.now() + HOUR;
    const painted = paintCopy(appRoot(), opened);
    expect(painted).not.toBeNull();
    expect(performance.getEntriesByName(FIRST_ROW_MARK)).toHaveLength(1);
    const drawn = drawFirstScreen(await firstScreen(), opened) as HTMLElement;
    // Markup read back joins neighbouring words into one text node; the popup's render parts them.
    drawn.normalize();
    expect(shape(painted as Element)).toBe(shape(drawn));
    expect(painted?.querySelector('[role="feed"]')?.getAttribute('aria-label')).toBe('Notifications');
  });

  it('paints nothing, and leaves the screen to the popup, when the copy cannot be read', () => {
    const app = appRoot();
    const row = '<div class="popup"><article><time datetime="2026-11-20T19:28:00.000Z">now</time></article></div>';
    for (const kept of [
      '{"html":',
      JSON.stringify({ html: row, lang: 'not a language!' }),
      JSON.stringify({ lang: 'en' }),
    ]) {
      localStorage.setItem('firstScreen', kept);
      expect(paintCopy(app)).toBeNull();
      expect(app.childNodes).toHaveLength(0);
    }
    expect(performance.getEntriesByName(FIRST_ROW_MARK)).toHaveLength(0);
  });

  it('shows the "Unread only" switch as it was kept', async () => {
    await storedWorld({ unreadOnly: true });
    await openedBefore();
    const painted = paintCopy(appRoot());
    const unreadOnly = painted?.querySelector('[role="switch"]') as HTMLInputElement;
    expect(unreadOnly.checked).toBe(true);
  });

  it('gives way to what storage holds when it has gone stale, keeping focus, scroll and the clicks made', async () => {
    await storedWorld();
    await openedBefore();
    const app = appRoot();
    const painted = paintCopy(app) as HTMLElement;
    const clicks = holdInput(painted);
    const [first, second] = [...painted.querySelectorAll<HTMLElement>('article')].map((each) => each.dataset.id);
    const copied = (id: string | undefined) => painted.querySelector(`article[data-id="${id}"]`) as HTMLElement;
    // Since the copy was kept, a notification arrived and the newest one was read elsewhere.
    const arrived = makeNotification(9, { text: 'Arrived since', id: 'n-9' });
    const inbox = [arrived, ...MIXED.map((item, index) => (index === 0 ? { ...item, read: true } : item))];
    await writeCachedFirstPage(ACCOUNT, false, { data: inbox, cursor: 'next' });
    (painted.querySelector('.scroller') as HTMLElement).scrollTop = 80;
    (copied(second).querySelector('button[aria-label="Snooze"]') as HTMLElement).focus();
    (copied(second).querySelector('input.select') as HTMLInputElement).click();

    await startPopup(app, undefined, painted, clicks);
    const row = (id: string | undefined) => app.querySelector(`article[data-id="${id}"]`) as HTMLElement;
    expect(app.querySelector('article')?.textContent).toContain('Arrived since');
    expect(row(first).classList.contains('unread')).toBe(false);
    expect(row(first).querySelector('button[aria-label="Mark unread"]')).not.toBeNull();
    expect(app.querySelectorAll('[role="feed"]')).toHaveLength(1);
    expect(document.activeElement).toBe(row(second).querySelector('button[aria-label="Snooze"]'));
    expect(app.querySelector('.scroller')?.scrollTop).toBe(80);
    await vi.waitFor(() => expect(app.querySelector('.selected-count')?.textContent).toBe('1 selected'));
    expect((row(second).querySelector('input.select') as HTMLInputElement).checked).toBe(true);
    expect((row(first).querySelector('input.select') as HTMLInputElement).checked).toBe(false);
  });

  it('goes when there is no list to show, and the popup shows what it would without one', async () => {
    await storedWorld();
    await openedBefore();
    const app = appRoot();
    const painted = paintCopy(app) as HTMLElement;
    await fakeBrowser.storage.local.remove('accounts');
    await startPopup(app, undefined, painted);
    expect(app.querySelector('article')).toBeNull();
    expect(paintCopy(document.createElement('div'))).toBeNull();
  });

  it('follows storage while the popup is open, so the next opening paints what it left', async () => {
    await storedWorld();
    await openedBefore();
    const app = appRoot();
    await startPopup(app, undefined, paintCopy(app));
    // Once the popup has its first page from the background, which writes it to storage too.
    await vi.waitFor(() => expect(app.querySelector('[role="feed"]')?.getAttribute('aria-busy')).toBe('false'));
    await writeCachedFirstPage(ACCOUNT, false, {
      data: [makeNotification(30, { text: 'Arrived while open', id: 'n-30' })],
      cursor: null,
    });
    await vi.waitFor(() => {
      const next = paintCopy(document.createElement('div'));
      expect(next?.querySelector('article')?.textContent).toContain('Arrived while open');
    });
  });
});
