// @vitest-environment happy-dom
import { act, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeInbox, trouble } from './popup-background';
import { openPopup, resetPopupWorld, row, waitForRows } from './popup-harness';

beforeEach(resetPopupWorld);

const text = (n: number) => `Notification number ${n}`;
const markRead = (n: number) => within(row(text(n))).getByRole('button', { name: 'Mark read' });

describe('changes made while the service cannot be reached', () => {
  it('shows them done and waiting, never failed, and counts them in one line', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(10) });
    await waitForRows(10);
    background.answerWith(trouble.unreachable);

    await user.click(markRead(10));
    await user.click(markRead(8));
    await screen.findByText('2 changes will be sent when the service is back');
    expect(within(row(text(10))).getByText('Waiting to send')).toBeTruthy();
    expect(within(row(text(8))).getByText('Waiting to send')).toBeTruthy();
    expect(row(text(10)).classList.contains('unread')).toBe(false);
    expect(screen.getByText('5 unread')).toBeTruthy();
    expect(
      screen
        .getAllByRole('alert')
        .map((element) => element.textContent)
        .join(''),
    ).toBe('');

    background.answerWith(null);
    await waitFor(async () => {
      await act(async () => {
        await background.check();
      });
      expect(screen.queryByText(/will be sent when the service is back/)).toBeNull();
    });
    expect(screen.queryByText('Waiting to send')).toBeNull();
    expect(background.inbox.filter((item) => !item.read)).toHaveLength(5);
  });

  it('marks a grouped row waiting when its members’ change is, until it is sent', async () => {
    const post = 'http://127.0.0.1:8787/posts/1';
    const likes = (n: number) => (n >= 2 && n <= 5 ? ({ type: 'like', url: post } as const) : {});
    const group = 'User 5, User 4 and 2 others liked your post';
    const { background, user } = await openPopup({ inbox: makeInbox(7, likes) });
    await waitForRows(4);
    background.answerWith(trouble.unreachable);

    await user.click(within(row(group)).getByRole('button', { name: 'Mark read' }));
    await screen.findByText('1 change will be sent when the service is back');
    expect(within(row(group)).getByText('Waiting to send')).toBeTruthy();
    expect(within(row(text(7))).queryByText('Waiting to send')).toBeNull();
    expect(row(group).classList.contains('unread')).toBe(false);

    background.answerWith(null);
    await waitFor(async () => {
      await act(async () => {
        await background.check();
      });
      expect(screen.queryByText('Waiting to send')).toBeNull();
    });
    expect(background.inbox.filter((item) => item.type === 'like' && !item.read)).toEqual([]);
  });
});
