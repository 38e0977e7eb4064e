// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Notification } from '../../../lib/api/contract';
import { updateSettings } from '../../../lib/settings';
import { makeInbox } from './popup-background';
import { openPopup, resetPopupWorld, row, rowTexts, toast, waitForRows } from './popup-harness';

beforeEach(resetPopupWorld);

const POST = 'http://127.0.0.1:8787/posts/1';
const text = (n: number) => `Notification number ${n}`;
/** Notifications `from`..`to` are likes of one post; the rest are as `makeInbox` makes them. */
const likes =
  (from: number, to: number, read: (n: number) => boolean = () => false) =>
  (n: number) =>
    n >= from && n <= to ? ({ type: 'like', url: POST, read: read(n) } satisfies Partial<Notification>) : {};
const GROUP = 'User 5, User 4 and 2 others liked your post';
const focusedRow = () => document.activeElement?.closest('article')?.querySelector('.text')?.textContent;
const unreadOnService = (background: { inbox: readonly Notification[] }, ns: number[]) =>
  ns.map((n) => background.inbox.find((item) => item.text === text(n))?.read === false);

describe('grouped rows', () => {
  it('show neighbours about the same thing as one row, with names, count and the newest time, and expand', async () => {
    const { user } = await openPopup({
      inbox: makeInbox(
        7,
        likes(2, 5, (n) => n === 4),
      ),
    });
    await waitForRows(4);
    expect(rowTexts()).toEqual([text(7), text(6), GROUP, text(1)]);
    const group = row(GROUP);
    // Unread while any member is.
    expect(group.classList.contains('unread')).toBe(true);
    expect(within(group).getByText('4 notifications')).toBeTruthy();
    expect(within(group).getByRole('link', { name: GROUP }).getAttribute('href')).toBe(POST);
    expect(group.querySelector('time')?.getAttribute('dateTime')).toBe(makeInbox(7)[2]?.createdAt);

    const expand = within(group).getByRole('button', { name: 'Show each' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    await user.click(expand);
    expect(expand.getAttribute('aria-expanded')).toBe('true');
    const members = within(group).getAllByRole('listitem');
    expect(members.map((member) => member.querySelector('.member-text')?.textContent)).toEqual([5, 4, 3, 2].map(text));
    expect(members.map((member) => member.classList.contains('unread'))).toEqual([true, false, true, true]);
    // Still one row of the feed.
    expect(rowTexts()).toHaveLength(4);
  });

  it('mark every member read as one, and Undo puts every one back', async () => {
    const { background, user } = await openPopup({
      inbox: makeInbox(
        7,
        likes(2, 5, (n) => n === 4),
      ),
    });
    await waitForRows(4);
    await user.click(within(row(GROUP)).getByRole('button', { name: 'Mark read' }));
    expect(row(GROUP).classList.contains('unread')).toBe(false);
    await waitFor(() => expect(unreadOnService(background, [5, 4, 3, 2])).toEqual([false, false, false, false]));
    await waitFor(() => expect(toast()).toContain('3 notifications marked read'));

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(unreadOnService(background, [5, 4, 3, 2])).toEqual([true, false, true, true]));
    await waitFor(() => expect(row(GROUP).classList.contains('unread')).toBe(true));
  });

  it('snooze every member as one from the row’s Snooze button, and Undo brings the group back whole', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(7, likes(2, 5)) });
    await waitForRows(4);
    await user.click(within(row(GROUP)).getByRole('button', { name: 'Snooze' }));
    const menu = await screen.findByRole('menu', { name: 'Snooze until' });
    const [first] = within(menu).getAllByRole('menuitem');
    await user.click(first as HTMLElement);
    await waitFor(() => expect(rowTexts()).toEqual([text(7), text(6), text(1)]));
    await waitFor(() =>
      expect(background.snoozed.map((each) => each.text).sort()).toEqual([2, 3, 4, 5].map(text).sort()),
    );
    await waitFor(() => expect(toast()).toContain('Snoozed 4 notifications'));

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(rowTexts()).toEqual([text(7), text(6), GROUP, text(1)]));
    await waitFor(() => expect(background.snoozed).toEqual([]));
  });

  it('delete every member as one, and Undo brings the group back whole', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(7, likes(2, 5)) });
    await waitForRows(4);
    await user.click(within(row(GROUP)).getByRole('button', { name: 'Delete' }));
    expect(rowTexts()).toEqual([text(7), text(6), text(1)]);
    await waitFor(() => expect(background.inbox).toHaveLength(3));
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(rowTexts()).toEqual([text(7), text(6), GROUP, text(1)]));
    expect(background.inbox).toHaveLength(7);
  });

  it('are one item for the keyboard: moving steps over the members, and e marks them all read', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(7, likes(2, 5)) });
    await waitForRows(4);
    await user.keyboard('jjj');
    expect(focusedRow()).toBe(GROUP);
    expect(document.activeElement?.getAttribute('aria-posinset')).toBe('3');
    await user.keyboard('j');
    expect(focusedRow()).toBe(text(1));
    await user.keyboard('ke');
    await waitFor(() => expect(unreadOnService(background, [5, 4, 3, 2])).toEqual([false, false, false, false]));
    expect(unreadOnService(background, [7, 1])).toEqual([true, true]);
  });

  it('open their link and mark every member read with Enter', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(7, likes(2, 5)) });
    await waitForRows(4);
    const create = vi.spyOn(fakeBrowser.tabs, 'create');
    await user.keyboard('jjj{Enter}');
    expect(create).toHaveBeenCalledWith({ url: POST, active: true });
    await waitFor(() => expect(unreadOnService(background, [5, 4, 3, 2])).toEqual([false, false, false, false]));
  });

  it('continue on the next page: the group’s row grows and stays one', async () => {
    // 25 to a page: notifications 30…6 first, and 10…1 are likes of one post.
    const { user } = await openPopup({ inbox: makeInbox(30, likes(1, 10)) });
    const title = 'User 10, User 9 and 3 others liked your post';
    await waitFor(() => expect(rowTexts().at(-1)).toBe(title));
    expect(within(row(title)).getByText('5 notifications')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    const grown = 'User 10, User 9 and 8 others liked your post';
    await waitFor(() => expect(rowTexts().at(-1)).toBe(grown));
    expect(within(row(grown)).getByText('10 notifications')).toBeTruthy();
    expect(rowTexts()).toHaveLength(21);
  });

  it('can be turned off in the settings', async () => {
    await updateSettings({ groupNotifications: false });
    await openPopup({ inbox: makeInbox(7, likes(2, 5)) });
    await waitForRows(7);
    expect(rowTexts()).toEqual([7, 6, 5, 4, 3, 2, 1].map(text));
  });
});

