// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { makeInbox, makeNotification } from './popup-background';
import { openPopup, resetPopupWorld, rowTexts, settle, waitForRows } from './popup-harness';

beforeEach(resetPopupWorld);

const pill = () => screen.queryByRole('button', { name: /new$/ });

describe('notifications arriving while the popup is open', () => {
  it('are offered as "N new" without moving the rows, and load on click', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(5) });
    await waitForRows(5);
    const before = rowTexts();
    await act(() => background.arrive(makeNotification(6, { text: 'Arrived live' })));
    await act(() => background.arrive(makeNotification(7, { text: 'Arrived live too' })));
    await waitFor(() => expect(pill()?.textContent).toBe('↑ 2 new'));
    expect(rowTexts()).toEqual(before);

    await user.click(pill() as HTMLElement);
    await waitForRows(7);
    expect(rowTexts().slice(0, 2)).toEqual(['Arrived live too', 'Arrived live']);
    expect(pill()).toBeNull();
  });

  it('do not count one the list already shows', async () => {
    const inbox = makeInbox(3);
    const { background } = await openPopup({ inbox });
    await waitForRows(3);
    await act(() => background.arrive(makeNotification(9)));
    await act(() => background.arrive({ ...(inbox[0] as (typeof inbox)[0]) }));
    await waitFor(() => expect(pill()?.textContent).toBe('↑ 1 new'));
  });

  it('are not heard from a content script', async () => {
    const { background } = await openPopup({ inbox: makeInbox(3) });
    await waitForRows(3);
    await act(() =>
      background.arrive(makeNotification(8), {
        id: fakeBrowser.runtime.id,
        tab: { id: 4, url: 'http://127.0.0.1:8787/@x' },
      }),
    );
    await act(() => background.arrive(makeNotification(9), { id: 'someone-else' }));
    await settle();
    expect(pill()).toBeNull();
  });
});
