// @vitest-environment happy-dom
import { act, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIRST_ROW_MARK } from '../../../components/popup/notification-feed';
import { NetworkError } from '../../../lib/api/errors';
import { getSettings } from '../../../lib/settings';
import { ACCOUNT } from '../../support/background';
import { makeInbox, makeNotification } from './popup-background';
import { announced, openPopup, resetPopupWorld, row, rowTexts, settle, waitForRows } from './popup-harness';

beforeEach(resetPopupWorld);
const RealIntersectionObserver = globalThis.IntersectionObserver;
// Only the observer is put back: the fake browser's own globals stay.
afterEach(() => {
  globalThis.IntersectionObserver = RealIntersectionObserver;
});

describe('opening', () => {
  it('paints the cached first page before the service answers, then updates it in place', async () => {
    const inbox = makeInbox(30);
    const cached = inbox.slice(0, 25);
    const fresh = [makeNotification(31, { text: 'Arrived since the cache' }), ...inbox.filter((_, i) => i !== 1)];
    const { background, user } = await openPopup({
      inbox: fresh,
      cached: { data: cached, cursor: 'stale' },
      prepare: (background) => background.hold('inbox.fetch'),
    });

    await waitForRows(25);
    expect(rowTexts()[1]).toBe('Notification number 29');
    expect(performance.getEntriesByName(FIRST_ROW_MARK)).toHaveLength(1);

    await user.click(screen.getByRole('checkbox', { name: 'Select: Notification number 28' }));
    const focused = document.activeElement;
    await act(() => background.releaseAll());
    await waitFor(() => expect(rowTexts()[0]).toBe('Arrived since the cache'));

    expect(rowTexts()).not.toContain('Notification number 29');
    expect(document.activeElement).toBe(focused);
    expect(screen.getByRole('checkbox', { name: 'Select: Notification number 28' })).toHaveProperty('checked', true);
    expect(background.callsOf('inbox.fetch')).toEqual([{ account: ACCOUNT, cursor: null, unreadOnly: false }]);
    expect(background.calls.some((call) => call.type === 'status.refresh')).toBe(true);
  });

  it('shows each notification with its type, actor, text, time and read state, newest first', async () => {
    await openPopup({
      inbox: [
        makeNotification(2, {
          type: 'mention',
          read: false,
          createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
        }),
        makeNotification(1, { type: 'like', read: true, actor: null }),
      ],
    });
    await waitForRows(2);
    const unread = row('Notification number 2');
    expect(unread.textContent).toContain('Mention');
    expect(unread.textContent).toContain('User 2');
    expect(unread.textContent).toContain('@user2');
    expect(unread.querySelector('time')?.textContent).toBe('5 min. ago');
    expect(screen.getAllByRole('img', { name: 'Unread' })).toHaveLength(1);
    expect(unread.contains(screen.getByRole('img', { name: 'Unread' }))).toBe(true);
    expect(row('Notification number 1').textContent).toContain('Like');
  });
});

describe('paging', () => {
  it('pages through the whole inbox with the service cursor until there is no further page', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(60) });
    await waitForRows(25);

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitForRows(50);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitForRows(60);

    expect(rowTexts()).toEqual(makeInbox(60).map((item) => item.text));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.getByText("That's everything.")).toBeTruthy();
    const cursors = background.callsOf('inbox.fetch').map((call) => (call as { cursor: string | null }).cursor);
    expect(cursors).toHaveLength(3);
    expect(cursors[0]).toBeNull();
    expect(new Set(cursors).size).toBe(3);
    expect(announced()).toBe('10 more notifications loaded.');
  });

  it('loads the next page when the end of the list scrolls into view', async () => {
    const observed: { callback: IntersectionObserverCallback; target?: Element }[] = [];
    globalThis.IntersectionObserver = class {
      constructor(public callback: IntersectionObserverCallback) {}
      observe(target: Element) {
        observed.push({ callback: this.callback, target });
      }
      disconnect() {}
    } as unknown as typeof IntersectionObserver;
    await openPopup({ inbox: makeInbox(40) });
    await waitForRows(25);

    const button = screen.getByRole('button', { name: 'Load more' });
    await waitFor(() => expect(observed.at(-1)?.target).toBe(button));
    act(() =>
      observed.at(-1)?.callback([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver),
    );
    await waitForRows(40);
  });

  it('shows why the next page failed and tries again from the same place', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(30) });
    await waitForRows(25);
    background.failNext('inbox.fetch', new NetworkError());

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('The service cannot be reached.')).toBeTruthy();
    expect(rowTexts()).toHaveLength(25);

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitForRows(30);
    const [, failed, retried] = background.callsOf('inbox.fetch');
    expect(retried).toEqual(failed);
  });

  it('asks for the next page at once when the service is asked for more while the first is revalidating', async () => {
    const inbox = makeInbox(30);
    const { background, user } = await openPopup({
      inbox,
      cached: { data: inbox.slice(0, 25), cursor: 'old' },
      prepare: (background) => background.hold('inbox.fetch'),
    });
    await waitForRows(25);

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await act(() => background.releaseAll());
    await waitForRows(30);
    const cursors = background.callsOf('inbox.fetch').map((call) => (call as { cursor: string | null }).cursor);
    expect(cursors[0]).toBeNull();
    expect(cursors[1]).not.toBe('old');
  });
});

