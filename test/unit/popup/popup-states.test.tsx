// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { makeInbox, trouble } from './popup-background';
import { openPopup, resetPopupWorld, rowTexts, settle, waitForRows } from './popup-harness';

beforeEach(resetPopupWorld);

const heading = (name: string | RegExp) => screen.findByRole('heading', { name });

describe('loading and empty', () => {
  it('says it is loading on a first open with nothing cached', async () => {
    const { background } = await openPopup({
      inbox: makeInbox(3),
      prepare: (background) => background.hold('inbox.fetch'),
    });
    const loading = await heading('Loading notifications…');
    expect(loading.closest('section')?.getAttribute('aria-busy')).toBe('true');

    await act(() => background.releaseAll());
    await waitForRows(3);
    expect(screen.queryByRole('heading', { name: 'Loading notifications…' })).toBeNull();
  });

  it('says the inbox is empty', async () => {
    await openPopup({ inbox: [] });
    expect(await heading('Your inbox is empty')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete all' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Mark all read' })).toHaveProperty('disabled', true);
  });

  it('says all is caught up when only unread are shown and there are none, and can show all', async () => {
    const { user } = await openPopup({ inbox: makeInbox(3, () => ({ read: true })), unreadOnly: true });
    expect(await heading('All caught up')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Show all notifications' }));
    await waitForRows(3);
    expect(screen.getByRole('switch', { name: 'Unread only' })).toHaveProperty('checked', false);
  });
});

describe('signed out and other settings problems', () => {
  it('offers the settings page when signed out', async () => {
    const { user } = await openPopup({ inbox: makeInbox(3), signedIn: false });
    expect(await heading("You're not signed in")).toBeTruthy();
    expect(screen.queryByRole('feed')).toBeNull();
    expect(screen.queryByRole('group', { name: 'Inbox actions' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Open settings' }));
    expect(fakeBrowser.runtime.openOptionsPage).toHaveBeenCalled();
  });

  it('says the sign-in expired when the service turns the token down, and hides the cached list', async () => {
    const { background, user } = await openPopup({
      inbox: makeInbox(3),
      cached: { data: makeInbox(3), cursor: null },
      service: trouble.unauthorized,
    });
    expect(await heading('Your sign-in has expired')).toBeTruthy();
    expect(rowTexts()).toEqual([]);

    await user.keyboard('je{Delete}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(background.callsOf('inbox.markRead')).toEqual([]);
  });

  it.each([
    ['a web page answers at the address', { service: trouble.webPage }, 'That address is not the inbox service'],
    ['the address is not granted', { granted: false }, 'Permission needed'],
  ] as const)('says so with the way to the settings when %s', async (_, setup, title) => {
    await openPopup({ inbox: makeInbox(3), ...setup });
    expect(await heading(title)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open settings' })).toBeTruthy();
    expect(rowTexts()).toEqual([]);
  });

  it('loads the inbox as soon as the person signs in elsewhere', async () => {
    const { background } = await openPopup({ inbox: makeInbox(3), signedIn: false });
    expect(await heading("You're not signed in")).toBeTruthy();

    await act(() => background.signIn());
    await waitForRows(3);
    expect(screen.getByText('2 unread')).toBeTruthy();
  });
});

describe('connection problems', () => {
  it('says the service is unreachable and tries again', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(3), service: trouble.unreachable });
    expect(await heading("Can't reach the service")).toBeTruthy();

    background.answerWith(null);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitForRows(3);
  });

  it('says the browser is offline, and loads once it is back online', async () => {
    await openPopup({ inbox: makeInbox(3), online: false });
    expect(await heading("You're offline")).toBeTruthy();

    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitForRows(3);
  });

  it('says the service asked to slow down, and for how long', async () => {
    await openPopup({ inbox: makeInbox(3), service: trouble.rateLimited(30) });
    expect(await heading('Too many requests')).toBeTruthy();
    expect(screen.getByText('The service asked for a break of 30 seconds before the next try.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('names any other failure by its code, not by the service words', async () => {
    await openPopup({ inbox: makeInbox(3), service: trouble.serverError });
    expect(await heading('The inbox could not be loaded')).toBeTruthy();
    expect(screen.getByText('Something went wrong (internal_error). Try again.')).toBeTruthy();
    expect(screen.queryByText(/detail of internal_error/)).toBeNull();
  });

  it('keeps the cached notifications on show when the service cannot be reached, and says how old they are', async () => {
    const { background, user } = await openPopup({
      inbox: makeInbox(3),
      cached: { data: makeInbox(3), cursor: null, savedAt: Date.now() - 10 * 60_000 },
      service: trouble.unreachable,
    });
    await waitForRows(3);
    await settle();
    const banner = await screen.findByText("Can't reach the service");
    expect(banner.parentElement?.textContent).toContain('Showing the notifications saved 10 min. ago.');

    background.answerWith(null);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByText("Can't reach the service")).toBeNull());
    expect(rowTexts()).toHaveLength(3);
  });

  it('says a cached list is a moment old rather than "saved now"', async () => {
    await openPopup({
      inbox: makeInbox(3),
      cached: { data: makeInbox(3), cursor: null, savedAt: Date.now() },
      service: trouble.unreachable,
    });
    const banner = await screen.findByText("Can't reach the service");
    expect(banner.parentElement?.textContent).toContain('Showing the notifications saved a moment ago.');
  });
});
