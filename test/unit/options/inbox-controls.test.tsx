// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OptionsPage } from '../../../components/options/options-page';
import type { Mute, StrangersPolicy } from '../../../lib/api/contract';
import { forgetToken, storeToken } from '../../../lib/background/account-store';
import { accountStatusItem } from '../../../lib/background/stored-items';
import { SIGNED_OUT } from '../../../lib/connection-status';
import { DEFAULT_SETTINGS } from '../../../lib/settings';
import { ACCOUNT, anotherAccount, signedIn } from '../../support/background';
import { json, noContent, problem } from '../../support/recording-fetch';
import { background, openOptionsPage } from './options-background';

const MUTES: Mute[] = [
  {
    id: '0193a2b4-0000-7000-8000-000000000001',
    actor: 'alice',
    url: null,
    until: null,
    createdAt: '2026-11-25T10:00:00.000Z',
  },
  {
    id: '0193a2b4-0000-7000-8000-000000000002',
    actor: null,
    url: 'https://example.social/posts/7',
    until: '2099-01-01T10:00:00.000Z',
    createdAt: '2026-11-25T09:00:00.000Z',
  },
];

/** A version 3 service's routes, keeping its policy and mutes as a real one would. */
function service(state: { strangers: StrangersPolicy; mutes: Mute[]; failPut?: boolean }) {
  return async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (path.endsWith('/inbox/policy') && request.method === 'GET') return json({ strangers: state.strangers });
    if (path.endsWith('/inbox/policy') && request.method === 'PUT') {
      if (state.failPut) return problem(503, 'unavailable');
      state.strangers = (await request.json()).strangers;
      return json({ strangers: state.strangers });
    }
    if (path.endsWith('/inbox/mutes') && request.method === 'GET') return json({ data: state.mutes });
    if (path.includes('/inbox/mutes/') && request.method === 'DELETE') {
      state.mutes = state.mutes.filter((mute) => !path.endsWith(mute.id));
      return noContent();
    }
    if (path.endsWith('/inbox/count')) return json({ count: 0 });
    return problem(404, 'not_found');
  };
}

/** The same reply to every request, as many as the page makes. */
const always = (answer: (request: Request) => Promise<Response> | Response) => Array.from({ length: 40 }, () => answer);

async function open() {
  render(<OptionsPage />);
  await screen.findByLabelText(/Check for new notifications every/);
}

describe('options: the strangers setting and the mutes', () => {
  beforeEach(openOptionsPage);
  afterEach(cleanup);

  it('shows the service’s strangers setting and changes it there at once', async () => {
    await signedIn('tok');
    const state = { strangers: 'accept' as StrangersPolicy, mutes: [] };
    const wire = background(...always(service(state)));
    await open();
    const show = (await screen.findByRole('radio', { name: 'Show' })) as HTMLInputElement;
    const hold = screen.getByRole('radio', { name: 'Hold back' }) as HTMLInputElement;
    expect(show.checked).toBe(true);
    expect(screen.getByRole('group', { name: /^Notifications from people you don.t follow/ })).toBeTruthy();
    expect(document.body.textContent).toContain('Muted view');
    fireEvent.click(hold);
    await waitFor(() => expect(state.strangers).toBe('mute'));
    await waitFor(() => expect(hold.checked).toBe(true));
    const put = wire.requests.find((request) => request.method === 'PUT');
    expect(put && JSON.parse(put.body)).toEqual({ strangers: 'mute' });
    fireEvent.click(show);
    await waitFor(() => expect(state.strangers).toBe('accept'));
    expect(screen.getByText('Nothing is muted.')).toBeTruthy();
  });

  it('keeps the setting as it was and says so when the service refuses the change', async () => {
    await signedIn('tok');
    background(...always(service({ strangers: 'accept', mutes: [], failPut: true })));
    await open();
    fireEvent.click(await screen.findByRole('radio', { name: 'Hold back' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Could not change it'));
    expect((screen.getByRole('radio', { name: 'Show' }) as HTMLInputElement).checked).toBe(true);
  });

  it('lists the mutes with their end, and removes one at the service', async () => {
    await signedIn('tok');
    const state = { strangers: 'mute' as StrangersPolicy, mutes: [...MUTES] };
    const wire = background(...always(service(state)));
    await open();
    const list = await screen.findByRole('list', { name: 'Muted people and threads' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^@alice.*until removed/),
      expect.stringMatching(/^the thread https:\/\/example\.social\/posts\/7.*until /),
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Remove the mute of @alice' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(state.mutes.map((mute) => mute.actor)).toEqual([null]);
    const removed = wire.requests
      .filter((request) => request.method === 'DELETE')
      .map((request) => request.url.pathname);
    expect(removed).toEqual([expect.stringMatching(/\/inbox\/mutes\/0193a2b4-0000-7000-8000-000000000001$/)]);
  });

  it('shows none of it, and no error, for a service without these routes', async () => {
    await signedIn('tok');
    const wire = background(...always(() => problem(404, 'not_found')));
    await open();
    await waitFor(() =>
      expect(wire.requests.some((request) => request.url.pathname.endsWith('/inbox/policy'))).toBe(true),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('radio', { name: 'Show' })).toBeNull();
    expect(screen.queryByText('Muted people and threads')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.querySelector('.notice')?.textContent).toBe('');
  });

  it('gives an account that signs in while the page is open its section then, and takes it away at sign-out', async () => {
    await anotherAccount(ACCOUNT, null);
    const state = { strangers: 'mute' as StrangersPolicy, mutes: [...MUTES] };
    background(...always(service(state)));
    await open();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('list', { name: 'Muted people and threads' })).toBeNull();

    await storeToken({ id: ACCOUNT, apiBaseUrl: DEFAULT_SETTINGS.apiBaseUrl }, 'tok');
    await accountStatusItem(ACCOUNT).setValue({
      ...(await accountStatusItem(ACCOUNT).getValue()),
      kind: 'ok',
      count: 0,
    });
    const list = await screen.findByRole('list', { name: 'Muted people and threads' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect((screen.getByRole('radio', { name: 'Hold back' }) as HTMLInputElement).checked).toBe(true);

    await forgetToken(ACCOUNT);
    await accountStatusItem(ACCOUNT).setValue(SIGNED_OUT);
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Muted people and threads' })).toBeNull());
  });
});
