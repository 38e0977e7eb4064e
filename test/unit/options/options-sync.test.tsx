// @vitest-environment happy-dom
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OptionsPage } from '../../../components/options/options-page';
import { DEFAULT_SETTINGS } from '../../../lib/settings';

const box = (name: RegExp) => screen.getByLabelText(name) as HTMLInputElement;

describe('the options page, open while the settings change on another computer', () => {
  beforeEach(() => fakeBrowser.reset());
  afterEach(cleanup);

  it('shows the change without being opened again, and keeps what the person is changing here', async () => {
    await fakeBrowser.storage.local.set({ accounts: [] });
    render(<OptionsPage />);
    await screen.findByLabelText(/Check for new notifications every/);
    expect(box(/List only unread notifications/).checked).toBe(false);
    fireEvent.click(box(/Show neighbouring notifications/));
    expect(box(/Show neighbouring notifications/).checked).toBe(false);

    await fakeBrowser.storage.sync.set({ settings: { unreadOnly: true, groupNotifications: true } });
    await waitFor(() => expect(box(/List only unread notifications/).checked).toBe(true));
    // Being changed here: the person's choice stands until they save or leave.
    expect(box(/Show neighbouring notifications/).checked).toBe(false);
    expect(box(/Mark a notification read when opening/).checked).toBe(DEFAULT_SETTINGS.markReadOnOpen);
  });
});

describe('the options page’s privacy link', () => {
  beforeEach(() => fakeBrowser.reset());
  afterEach(cleanup);

  it('opens the copy of the privacy policy the extension ships, which works offline', async () => {
    await fakeBrowser.storage.local.set({ accounts: [] });
    render(<OptionsPage />);
    const link = (await screen.findByRole('link', { name: /Privacy/ })) as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('/privacy.html');
    expect(existsSync(resolve('public/privacy.html'))).toBe(true);
  });
});
