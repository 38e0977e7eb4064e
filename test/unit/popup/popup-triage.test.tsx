// @vitest-environment happy-dom
import { act, render, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { Popup } from '../../../components/popup/popup';
import { NetworkError, RateLimitedError } from '../../../lib/api/errors';
import { createInboxStore } from '../../../lib/popup/inbox-store';
import { ACCOUNT } from '../../support/background';
import { makeInbox, makeNotification } from './popup-background';
import { announced, openPopup, resetPopupWorld, row, rowTexts, settle, toast, waitForRows } from './popup-harness';

beforeEach(resetPopupWorld);

const text = (n: number) => `Notification number ${n}`;
const checkbox = (n: number) => screen.getByRole('checkbox', { name: `Select: ${text(n)}` });
const isUnread = (n: number) => row(text(n)).classList.contains('unread');
const failure = () =>
  screen
    .getAllByRole('alert')
    .map((element) => element.textContent)
    .join(' ');

describe('selecting', () => {
  it('selects a range with shift-click and all loaded notifications with the header box', async () => {
    const { user } = await openPopup({ inbox: makeInbox(30) });
    await waitForRows(25);

    await user.click(checkbox(29));
    await user.keyboard('{Shift>}');
    await user.click(checkbox(25));
    await user.keyboard('{/Shift}');
    expect([29, 28, 27, 26, 25].every((n) => (checkbox(n) as HTMLInputElement).checked)).toBe(true);
    expect((checkbox(30) as HTMLInputElement).checked).toBe(false);
    expect((checkbox(24) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText('5 selected')).toBeTruthy();
    const all = screen.getByRole('checkbox', { name: 'Select all' }) as HTMLInputElement;
    expect(all.indeterminate).toBe(true);

    await user.click(all);
    expect(screen.getByText('25 selected')).toBeTruthy();
    await user.click(all);
    expect(screen.queryByText(/selected$/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Mark all read' })).toBeTruthy();
  });
});

describe('mark read', () => {
  it('marks the selection read at once, then on the service', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(10) });
    await waitForRows(10);
    await user.click(checkbox(10));
    await user.click(checkbox(8));
    background.hold('inbox.markRead');

    expect(screen.getByText('7 unread')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Mark selected read' }));
    expect(screen.getByText('5 unread')).toBeTruthy();
    expect(isUnread(10)).toBe(false);
    expect(isUnread(8)).toBe(false);
    expect(isUnread(7)).toBe(true);
    expect(background.inbox.find((item) => item.text === text(10))?.read).toBe(false);

    await act(() => background.releaseAll());
    await waitFor(() => expect(toast()).toBe('2 notifications marked read.'));
    expect(background.callsOf('inbox.markRead')).toEqual([
      { account: ACCOUNT, ids: [makeNotification(10).id, makeNotification(8).id], unread: 2 },
    ]);
    expect(background.inbox.filter((item) => !item.read).map((item) => item.text)).not.toContain(text(10));
    expect((checkbox(10) as HTMLInputElement).checked).toBe(true);
  });

  it('rolls the change back and says why when the service refuses', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(10) });
    await waitForRows(10);
    background.failNext('inbox.markRead', new NetworkError());

    await user.click(within(row(text(10))).getByRole('button', { name: 'Mark read' }));
    await waitFor(() =>
      expect(failure()).toContain('Could not mark as read. The service cannot be reached. Nothing was changed.'),
    );
    expect(isUnread(10)).toBe(true);
    expect(screen.getByText('7 unread')).toBeTruthy();
    expect(within(row(text(10))).getByRole('button', { name: 'Mark read' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(failure()).toBe('');
  });

  it('marks every notification read with "mark all read", including pages not loaded', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(40) });
    await waitForRows(25);
    background.hold('inbox.markRead');

    await user.click(screen.getByRole('button', { name: 'Mark all read' }));
    expect(document.querySelectorAll('.item.unread')).toHaveLength(0);
    expect(screen.getByText('0 unread')).toBeTruthy();
    await act(() => background.releaseAll());
    await waitFor(() => expect(toast()).toBe('All notifications marked read.'));
    // Kept for later, "all" would be the ids on show, never what arrived since.
    const seen = makeInbox(40)
      .slice(0, 25)
      .map((item) => item.id);
    expect(background.callsOf('inbox.markRead')).toEqual([{ account: ACCOUNT, ids: 'all', unread: 27, seen }]);
    expect(screen.getByText('0 unread')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitForRows(40);
    expect(document.querySelectorAll('.item.unread')).toHaveLength(0);
  });

  it('brings the list back when "mark all read" fails', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(10) });
    await waitForRows(10);
    background.failNext('inbox.markRead', new RateLimitedError({ status: 429, code: 'rate_limited', retryAfter: 20 }));

    await user.click(screen.getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(failure()).toContain('Too many requests; try again in 20 seconds.'));
    expect(document.querySelectorAll('.item.unread')).toHaveLength(7);
    expect(screen.getByText('7 unread')).toBeTruthy();
  });

  it('in the unread-only list, takes read notifications out and then says all is caught up', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(2, () => ({ read: false })), unreadOnly: true });
    await waitForRows(2);

    await user.click(within(row(text(2))).getByRole('button', { name: 'Mark read' }));
    expect(rowTexts()).toEqual([text(1)]);
    await user.click(within(row(text(1))).getByRole('button', { name: 'Mark read' }));
    expect(await screen.findByRole('heading', { name: 'All caught up' })).toBeTruthy();
    await waitFor(() => expect(background.inbox.every((item) => item.read)).toBe(true));
  });

  it('in the unread-only list, loads the next page when marking read empties the loaded one', async () => {
    const { user } = await openPopup({ inbox: makeInbox(30, () => ({ read: false })), unreadOnly: true });
    await waitForRows(25);
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await user.click(screen.getByRole('button', { name: 'Mark selected read' }));
    await waitFor(() => expect(rowTexts()).toEqual([5, 4, 3, 2, 1].map(text)));
  });
});

