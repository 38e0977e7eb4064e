// @vitest-environment happy-dom
import { act, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeInbox, trouble } from './popup-background';
import { openPopup, resetPopupWorld, row, waitForRows } from './popup-harness';

vi.mock('../../../lib/messaging', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/messaging')>()),
  ask: vi.fn(),
}));

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
});
