// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import type { NotificationType } from '../../../lib/api/contract';
import { getInboxFilter, setInboxFilter } from '../../../lib/inbox-filter';
import { ACCOUNT } from '../../support/background';
import { makeInbox } from './popup-background';
import { openPopup, resetPopupWorld, row, rowTexts, waitForRows } from './popup-harness';

beforeEach(resetPopupWorld);

const text = (n: number) => `Notification number ${n}`;
/** Ten notifications: 10, 7, 4, 1 mentions (10 read), 9, 6, 3 likes, 8, 5, 2 replies (5 read). */
const TYPE_OF = (n: number): NotificationType => (n % 3 === 1 ? 'mention' : n % 3 === 0 ? 'like' : 'reply');
const inbox = () =>
  makeInbox(10, (n) => ({ type: TYPE_OF(n), read: n === 10 || n === 5, url: `http://127.0.0.1:8787/posts/${n}` }));
const chip = (name: RegExp) => screen.getByRole('button', { name });
const pressed = () =>
  within(screen.getByRole('group', { name: 'Show notifications of one type' }))
    .getAllByRole('button')
    .filter((button) => button.getAttribute('aria-pressed') === 'true')
    .map((button) => button.textContent);

describe('type chips', () => {
  it('show each type’s unread count from the service, and All the whole count', async () => {
    await openPopup({ inbox: inbox() });
    await waitForRows(10);
    await waitFor(() => expect(chip(/^Mentions 3 unread$/)).toBeTruthy());
    expect(chip(/^Likes 3 unread$/)).toBeTruthy();
    expect(chip(/^Replies 2 unread$/)).toBeTruthy();
    expect(chip(/^All 8 unread$/)).toBeTruthy();
    // No unread follows: the chip has no number.
    expect(chip(/^Follows$/)).toBeTruthy();
    expect(pressed()).toEqual(['All 8 unread']);
  });

  it('filter the list through the service, and remember the choice for the next popup', async () => {
    const { background, user, unmount } = await openPopup({ inbox: inbox() });
    await waitForRows(10);
    await user.click(await screen.findByRole('button', { name: /^Mentions/ }));
    await waitFor(() => expect(rowTexts()).toEqual([10, 7, 4, 1].map(text)));
    expect(background.callsOf('inbox.fetch').at(-1)).toEqual({
      account: ACCOUNT,
      cursor: null,
      unreadOnly: false,
      types: ['mention'],
    });
    expect(pressed()).toEqual(['Mentions 3 unread']);
    expect(await getInboxFilter()).toEqual(['mention']);

    unmount();
    await openPopup({ inbox: inbox() });
    await waitFor(() => expect(rowTexts()).toEqual([10, 7, 4, 1].map(text)));
    expect(pressed()).toEqual(['Mentions 3 unread']);
    await user.click(screen.getByRole('button', { name: /^All/ }));
    await waitForRows(10);
    expect(await getInboxFilter()).toBeNull();
  });

  it('move their counts with triage', async () => {
    const { user } = await openPopup({ inbox: inbox() });
    await waitForRows(10);
    await waitFor(() => expect(chip(/^Mentions 3 unread$/)).toBeTruthy());
    await user.click(within(row(text(7))).getByRole('button', { name: 'Mark read' }));
    await waitFor(() => expect(chip(/^Mentions 2 unread$/)).toBeTruthy());
    expect(chip(/^All 7 unread$/)).toBeTruthy();
  });

  it('open on the types a digest alert named, and say when none of them is there', async () => {
    await setInboxFilter(['mention', 'follow']);
    const { user } = await openPopup({ inbox: inbox() });
    await waitFor(() => expect(rowTexts()).toEqual([10, 7, 4, 1].map(text)));
    expect(pressed()).toEqual(['Mentions 3 unread', 'Follows']);
    await user.click(screen.getByRole('button', { name: /^Follows/ }));
    await screen.findByRole('heading', { name: 'Nothing of this type' });
    await user.click(screen.getByRole('button', { name: 'Show all notifications' }));
    await waitForRows(10);
  });
});
