// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OptionsPage } from '../../../components/options/options-page';
import { listAccounts } from '../../../lib/accounts';
import { updateAccount } from '../../../lib/background/account-store';
import { messaging } from '../../../lib/messaging';
import { DEFAULT_SETTINGS, getSettings } from '../../../lib/settings';
import { ACCOUNT, anotherAccount, signedIn, storedToken } from '../../support/background';
import { installFakePermissions } from '../../support/fake-apis';
import { profileFixture } from '../../support/fixtures';
import { answerMessages, optionsSender, sendMessagesAs } from '../../support/messages';
import { json, problem, recordingFetch } from '../../support/recording-fetch';

let permissions: ReturnType<typeof installFakePermissions>;

/**
 * Replaces a global for one test. Vitest's own stubGlobal cannot be used: undoing it also takes
 * away the extension API that WXT stubs for every test.
 */
const replaced = new Map<string, unknown>();
function stub(name: 'fetch' | 'confirm', value: unknown) {
  if (!replaced.has(name)) replaced.set(name, globalThis[name]);
  Object.assign(globalThis, { [name]: value });
}

function background(...replies: Parameters<typeof recordingFetch>) {
  const wire = recordingFetch(...replies);
  return Object.assign(wire, answerMessages(wire.fetch));
}

const field = (name: RegExp) => screen.getByLabelText(name) as HTMLInputElement;
const type = (name: RegExp, value: string) => fireEvent.input(field(name), { target: { value } });
const notice = () => document.querySelector('.notice')?.textContent ?? '';
const click = (name: string | RegExp) => fireEvent.click(screen.getByRole('button', { name }));

/** Every account checks the service once, as the background does when it starts. */
async function pollAll({ runtimes }: { runtimes: ReturnType<typeof answerMessages>['runtimes'] }) {
  await runtimes.sync();
  for (const runtime of runtimes.all()) await runtime.poller.poll();
}

async function open() {
  render(<OptionsPage />);
  await screen.findByLabelText(/Check for new notifications every/);
}

const SOCIAL = 'https://example.social';
const DISCOVERY = {
  name: 'Example Social',
  siteOrigin: SOCIAL,
  profilePath: '/@:username',
  apiBaseUrl: `${SOCIAL}/api`,
  authorizationEndpoint: `${SOCIAL}/oauth/authorize`,
  tokenEndpoint: `${SOCIAL}/api/oauth/token`,
  revocationEndpoint: `${SOCIAL}/api/oauth/revoke`,
  clientId: 'inbox-companion',
  scopes: ['inbox', 'profile'],
  codeChallengeMethods: ['S256'],
};
const REDIRECT = 'https://extension-id.chromiumapp.org/';

/**
 * The service's side of the sign-in, as the options page reaches it: the discovery document and
 * the token endpoint over fetch, and the authorize page through `identity.launchWebAuthFlow`,
 * where the person allows or denies.
 */