describe('delete', () => {
  it('takes the selection out at once, with no question asked, telling the background how many were unread', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(10) });
    await waitForRows(10);
    await screen.findByText('7 unread');
    for (const n of [10, 9, 8]) await user.click(checkbox(n));
    background.hold('inbox.delete');

    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(rowTexts()).toEqual([7, 6, 5, 4, 3, 2, 1].map(text));
    expect(screen.getByText('5 unread')).toBeTruthy();
    expect(background.inbox).toHaveLength(10);

    await act(() => background.releaseAll());
    await waitFor(() => expect(toast()).toBe('3 notifications deleted.'));
    expect(background.callsOf('inbox.delete')).toEqual([
      { account: ACCOUNT, ids: [10, 9, 8].map((n) => makeNotification(n).id), unread: 2 },
    ]);
    expect(background.inbox.map((item) => item.text)).not.toContain(text(9));
    expect(screen.getByRole('button', { name: 'Delete all' })).toBeTruthy();
  });

  it('puts deleted notifications back in their places, still selected, when the delete fails', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(10) });
    await waitForRows(10);
    await user.click(checkbox(9));
    await user.click(checkbox(6));
    background.failNext('inbox.delete', new NetworkError());

    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    await waitFor(() =>
      expect(failure()).toContain('Could not delete. The service cannot be reached. Nothing was deleted.'),
    );

    expect(rowTexts()).toEqual(makeInbox(10).map((item) => item.text));
    expect((checkbox(9) as HTMLInputElement).checked).toBe(true);
    expect((checkbox(6) as HTMLInputElement).checked).toBe(true);
    expect(background.inbox).toHaveLength(10);
    expect(toast()).toBeNull();
  });

  it('keeps a notification woken from a snooze in its place near the top when deleting it fails', async () => {
    const wokeAt = new Date(Date.parse(makeNotification(29).createdAt) + 1_000).toISOString();
    const inbox = makeInbox(30, (n) => (n === 2 ? { read: false, sortedAt: wokeAt } : {}));
    const { background, user } = await openPopup({ inbox });
    await waitForRows(25);
    const shown = [30, 2, 29, 28, 27];
    expect(rowTexts().slice(0, 5)).toEqual(shown.map(text));
    background.failNext('inbox.delete', new NetworkError());

    await user.click(within(row(text(2))).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(failure()).toContain('Nothing was deleted.'));

    expect(rowTexts().slice(0, 5)).toEqual(shown.map(text));
    expect(rowTexts()).toHaveLength(25);
  });

  it('deletes one notification from its own button at once', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(3) });
    await waitForRows(3);

    await user.click(within(row(text(2))).getByRole('button', { name: 'Delete' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(rowTexts()).toEqual([text(3), text(1)]);
    await waitFor(() => expect(background.inbox.map((item) => item.text)).toEqual([text(3), text(1)]));
  });

  it('loads the next page when deleting empties the loaded list', async () => {
    const { user } = await openPopup({ inbox: makeInbox(30) });
    await waitForRows(25);
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    await waitFor(() => expect(rowTexts()).toEqual([5, 4, 3, 2, 1].map(text)));
  });

  it('needs a deliberate confirmation to delete all, and says it can be undone', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(40) });
    await waitForRows(25);
    await screen.findByText('27 unread');

    await user.click(screen.getByRole('button', { name: 'Delete all' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your whole inbox?' });
    expect(dialog.textContent).toContain('including those not loaded here');
    expect(dialog.textContent).toContain('You can undo this for one minute');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    const confirm = within(dialog).getByRole('button', { name: 'Delete everything' });
    expect(confirm).toHaveProperty('disabled', true);
    await user.click(confirm);
    expect(background.callsOf('inbox.delete')).toEqual([]);

    await user.click(within(dialog).getByRole('checkbox', { name: /I understand/ }));
    await user.click(confirm);
    expect(await screen.findByRole('heading', { name: 'Your inbox is empty' })).toBeTruthy();
    await waitFor(() => expect(background.inbox).toHaveLength(0));
    expect(background.callsOf('inbox.delete')).toEqual([
      { account: ACCOUNT, ids: 'all', unread: 27, seen: expect.any(Array) },
    ]);
    await waitFor(() => expect(toast()).toBe('Your inbox was cleared.'));
  });

  it('names the total when the whole inbox is loaded, and restores it when deleting all fails', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(4) });
    await waitForRows(4);
    background.failNext('inbox.delete', new NetworkError());

    await user.click(screen.getByRole('button', { name: 'Delete all' }));
    // The dialog's code loads when it is first asked for, as in the popup.
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('All 4 notifications in your inbox will be deleted.');
    await user.click(within(dialog).getByRole('checkbox'));
    await user.click(within(dialog).getByRole('button', { name: 'Delete everything' }));

    await waitFor(() => expect(failure()).toContain('Could not delete.'));
    expect(rowTexts()).toHaveLength(4);
  });
});

