// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OptionsPage } from '../../../components/options/options-page';
import { tokenItem } from '../../../lib/background/api-session';
import { messaging } from '../../../lib/messaging';
import { DEFAULT_SETTINGS, getSettings, updateSettings } from '../../../lib/settings';
import { signedIn } from '../../support/background';
import { installFakePermissions } from '../../support/fake-apis';
import { answerMessages, optionsSender, sendMessagesAs } from '../../support/messages';
import { json, problem, recordingFetch } from '../../support/recording-fetch';

let permissions: ReturnType<typeof installFakePermissions>;

function background(...replies: Parameters<typeof recordingFetch>) {
  const wire = recordingFetch(...replies);
  return Object.assign(wire, answerMessages(wire.fetch));
}

const field = (name: RegExp) => screen.getByLabelText(name) as HTMLInputElement;
const type = (name: RegExp, value: string) => fireEvent.input(field(name), { target: { value } });
const notice = () => document.querySelector('.notice')?.textContent ?? '';

async function open() {
  render(<OptionsPage />);
  await screen.findByLabelText(/API address/);
}

describe('options page', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    permissions = installFakePermissions();
    sendMessagesAs(optionsSender);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('shows the stored settings', async () => {
    background();
    await open();
    expect(field(/API address/).value).toBe(DEFAULT_SETTINGS.apiBaseUrl);
    expect(field(/Web site address/).value).toBe(DEFAULT_SETTINGS.siteOrigin);
    expect(field(/Check for new notifications every/).value).toBe('60');
    expect(screen.getByText('Signed out.')).toBeTruthy();
  });

  it('writes only what was changed here, keeping a setting the popup changed meanwhile', async () => {
    background();
    await open();
    await updateSettings({ unreadOnly: true });
    type(/Check for new notifications every/, '120');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(notice()).toContain('Saved.'));
    expect(await getSettings()).toMatchObject({ pollIntervalSeconds: 120, unreadOnly: true });
  });

  it('says inline what is wrong, next to the field, and saves nothing', async () => {
    background();
    await open();
    type(/API address/, 'example.social/api');
    type(/Check for new notifications every/, '10');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field(/API address/).getAttribute('aria-invalid')).toBe('true'));
    expect(field(/API address/).getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('Enter an address that starts with http:// or https://.')).toBeTruthy();
    expect(screen.getByText('Enter a whole number of seconds, at least 30.')).toBeTruthy();
    expect(document.activeElement).toBe(field(/API address/));
    expect(permissions.requests).toEqual([]);
    expect(await getSettings()).toEqual(DEFAULT_SETTINGS);
  });

  it('asks for the API and site origins when saving, stores the settings, and signs in with a typed token', async () => {
    const wire = background(json({ count: 3 }, { headers: { etag: '"3"' } }));
    await open();
    type(/API address/, 'https://api.example.social/v1');
    type(/Web site address/, 'https://example.social/');
    type(/Access token/, '  tok-123 ');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(notice()).toContain('Saved.'));
    expect(permissions.requests[0]?.origins).toEqual(['https://api.example.social/*', 'https://example.social/*']);
    expect(await getSettings()).toMatchObject({
      apiBaseUrl: 'https://api.example.social/v1',
      siteOrigin: 'https://example.social',
    });
    expect(await tokenItem.getValue()).toEqual({ token: 'tok-123', apiOrigin: 'https://api.example.social' });
    expect(field(/Access token/).value).toBe('');
    expect(wire.requests[0]?.headers.get('authorization')).toBe('Bearer tok-123');
    await waitFor(() => expect(screen.getByText('Signed in.')).toBeTruthy());
  });

  it('saves but says clearly what is lost when the person declines the permission', async () => {
    background();
    permissions.answer = false;
    await open();
    type(/API address/, 'https://api.example.social/v1');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(notice()).toContain('was not granted'));
    expect(notice()).toContain('https://api.example.social');
    expect(notice()).toContain('cannot check your notifications');
    expect((await getSettings()).apiBaseUrl).toBe('https://api.example.social/v1');
  });

  it('asks for the notifications permission when desktop notifications are turned on, and keeps them off if declined', async () => {
    background();
    await signedIn();
    permissions.answer = false;
    await open();
    fireEvent.click(screen.getByLabelText(/desktop notification/));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(notice()).toContain('Desktop notifications stay off'));
    expect(permissions.requests.at(-1)?.permissions).toEqual(['notifications']);
    expect((await getSettings()).desktopNotifications).toBe(false);
  });

  it.each([
    ['the count on success', () => json({ count: 1 }), 'Connected. You have 1 unread notification.'],
    ['that a token is missing', () => problem(401, 'unauthenticated'), 'Paste your access token'],
    ['a refused token', () => problem(401, 'unauthenticated'), 'did not accept the token'],
    [
      'nothing answering',
      () => Promise.reject(new TypeError('fetch failed')),
      'Nothing answered at http://127.0.0.1:8787/api',
    ],
    [
      'a web site instead of the API',
      () => new Response('<html></html>', { headers: { 'content-type': 'text/html' } }),
      'not like the Inbox service',
    ],
  ] as const)('tests the connection and says %s in words', async (what, reply, words) => {
    await signedIn();
    if (what === 'that a token is missing') await tokenItem.removeValue();
    background(reply);
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(notice()).toContain(words));
  });

  it('says a permission is needed when the person declines it during a test', async () => {
    background();
    permissions.answer = false;
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(notice()).toContain('needs your permission to reach http://127.0.0.1:8787'));
  });

  it('signs out, forgetting the token', async () => {
    await signedIn();
    await background(json({ count: 0 })).poller.poll();
    await open();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(notice()).toContain('Signed out. The token was removed'));
    expect(await tokenItem.getValue()).toBeNull();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull());
  });

  it('says when signing out failed, and gives the buttons back', async () => {
    await signedIn();
    await background(json({ count: 0 })).poller.poll();
    await open();
    vi.spyOn(fakeBrowser.storage.local, 'remove').mockRejectedValueOnce(new Error('storage is full'));
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(notice()).toContain('That did not work (internal_error). Try again.'));
    expect(await tokenItem.getValue()).not.toBeNull();
    for (const button of screen.getAllByRole('button')) expect((button as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(notice()).toContain('Signed out.'));
    expect(await tokenItem.getValue()).toBeNull();
  });

  it('saves which types raise an alert, and quiet hours across midnight', async () => {
    background();
    await open();
    fireEvent.click(screen.getByLabelText('Likes'));
    fireEvent.click(screen.getByLabelText('Mentions'));
    fireEvent.click(screen.getByLabelText(/Quiet hours/));
    fireEvent.input(field(/^From/), { target: { value: '23:30' } });
    fireEvent.input(field(/^To/), { target: { value: '06:15' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(notice()).toContain('Saved.'));
    const saved = await getSettings();
    expect(saved.alertTypes).toMatchObject({ like: true, mention: false, reply: true });
    expect(saved.quietHours).toEqual({ enabled: true, days: [0, 1, 2, 3, 4, 5, 6], start: '23:30', end: '06:15' });
  });

  it('refuses quiet hours that cannot work, in words, and saves nothing', async () => {
    background();
    await open();
    fireEvent.click(screen.getByLabelText(/Quiet hours/));
    fireEvent.input(field(/^To/), { target: { value: '22:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field(/^From/).getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Quiet hours must end at another time than they start.')).toBeTruthy();
    expect(document.activeElement).toBe(field(/^From/));
    expect((await getSettings()).quietHours.enabled).toBe(false);
  });
});