function signInService(person: 'allows' | 'denies' | 'closes' | 'forges', discovery = DISCOVERY) {
  const exchanged: URLSearchParams[] = [];
  const challenges: string[] = [];
  stub('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.url === `${SOCIAL}/.well-known/inbox-companion`) return json(discovery);
    if (request.url === discovery.tokenEndpoint && request.method === 'POST') {
      const form = new URLSearchParams(await request.text());
      exchanged.push(form);
      const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(form.get('code_verifier') ?? ''));
      const expected = btoa(String.fromCharCode(...new Uint8Array(digest)))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
      if (form.get('code') !== 'the-code' || expected !== challenges[0])
        return json({ error: 'invalid_grant' }, { status: 400 });
      return json({ access_token: 'oauth-token', token_type: 'Bearer', scope: 'inbox profile', created_at: 1 });
    }
    return problem(404, 'not_found');
  });
  const launchWebAuthFlow = vi.fn(async ({ url }: { url: string }) => {
    const asked = new URL(url).searchParams;
    challenges.push(asked.get('code_challenge') ?? '');
    const state = person === 'forges' ? 'someone-elses' : asked.get('state');
    if (person === 'closes') throw new Error('The user did not approve access.');
    const answer = person === 'denies' ? 'error=access_denied' : 'code=the-code';
    return `${asked.get('redirect_uri')}?${answer}&state=${state}`;
  });
  (fakeBrowser as unknown as { identity: unknown }).identity = { getRedirectURL: () => REDIRECT, launchWebAuthFlow };
  return { exchanged, launchWebAuthFlow };
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
    for (const [name, value] of replaced) Object.assign(globalThis, { [name]: value });
    replaced.clear();
  });

  it('lists each account with its state, and offers to add one', async () => {
    await signedIn('tok');
    await anotherAccount('other', null, { apiBaseUrl: `${SOCIAL}/api`, siteOrigin: SOCIAL });
    await background(json({ count: 3 }, { headers: { etag: '"3"' } })).poller.poll();
    await open();
    await waitFor(() => expect(screen.getByText('Signed in, 3 unread notifications.')).toBeTruthy());
    expect(screen.getByText('Signed out.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign out 127.0.0.1:8787' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in again example.social' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add account' })).toBeTruthy();
  });

  it('shows a person’s picture only from https, or from plain http on this computer', async () => {
    const pictures = {
      a: 'https://example.social/avatars/a.png',
      b: 'http://127.0.0.1:8787/avatars/b.svg',
      c: 'javascript:alert(1)',
      d: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
      e: 'http://example.social/avatars/e.png',
      f: 'file:///home/person/e.png',
    };
    for (const [id, avatarUrl] of Object.entries(pictures)) {
      await anotherAccount(id, null, { apiBaseUrl: `${SOCIAL}/api`, siteOrigin: SOCIAL });
      await updateAccount(id, { avatarUrl });
    }
    background();
    await open();
    await waitFor(() => expect(document.querySelectorAll('.account')).toHaveLength(6));
    const shown = [...document.querySelectorAll('.account img')].map((image) => image.getAttribute('src'));
    expect(shown).toEqual([pictures.a, pictures.b]);
    expect(document.querySelector('.account img')?.getAttribute('referrerpolicy')).toBe('no-referrer');
  });

  it('says inline what is wrong, next to the field, and saves nothing', async () => {
    background();
    await open();
    type(/Check for new notifications every/, '10');
    click('Save');
    await waitFor(() => expect(field(/Check for new/).getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Enter a whole number of seconds, at least 30.')).toBeTruthy();
    expect(document.activeElement).toBe(field(/Check for new/));
    expect(await getSettings()).toEqual(DEFAULT_SETTINGS);
  });

  it('asks for the notifications permission when desktop notifications are turned on, and keeps them off if declined', async () => {
    background();
    await signedIn();
    permissions.answer = false;
    await open();
    fireEvent.click(screen.getByLabelText(/desktop notification/));
    click('Save');
    await waitFor(() => expect(notice()).toContain('Desktop notifications stay off'));
    expect(permissions.requests.at(-1)?.permissions).toEqual(['notifications']);
    expect((await getSettings()).desktopNotifications).toBe(false);
  });

  it('signs in with the service’s own page: PKCE, state checked, the code exchanged, the account added', async () => {
    const service = signInService('allows');
    const wire = background(json(profileFixture({ username: 'alice' })), json({ count: 7 }));
    await open();
    click('Add account');
    await screen.findByLabelText(/Service address/);
    type(/Service address/, 'example.social');
    click('Continue');
    click(
      await screen
        .findByRole('button', { name: 'Sign in with example.social' })
        .then(() => 'Sign in with example.social'),
    );
    await waitFor(() => expect(notice()).toContain('Signed in as @alice.'));
    expect(permissions.requests.map((request) => request.origins)).toEqual([
      ['https://example.social/*'],
      ['https://example.social/*'],
    ]);
    const authorize = new URL(service.launchWebAuthFlow.mock.calls[0]?.[0].url ?? '');
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'inbox-companion',
      redirect_uri: REDIRECT,
      code_challenge_method: 'S256',
      scope: 'inbox profile',
    });
    expect(authorize.searchParams.get('state')?.length).toBeGreaterThanOrEqual(16);
    expect(service.exchanged[0]?.get('code_verifier')?.length).toBeGreaterThanOrEqual(43);
    expect(service.exchanged[0]?.get('redirect_uri')).toBe(REDIRECT);
    const [account] = await listAccounts();
    expect(account).toMatchObject({ apiBaseUrl: `${SOCIAL}/api`, siteOrigin: SOCIAL });
    expect(await storedToken(account?.id)).toEqual({ token: 'oauth-token', apiOrigin: SOCIAL });
    expect(wire.requests[0]?.headers.get('authorization')).toBe('Bearer oauth-token');
  });

  it.each([
    ['denies', 'You did not allow Inbox Companion'],
    ['closes', 'Signing in was cancelled'],
    ['forges', 'did not belong to this sign-in'],
  ] as const)('adds nothing when the person %s the sign-in, and says so', async (person, words) => {
    const service = signInService(person);
    background();
    await open();
    click('Add account');
    await screen.findByLabelText(/Service address/);
    type(/Service address/, 'https://example.social/some/page');
    click('Continue');
    await screen.findByRole('button', { name: 'Sign in with example.social' });
    click('Sign in with example.social');
    await waitFor(() => expect(notice()).toContain(words));
    expect(service.exchanged).toEqual([]);
    expect(await listAccounts()).toEqual([]);
  });

  it.each(['tokenEndpoint', 'authorizationEndpoint', 'apiBaseUrl'] as const)(
    'signs in nowhere when the service names a plain http %s off this computer, and says why',
    async (key) => {
      const insecure = { ...DISCOVERY, [key]: DISCOVERY[key].replace('https:', 'http:') };
      const service = signInService('allows', insecure);
      background();
      await open();
      click('Add account');
      await screen.findByLabelText(/Service address/);
      type(/Service address/, 'example.social');
      click('Continue');
      await waitFor(() => expect(notice()).toContain('would send your password and token unencrypted'));
      expect(screen.queryByRole('button', { name: 'Sign in with example.social' })).toBeNull();
      expect(service.launchWebAuthFlow).not.toHaveBeenCalled();
      expect(service.exchanged).toEqual([]);
      expect(await listAccounts()).toEqual([]);
    },
  );

  it('offers a token with the service’s own addresses where the browser cannot show its sign-in page', async () => {
    // Firefox for Android has no identity API.
    const service = signInService('allows', { ...DISCOVERY, apiBaseUrl: `${SOCIAL}/v2/api` });
    (fakeBrowser as unknown as { identity: unknown }).identity = undefined;
    background();
    await open();
    click('Add account');
    await screen.findByLabelText(/Service address/);
    type(/Service address/, 'example.social');
    click('Continue');
    await waitFor(() => expect(notice()).toContain('This browser cannot show an extension the sign-in page'));
    expect(screen.queryByRole('button', { name: 'Sign in with example.social' })).toBeNull();
    expect(field(/API address/).value).toBe(`${SOCIAL}/v2/api`);
    expect(field(/Web site address/).value).toBe(SOCIAL);
    expect(service.launchWebAuthFlow).not.toHaveBeenCalled();
  });

  it('offers a pasted token for a service without the sign-in, and adds the account with it', async () => {
    stub('fetch', async () => problem(404, 'not_found'));
    // A service without the sign-in may have no GET /me either: the account is named by its site.
    const wire = background(problem(404, 'not_found'), json({ count: 2 }), json({ count: 2 }));
    await open();
    click('Add account');
    await screen.findByLabelText(/Service address/);
    type(/Service address/, 'https://example.social');
    click('Continue');
    await waitFor(() => expect(notice()).toContain('offers no sign-in for Inbox Companion'));
    expect(field(/API address/).value).toBe('https://example.social/api');
    expect(field(/Web site address/).value).toBe('https://example.social');
    type(/Access token/, ' tok-123 ');
    click('Add with this token');
    await waitFor(() => expect(notice()).toContain('Signed in as example.social.'));
    expect(wire.requests[0]?.headers.get('authorization')).toBe('Bearer tok-123');
    const [account] = await listAccounts();
    expect(await storedToken(account?.id)).toEqual({ token: 'tok-123', apiOrigin: SOCIAL });
  });

  it.each([
    ['the count on success', () => json({ count: 1 }), 'Connected. You have 1 unread notification.'],
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
  ] as const)('tests a typed address and token, and says %s in words', async (_, reply, words) => {
    background(reply);
    await open();
    click('Add account');
    await screen.findByLabelText(/Service address/);
    fireEvent.click(await screen.findByText('Use a token instead'));
    type(/API address/, 'http://127.0.0.1:8787/api');
    type(/Access token/, 'tok');
    click('Test connection');
    await waitFor(() => expect(notice()).toContain(words));
  });

  it('signs one account out at its service, keeping the other', async () => {
    await signedIn('tok', {}, ACCOUNT, 'me');
    await anotherAccount('other', 'tok-2', { apiBaseUrl: `${SOCIAL}/api`, siteOrigin: SOCIAL }, 'other');
    const wire = background(json({ count: 0 }), json({ count: 0 }), json({}), json({ count: 0 }));
    await pollAll(wire);
    await open();
    await waitFor(() => expect(screen.getAllByText('Signed in, 0 unread notifications.')).toHaveLength(2));
    click('Sign out @me');
    await waitFor(() => expect(notice()).toContain('@me is signed out'));
    expect(await storedToken()).toBeNull();
    expect(await storedToken('other')).toMatchObject({ token: 'tok-2' });
    const revoke = wire.requests.find((request) => request.url.pathname === '/api/oauth/revoke');
    expect(new URLSearchParams(revoke?.body).get('token')).toBe('tok');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in again @me' })).toBeTruthy());
  });

  it('removes an account after asking, and gives back its host permissions', async () => {
    await signedIn('tok');
    await anotherAccount('other', 'tok-2', { apiBaseUrl: `${SOCIAL}/api`, siteOrigin: SOCIAL });
    background(json({ count: 0 }), json({ count: 0 }), json({}));
    stub(
      'confirm',
      vi.fn(() => true),
    );
    await open();
    click('Remove example.social');
    await waitFor(() => expect(notice()).toContain('example.social was removed.'));
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining('https://example.social'));
    expect((await listAccounts()).map((account) => account.id)).toEqual([ACCOUNT]);
    expect(await fakeBrowser.permissions.contains({ origins: ['https://example.social/*'] })).toBe(false);
    expect(await fakeBrowser.permissions.contains({ origins: ['http://127.0.0.1/*'] })).toBe(true);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove example.social' })).toBeNull());
  });

  it('says when signing out failed, and gives the buttons back', async () => {
    await signedIn();
    await pollAll(background(json({ count: 0 }), json({})));
    await open();
    // The background's own store fails: the token can be neither read nor removed.
    const store = globalThis.indexedDB;
    globalThis.indexedDB = {
      open: () => {
        throw new Error('disk full');
      },
    } as unknown as IDBFactory;
    await screen.findByRole('button', { name: 'Sign out 127.0.0.1:8787' });
    click('Sign out 127.0.0.1:8787');
    await waitFor(() => expect(notice()).toContain('Try again.'));
    globalThis.indexedDB = store;
    expect(await storedToken()).not.toBeNull();
    for (const button of screen.getAllByRole('button')) expect((button as HTMLButtonElement).disabled).toBe(false);
  });

  it('saves which types raise an alert, and quiet hours across midnight', async () => {
    background();
    await open();
    const alerting = within(screen.getByRole('group', { name: 'Raise an alert for' }));
    fireEvent.click(alerting.getByLabelText('Likes'));
    fireEvent.click(alerting.getByLabelText('Mentions'));
    fireEvent.click(screen.getByLabelText(/Quiet hours/));
    fireEvent.input(field(/^From/), { target: { value: '23:30' } });
    fireEvent.input(field(/^To/), { target: { value: '06:15' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(notice()).toContain('Saved.'));
    const saved = await getSettings();
    expect(saved.alertTypes).toMatchObject({ like: true, mention: false, reply: true });
    expect(saved.quietHours).toEqual({ enabled: true, days: [0, 1, 2, 3, 4, 5, 6], start: '23:30', end: '06:15' });
  });

  it('groups likes and follows but not mentions and replies at first, saves the types chosen, and sets them aside with grouping off', async () => {
    background();
    await open();
    const group = screen.getByRole('group', { name: 'Group these types' }) as HTMLFieldSetElement;
    const box = (name: string) => within(group).getByLabelText(name) as HTMLInputElement;
    expect(['Mentions', 'Replies', 'New followers', 'Likes'].map((name) => box(name).checked)).toEqual([
      false,
      false,
      true,
      true,
    ]);
    fireEvent.click(box('Mentions'));
    fireEvent.click(box('Likes'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(notice()).toContain('Saved.'));
    expect((await getSettings()).groupedTypes).toMatchObject({
      mention: true,
      reply: false,
      follow: true,
      like: false,
    });
    fireEvent.click(screen.getByLabelText(/Show neighbouring notifications/));
    expect(group.disabled).toBe(true);
  });

  it('offers the popup’s list compact or comfortable, compact at first, and saves the choice', async () => {
    background();
    await open();
    const list = screen.getByRole('group', { name: 'Popup list' });
    const compact = within(list).getByRole('radio', { name: /^Compact/ }) as HTMLInputElement;
    const comfortable = within(list).getByRole('radio', { name: /^Comfortable/ }) as HTMLInputElement;
    expect([compact.checked, comfortable.checked]).toEqual([true, false]);
    fireEvent.click(comfortable);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(notice()).toContain('Saved.'));
    expect((await getSettings()).density).toBe('comfortable');
    expect([compact.checked, comfortable.checked]).toEqual([false, true]);
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