describe('unread only', () => {
  it('restarts the list with only unread notifications and remembers the choice', async () => {
    const inbox = makeInbox(40);
    const { background, user, unmount } = await openPopup({ inbox });
    await waitForRows(25);

    await user.click(screen.getByRole('switch', { name: 'Unread only' }));
    const unread = inbox.filter((item) => !item.read);
    await waitFor(() => expect(rowTexts()).toEqual(unread.slice(0, 25).map((item) => item.text)));
    expect(background.callsOf('inbox.fetch').at(-1)).toEqual({ account: ACCOUNT, cursor: null, unreadOnly: true });
    expect((await getSettings()).unreadOnly).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitForRows(unread.length);
    expect(rowTexts()).toEqual(unread.map((item) => item.text));

    unmount();
    await openPopup({ inbox });
    await settle();
    expect(screen.getByRole('switch', { name: 'Unread only' })).toHaveProperty('checked', true);
    await waitFor(() => expect(rowTexts()).toEqual(unread.slice(0, 25).map((item) => item.text)));
  });

  it('clears the selection when the list restarts', async () => {
    const { user } = await openPopup({ inbox: makeInbox(10) });
    await waitForRows(10);
    await user.click(screen.getByRole('checkbox', { name: 'Select: Notification number 10' }));
    expect(screen.getByText('1 selected')).toBeTruthy();

    await user.click(screen.getByRole('switch', { name: 'Unread only' }));
    // Rows 9, 6 and 3 are read: the unread list is the other seven, once it has loaded.
    await waitFor(() => expect(rowTexts()).toEqual([10, 8, 7, 5, 4, 2, 1].map((n) => `Notification number ${n}`)));
    expect(screen.queryByText('1 selected')).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Select: Notification number 10' })).toHaveProperty('checked', false);
  });
});

describe('answers that arrive late', () => {
  it('does not bring back a notification deleted while an older page was on its way', async () => {
    const inbox = makeInbox(5);
    const { background, user } = await openPopup({
      inbox,
      cached: { data: inbox, cursor: null },
      prepare: (background) => background.hold('inbox.fetch'),
    });
    await waitForRows(5);
    await waitFor(() => expect(background.callsOf('inbox.fetch')).toHaveLength(1));

    await user.click(within(row('Notification number 4')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(background.inbox).toHaveLength(4));
    await act(() => background.releaseAll());
    await settle();

    expect(rowTexts()).toEqual([5, 3, 2, 1].map((n) => `Notification number ${n}`));
  });

  it('drops a page for the list the person has already switched away from', async () => {
    const inbox = makeInbox(40);
    const { background, user } = await openPopup({ inbox, prepare: (background) => background.hold('inbox.fetch') });
    await waitFor(() => expect(background.callsOf('inbox.fetch')).toHaveLength(1));

    await user.click(screen.getByRole('switch', { name: 'Unread only' }));
    await waitFor(() => expect(background.callsOf('inbox.fetch')).toHaveLength(2));
    const unread = inbox
      .filter((item) => !item.read)
      .slice(0, 25)
      .map((item) => item.text);
    await act(() => background.releaseLatest());
    await waitFor(() => expect(rowTexts()).toEqual(unread));
    await act(() => background.releaseAll());
    await settle();

    expect(rowTexts()).toEqual(unread);
  });
});