describe('mark unread', () => {
  it('marks a read row unread from its own button, and the selection with the toolbar', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(10) });
    await waitForRows(10);
    expect(screen.getByText('7 unread')).toBeTruthy();

    await user.click(within(row(text(9))).getByRole('button', { name: 'Mark unread' }));
    expect(isUnread(9)).toBe(true);
    expect(screen.getByText('8 unread')).toBeTruthy();
    await waitFor(() => expect(toast()).toBe('1 notification marked unread.'));

    await user.click(checkbox(6));
    await user.click(checkbox(5));
    await user.click(checkbox(3));
    await user.click(screen.getByRole('button', { name: 'Mark selected unread' }));
    expect(isUnread(6)).toBe(true);
    expect(isUnread(3)).toBe(true);
    await waitFor(() => expect(toast()).toBe('2 notifications marked unread.'));
    expect(background.callsOf('inbox.markUnread')).toEqual([
      { account: ACCOUNT, ids: [makeNotification(9).id], unread: 0 },
      { account: ACCOUNT, ids: [makeNotification(6).id, makeNotification(3).id], unread: 0 },
    ]);
    expect(background.inbox.filter((item) => !item.read)).toHaveLength(10);
    expect(screen.getByText('10 unread')).toBeTruthy();
  });

  it('says so when everything chosen is unread already, and sends nothing', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(5) });
    await waitForRows(5);
    await user.click(checkbox(5));
    await user.click(screen.getByRole('button', { name: 'Mark selected unread' }));
    expect(announced()).toBe('Already unread.');
    expect(background.callsOf('inbox.markUnread')).toEqual([]);
  });
});