describe('opening a row', () => {
  it('opens with o and marks it read; a Ctrl-click opens it behind and keeps the popup', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(4) });
    await waitForRows(4);
    const create = vi.spyOn(fakeBrowser.tabs, 'create');
    await user.keyboard('jo');
    expect(create).toHaveBeenLastCalledWith({ url: 'http://127.0.0.1:8787/@user4', active: true });
    await waitFor(() => expect(unreadOnService(background, [4])).toEqual([false]));
    await user.keyboard('{Control>}');
    await user.click(within(row(text(2))).getByRole('link'));
    await user.keyboard('{/Control}');
    expect(create).toHaveBeenLastCalledWith({ url: 'http://127.0.0.1:8787/@user2', active: false });
    expect(rowTexts()).toHaveLength(4);
  });

  it('leaves it unread when the person turned that off', async () => {
    await updateSettings({ markReadOnOpen: false });
    const { background, user } = await openPopup({ inbox: makeInbox(7, likes(2, 5)) });
    await waitForRows(4);
    const create = vi.spyOn(fakeBrowser.tabs, 'create');
    await user.click(within(row(GROUP)).getByRole('link', { name: GROUP }));
    expect(create).toHaveBeenCalledWith({ url: POST, active: true });
    expect(background.callsOf('inbox.markRead')).toEqual([]);
    expect(unreadOnService(background, [5, 4, 3, 2])).toEqual([true, true, true, true]);
  });
});
