// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ACCOUNT } from '../../support/background';
import { makeInbox, makeNotification } from './popup-background';
import { openPopup, resetPopupWorld, row, rowTexts, waitForRows } from './popup-harness';

beforeEach(resetPopupWorld);

const text = (n: number) => `Notification number ${n}`;
const focusedRow = () => document.activeElement?.closest('article')?.querySelector('.text')?.textContent;
const isChecked = (n: number) =>
  (screen.getByRole('checkbox', { name: `Select: ${text(n)}` }) as HTMLInputElement).checked;

async function openWith(count: number) {
  const popup = await openPopup({ inbox: makeInbox(count) });
  await waitForRows(Math.min(count, 25));
  return popup;
}

describe('moving', () => {
  it('moves between notifications with j, k and the arrow keys, from the moment the popup opens', async () => {
    const { user } = await openWith(5);
    expect(document.activeElement).toBe(document.body);

    await user.keyboard('j');
    expect(focusedRow()).toBe(text(5));
    await user.keyboard('jj');
    expect(focusedRow()).toBe(text(3));
    await user.keyboard('k');
    expect(focusedRow()).toBe(text(4));
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(focusedRow()).toBe(text(2));
    await user.keyboard('{ArrowUp}');
    expect(focusedRow()).toBe(text(3));
    await user.keyboard('{End}');
    expect(focusedRow()).toBe(text(1));
    await user.keyboard('j');
    expect(focusedRow()).toBe(text(1));
    await user.keyboard('{Home}');
    expect(focusedRow()).toBe(text(5));
  });

  it('keeps only the current notification in the tab order', async () => {
    const { user } = await openWith(3);
    await user.keyboard('jj');
    const tabbable = [...document.querySelectorAll('.feed [tabindex="0"]')];
    expect(tabbable.every((element) => row(text(2)).contains(element))).toBe(true);
    expect(tabbable.length).toBeGreaterThan(1);
  });

  it('loads the next page when moving past the last loaded notification', async () => {
    const { user } = await openWith(30);
    await user.keyboard('{End}');
    await waitForRows(30);
    await user.keyboard('{End}');
    expect(focusedRow()).toBe(text(1));
  });
});

describe('selecting', () => {
  it('selects with x and space, extends with shift, selects all with ctrl+a and clears with escape', async () => {
    const { user } = await openWith(6);
    await user.keyboard('jx');
    expect(isChecked(6)).toBe(true);
    await user.keyboard('j ');
    expect(isChecked(5)).toBe(true);
    await user.keyboard(' ');
    expect(isChecked(5)).toBe(false);
    await user.keyboard('{Shift>}jj{/Shift}');
    expect([6, 5, 4, 3].map(isChecked)).toEqual([true, true, true, true]);
    expect(screen.getByText('4 selected')).toBeTruthy();

    await user.keyboard('{Escape}');
    expect(screen.queryByText(/selected$/)).toBeNull();
    await user.keyboard('{Control>}a{/Control}');
    expect(screen.getByText('6 selected')).toBeTruthy();
  });

  it('leaves space to the control that has focus', async () => {
    const { user } = await openWith(3);
    await user.keyboard('j');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: `Select: ${text(3)}` }));
    await user.keyboard(' ');
    expect(isChecked(3)).toBe(true);
  });
});

describe('acting', () => {
  it('marks the current notification read with e, or the selection when there is one', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(4, () => ({ read: false })) });
    await waitForRows(4);
    await user.keyboard('je');
    expect(row(text(4)).classList.contains('unread')).toBe(false);

    await user.keyboard('jxjx');
    await user.keyboard('e');
    expect(row(text(3)).classList.contains('unread')).toBe(false);
    expect(row(text(2)).classList.contains('unread')).toBe(false);
    expect(row(text(1)).classList.contains('unread')).toBe(true);
    await waitFor(() => expect(background.callsOf('inbox.markRead')).toHaveLength(2));
    expect(background.callsOf('inbox.markRead')[1]).toEqual({
      account: ACCOUNT,
      ids: [makeNotification(3).id, makeNotification(2).id],
      unread: 2,
    });
  });

  it('opens the current notification with Enter', async () => {
    const { user } = await openWith(3);
    const create = vi.spyOn(fakeBrowser.tabs, 'create');
    await user.keyboard('jj{Enter}');
    expect(create).toHaveBeenCalledWith({ url: 'http://127.0.0.1:8787/@user2', active: true });
  });

  it('deletes with Delete at once, and focus moves to the next notification', async () => {
    const { background, user } = await openWith(4);
    await user.keyboard('jj{Delete}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(rowTexts()).toEqual([text(4), text(2), text(1)]);
    expect(focusedRow()).toBe(text(2));
    await waitFor(() => expect(background.inbox).toHaveLength(3));

    await user.keyboard('{End}#');
    expect(rowTexts()).toEqual([text(4), text(2)]);
    expect(focusedRow()).toBe(text(2));
  });

  it('undoes a delete with z, leaving focus in the list', async () => {
    const { background, user } = await openWith(3);
    await user.keyboard('j{Delete}');
    expect(rowTexts()).toEqual([text(2), text(1)]);
    await waitFor(() => expect(background.inbox).toHaveLength(2));
    await waitFor(() => expect(document.querySelector('.toast')).not.toBeNull());
    expect(focusedRow()).toBe(text(2));

    await user.keyboard('z');
    await waitFor(() => expect(rowTexts()).toEqual([text(3), text(2), text(1)]));
    expect(background.inbox).toEqual(makeInbox(3));
    expect(focusedRow()).toBe(text(2));
  });

  it('marks the active notification, or the selection, unread with u', async () => {
    const { background, user } = await openWith(6);
    await user.keyboard('jjjju');
    expect(focusedRow()).toBe(text(3));
    await waitFor(() => expect(background.inbox.find((item) => item.text === text(3))?.read).toBe(false));
    await user.keyboard('{Home}xu');
    await waitFor(() => expect(background.callsOf('inbox.markUnread')).toHaveLength(2));
    expect(background.callsOf('inbox.markUnread')[1]).toEqual({
      account: ACCOUNT,
      ids: [makeNotification(6).id],
      unread: 0,
    });
    await waitFor(() => expect(background.inbox.every((item) => !item.read)).toBe(true));
  });

  it('moves focus into the list when the toolbar button that had it goes away', async () => {
    const { user } = await openWith(5);
    await user.keyboard('jjxjx');
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    expect(rowTexts()).toEqual([text(5), text(2), text(1)]);
    expect(focusedRow()).toBe(text(2));
  });

  it('keeps focus in the unread-only list as notifications marked read leave it', async () => {
    const { user } = await openPopup({ inbox: makeInbox(4, () => ({ read: false })), unreadOnly: true });
    await waitForRows(4);
    await user.keyboard('jje');
    expect(rowTexts()).toEqual([text(4), text(2), text(1)]);
    expect(focusedRow()).toBe(text(2));

    await user.click(within(row(text(2))).getByRole('button', { name: 'Mark read' }));
    expect(rowTexts()).toEqual([text(4), text(1)]);
    expect(focusedRow()).toBe(text(1));
  });

  it('puts focus on the empty inbox when the last notification goes', async () => {
    const { user } = await openWith(1);
    await user.keyboard('j{Delete}{Enter}');
    const heading = await screen.findByRole('heading', { name: 'Your inbox is empty' });
    expect(document.activeElement).toBe(heading);
  });
});
