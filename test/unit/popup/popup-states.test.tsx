// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  InvalidResponseError,
  NetworkError,
  RateLimitedError,
  TimeoutError,
  UnauthenticatedError,
} from '../../../lib/api/errors';
import { statusItem } from '../../../lib/connection-status';
import { makeInbox } from './popup-background';
import { openPopup, resetPopupWorld, rowTexts, settle, waitForRows } from './popup-harness';

vi.mock('../../../lib/messaging', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/messaging')>()),
  ask: vi.fn(),
}));

beforeEach(resetPopupWorld);

const heading = (name: string | RegExp) => screen.findByRole('heading', { name });
const unauthenticated = () => new UnauthenticatedError({ status: 401, code: 'unauthenticated' });

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
    const { user } = await openPopup({
      inbox: makeInbox(3),
      status: { kind: 'signedOut', count: null },
      prepare: (background) => background.failNext('inbox.fetch', unauthenticated()),
    });
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
      prepare: (background) => background.failNext('inbox.fetch', unauthenticated()),
    });
    expect(await heading('Your sign-in has expired')).toBeTruthy();
    expect(rowTexts()).toEqual([]);

    await user.keyboard('je{Delete}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(background.callsOf('inbox.markRead')).toEqual([]);
  });

  it.each([
    ['notThisService', 'That address is not the inbox service'],
    ['noPermission', 'Permission needed'],
  ] as const)('shows the %s status with the way to the settings', async (kind, title) => {
    await openPopup({
      inbox: makeInbox(3),
      status: { kind },
      prepare: (background) => background.failNext('inbox.fetch', new NetworkError()),
    });
    expect(await heading(title)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open settings' })).toBeTruthy();
  });

  it('loads the inbox as soon as the person signs in elsewhere', async () => {
    await openPopup({
      inbox: makeInbox(3),
      status: { kind: 'signedOut', count: null },
      prepare: (background) => background.failNext('inbox.fetch', unauthenticated()),
    });
    expect(await heading("You're not signed in")).toBeTruthy();

    await statusItem.setValue({ kind: 'ok', count: 2, checkedAt: Date.now(), nextCheckAt: null, detail: null });
    await waitForRows(3);
    expect(screen.getByText('2 unread')).toBeTruthy();
  });
});

describe('connection problems', () => {
  it('says the service is unreachable and tries again', async () => {
    const { user } = await openPopup({
      inbox: makeInbox(3),
      prepare: (background) => background.failNext('inbox.fetch', new TimeoutError()),
    });
    expect(await heading("Can't reach the service")).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitForRows(3);
  });

  it('says the browser is offline, and loads once it is back online', async () => {
    await openPopup({
      inbox: makeInbox(3),
      online: false,
      prepare: (background) => background.failNext('inbox.fetch', new NetworkError()),
    });
    expect(await heading("You're offline")).toBeTruthy();

    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitForRows(3);
  });

  it('says the service asked to slow down, and for how long', async () => {
    await openPopup({
      inbox: makeInbox(3),
      prepare: (background) =>
        background.failNext('inbox.fetch', new RateLimitedError({ status: 429, code: 'rate_limited', retryAfter: 30 })),
    });
    expect(await heading('Too many requests')).toBeTruthy();
    expect(screen.getByText('The service asked for a break of 30 seconds before the next try.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('names any other failure by its code, not by the service words', async () => {
    await openPopup({
      inbox: makeInbox(3),
      prepare: (background) =>
        background.failNext('inbox.fetch', new InvalidResponseError(200, 'The answer did not match the contract.')),
    });
    expect(await heading('The inbox could not be loaded')).toBeTruthy();
    expect(screen.getByText('Something went wrong (invalid_response). Try again.')).toBeTruthy();
    expect(screen.queryByText(/did not match the contract/)).toBeNull();
  });

  it('keeps the cached notifications on show when the service cannot be reached, and says how old they are', async () => {
    const { user } = await openPopup({
      inbox: makeInbox(3),
      cached: { data: makeInbox(3), cursor: null, savedAt: Date.now() - 10 * 60_000 },
      prepare: (background) => background.failNext('inbox.fetch', new NetworkError()),
    });
    await waitForRows(3);
    await settle();
    const banner = await screen.findByText("Can't reach the service");
    expect(banner.parentElement?.textContent).toContain('Showing the notifications saved 10 min. ago.');

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByText("Can't reach the service")).toBeNull());
    expect(rowTexts()).toHaveLength(3);
  });

  it('says a cached list is a moment old rather than "saved now"', async () => {
    await openPopup({
      inbox: makeInbox(3),
      cached: { data: makeInbox(3), cursor: null, savedAt: Date.now() },
      prepare: (background) => background.failNext('inbox.fetch', new NetworkError()),
    });
    const banner = await screen.findByText("Can't reach the service");
    expect(banner.parentElement?.textContent).toContain('Showing the notifications saved a moment ago.');
  });
});