describe('undo', () => {
  it('puts deleted rows back in their places from the toast, on the service too', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(10) });
    await waitForRows(10);
    for (const n of [9, 6]) await user.click(checkbox(n));
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    await waitFor(() => expect(toast()).toBe('2 notifications deleted.'));
    // The toast takes no focus: it stays where the person was.
    expect(document.activeElement?.closest('.toast')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(rowTexts()).toEqual(makeInbox(10).map((item) => item.text)));
    expect(background.inbox).toEqual(makeInbox(10));
    expect(screen.getByText('7 unread')).toBeTruthy();
    expect(toast()).toBeNull();
    expect(announced()).toBe('2 notifications put back as they were.');
  });

  it('undoes "mark all read" with z, and the count comes back', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(40) });
    await waitForRows(25);
    await user.click(screen.getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(toast()).toBe('All notifications marked read.'));
    expect(screen.getByText('0 unread')).toBeTruthy();

    await user.keyboard('z');
    await waitFor(() => expect(screen.getByText('27 unread')).toBeTruthy());
    expect(background.inbox).toEqual(makeInbox(40));
    await waitFor(() => expect(isUnread(40)).toBe(true));
    expect(background.callsOf('inbox.undo')).toHaveLength(1);
  });

  it('undoes with Ctrl+Z once, and offers the toast for 10 seconds only', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { background, user } = await openPopup({ inbox: makeInbox(5) });
      await waitForRows(5);
      await user.click(within(row(text(5))).getByRole('button', { name: 'Mark read' }));
      await waitFor(() => expect(toast()).toBe('1 notification marked read.'));
      await act(async () => {
        await vi.advanceTimersByTimeAsync(9_000);
      });
      expect(toast()).not.toBeNull();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1_100);
      });
      expect(toast()).toBeNull();
      await user.keyboard('{Control>}z{/Control}');
      await settle();
      expect(background.callsOf('inbox.undo')).toEqual([]);

      await user.click(within(row(text(4))).getByRole('button', { name: 'Mark read' }));
      await waitFor(() => expect(toast()).toBe('1 notification marked read.'));
      await user.keyboard('{Control>}z{/Control}');
      await waitFor(() => expect(isUnread(4)).toBe(true));
      await user.keyboard('{Control>}z{/Control}');
      await settle();
      expect(background.callsOf('inbox.undo')).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the toast while the list changes under it', async () => {
    const { user } = await openPopup({ inbox: makeInbox(10) });
    await waitForRows(10);
    await user.click(within(row(text(10))).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast()).toBe('1 notification deleted.'));
    await user.click(screen.getByRole('switch', { name: 'Unread only' }));
    await waitFor(() => expect(rowTexts()).not.toContain(text(9)));
    expect(toast()).toBe('1 notification deleted.');
  });

  it('offers the last action again when the popup opens within the minute', async () => {
    const first = await openPopup({ inbox: makeInbox(6) });
    await waitForRows(6);
    await first.user.click(within(row(text(5))).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast()).toBe('1 notification deleted.'));
    first.unmount();

    // The background, not the popup, kept the undo: a new popup on the same background offers it.
    const reopened = createInboxStore();
    render(<Popup store={reopened} />);
    await waitForRows(5);
    await waitFor(() => expect(toast()).toBe('1 notification deleted.'));
    await first.user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitForRows(6);
    expect(first.background.inbox).toEqual(makeInbox(6));
  });

  it('says so when the undo is no longer taken, and changes nothing', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(4) });
    await waitForRows(4);
    await user.click(within(row(text(4))).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast()).not.toBeNull());
    background.expireUndo();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(failure()).toContain('Too late to undo that'));
    expect(rowTexts()).toEqual([3, 2, 1].map(text));
    expect(toast()).toBeNull();
  });
});

describe('opening a notification', () => {
  it('opens its page in a tab and marks it read', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(2, () => ({ read: false })) });
    await waitForRows(2);
    const create = vi.spyOn(fakeBrowser.tabs, 'create');

    await user.click(screen.getByRole('link', { name: text(2) }));
    expect(create).toHaveBeenCalledWith({ url: 'http://127.0.0.1:8787/@user2', active: true });
    expect(isUnread(2)).toBe(false);
    await waitFor(() =>
      expect(background.callsOf('inbox.markRead')).toEqual([
        { account: ACCOUNT, ids: [makeNotification(2).id], unread: 1 },
      ]),
    );
  });

  it('never opens anything but http and https, and shows notification text as text', async () => {
    const hostile = '<img src=x onerror="alert(1)"><b>bold</b>';
    const { user, background } = await openPopup({
      inbox: [
        makeNotification(3, { text: hostile, url: 'javascript:alert(1)' }),
        makeNotification(2, { url: 'data:text/html,<script>alert(1)</script>' }),
        makeNotification(1, { url: null }),
      ],
    });
    await waitForRows(3);
    const create = vi.spyOn(fakeBrowser.tabs, 'create');

    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(document.querySelector('.feed img, .feed b')).toBeNull();
    expect(row(hostile).querySelector('.text')?.textContent).toBe(hostile);

    row(text(2)).focus();
    await user.keyboard('{Enter}');
    await settle();
    expect(create).not.toHaveBeenCalled();
    expect(background.callsOf('inbox.markRead')).toEqual([]);
    expect(announced()).toBe('This notification has no page to open.');
  });
});
