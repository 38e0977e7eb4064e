// @vitest-environment happy-dom
// @vitest-environment-options { "url": "http://127.0.0.1:8787/" }
import { waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startProfileButtons } from '../../../components/profile/start';
import { NetworkError } from '../../../lib/api/errors';
import { HOST_TAG } from '../../../lib/profile/shadow-host';
import { ACCOUNT } from '../../support/background';
import { asScript, trustPersonEvents } from './person-input';
import { type ProfileBackground, profileBackground } from './profile-background';

trustPersonEvents();

let background: ProfileBackground;
let stop: AbortController;

const section = (username: string, anchor = true) =>
  `<section id="profile"><h1>${username}</h1>${anchor ? '<div data-profile-actions></div>' : ''}</section>`;

async function open(username = 'bob', body = section(username)) {
  history.replaceState(null, '', `/@${username}`);
  document.body.innerHTML = body;
  return startProfileButtons({ document, ask: background.ask, signal: stop.signal });
}

const hosts = () => document.querySelectorAll(HOST_TAG);
function shadow(): ShadowRoot {
  const root = document.querySelector(HOST_TAG)?.shadowRoot;
  if (!root) throw new Error('no buttons on the page');
  return root;
}
const ui = () => within(shadow() as unknown as HTMLElement);
/** Waits for a button of the buttons' UI, which may be put on the page only after an answer. */
const button = (name: string) => waitFor(() => ui().getByRole('button', { name }));
const shown = () => waitFor(() => shadow());
const focused = () => shadow().activeElement;
/** Waits until every message sent so far has been answered and drawn. */
const settled = () => new Promise((resolve) => setTimeout(resolve));

beforeEach(() => {
  background = profileBackground();
  stop = new AbortController();
});

afterEach(() => {
  stop.abort();
  vi.useRealTimers();
});

describe('what the buttons show', () => {
  it('offers Follow beside the anchor when not following', async () => {
    await open();
    await shown();
    expect(ui().getByRole('group', { name: 'Inbox Companion' })).toBeTruthy();
    expect(ui().getByRole('button', { name: 'Follow' })).toBeTruthy();
    expect(ui().getByRole('button', { name: 'Report' }).getAttribute('aria-haspopup')).toBe('dialog');
    expect(document.querySelector('[data-profile-actions]')?.nextSibling).toBe(document.querySelector(HOST_TAG));
    expect(background.calls).toEqual([{ type: 'profile.start', data: { url: 'http://127.0.0.1:8787/@bob' } }]);
  });

  it('offers Unfollow when following', async () => {
    background.state.following.add('bob');
    await open();
    expect(await button('Unfollow')).toBeTruthy();
  });

  it('floats when the page has no anchor', async () => {
    await open('bob', section('bob', false));
    await shown();
    expect(document.querySelector(HOST_TAG)?.hasAttribute('data-floating')).toBe(true);
    expect(ui().getByRole('button', { name: 'Follow' })).toBeTruthy();
  });

  it('adds nothing on the person’s own profile or for an unknown user', async () => {
    await open('me');
    await settled();
    expect(hosts()).toHaveLength(0);
    stop.abort();
    stop = new AbortController();
    await open('nobody');
    await settled();
    expect(hosts()).toHaveLength(0);
    expect(background.sent()).toEqual(['profile.start', 'profile.start']);
  });

  it('adds nothing to a page that is not a profile page', async () => {
    history.replaceState(null, '', '/inbox');
    document.body.innerHTML = '<main></main>';
    await startProfileButtons({ document, ask: background.ask, signal: stop.signal });
    await settled();
    expect(hosts()).toHaveLength(0);
    expect(background.sent()).toEqual(['profile.start']);
  });

  it('adds nothing when the background refuses the page', async () => {
    background.failNext('profile.start', new NetworkError());
    expect(await open()).toBeNull();
    await settled();
    expect(hosts()).toHaveLength(0);
  });

  it('says when signed out and opens the settings on request', async () => {
    background.state.me = null;
    await open();
    await shown();
    expect(ui().getByText('Sign in to Inbox Companion to follow or report.')).toBeTruthy();
    expect(ui().queryByRole('button', { name: 'Follow' })).toBeNull();
    await userEvent.click(ui().getByRole('button', { name: 'Open settings' }));
    expect(background.sent()).toContain('options.open');
  });

  it('shows the buttons once the person comes back signed in', async () => {
    background.state.me = null;
    await open();
    await shown();
    background.state.me = 'me';
    document.dispatchEvent(new Event('visibilitychange'));
    expect(await button('Follow')).toBeTruthy();
  });

  it('says why the profile could not be loaded and tries again', async () => {
    background.failNext('profile.get', new NetworkError());
    await open();
    await shown();
    expect(ui().getByRole('alert').textContent).toBe(
      'The service could not be reached. Check your connection and try again.',
    );
    await userEvent.click(ui().getByRole('button', { name: 'Try again' }));
    expect(await button('Follow')).toBeTruthy();
    expect(background.sent()).toEqual(['profile.start', 'profile.get']);
  });
});

describe('the follow toggle', () => {
  it('shows progress, then the new state, and announces it', async () => {
    await open();
    await shown();
    const release = background.hold('profile.follow');
    await userEvent.click(ui().getByRole('button', { name: 'Follow' }));
    const pending = ui().getByRole('button', { name: 'Following…' });
    expect(pending.getAttribute('aria-disabled')).toBe('true');
    release();
    const unfollow = await button('Unfollow');
    expect(unfollow).toBe(pending);
    expect(ui().getByRole('status').textContent).toBe('You now follow @bob.');
    expect(background.sent()).toEqual(['profile.start', 'profile.follow']);
  });

  it('adopts the true state when the page was out of date, without an error', async () => {
    await open();
    await shown();
    background.state.following.add('bob');
    await userEvent.click(ui().getByRole('button', { name: 'Follow' }));
    expect(await button('Unfollow')).toBeTruthy();
    expect(ui().queryByRole('alert')).toBeNull();
    expect(ui().getByRole('status').className).toBe('visually-hidden');
  });

  it('restores the old state and says why on a failure', async () => {
    background.state.following.add('bob');
    await open();
    await shown();
    background.failNext('profile.unfollow', new NetworkError());
    await userEvent.click(await button('Unfollow'));
    await waitFor(() =>
      expect(ui().getByRole('status').textContent).toBe(
        'The service could not be reached. Check your connection and try again.',
      ),
    );
    expect(ui().getByRole('button', { name: 'Unfollow' })).toBeTruthy();
    expect(background.state.following.has('bob')).toBe(true);
  });

  it('works from the keyboard', async () => {
    await open();
    await shown();
    ui().getByRole('button', { name: 'Follow' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(await button('Unfollow')).toBe(focused());
  });
});

describe('what a page’s script can do with the buttons', () => {
  it('cannot follow or unfollow with click(), a dispatched click or synthetic keys', async () => {
    await open();
    await shown();
    const follow = ui().getByRole('button', { name: 'Follow' });
    asScript(() => {
      follow.click();
      follow.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
      follow.focus();
      for (const type of ['keydown', 'keypress', 'keyup']) {
        follow.dispatchEvent(new KeyboardEvent(type, { key: 'Enter', bubbles: true }));
      }
    });
    await settled();
    expect(background.sent()).toEqual(['profile.start']);
    expect(ui().getByRole('button', { name: 'Follow' })).toBe(follow);
    await userEvent.click(follow);
    expect(await ui().findByRole('button', { name: 'Unfollow' })).toBeTruthy();
    expect(background.sent()).toEqual(['profile.start', 'profile.follow']);
  });

  it('cannot open the report dialog, or send a report with requestSubmit() or a click on Send', async () => {
    await open();
    await shown();
    asScript(() => ui().getByRole('button', { name: 'Report' }).click());
    await settled();
    expect(ui().queryByRole('dialog')).toBeNull();
    await userEvent.click(ui().getByRole('button', { name: 'Report' }));
    const dialog = ui().getByRole('dialog', { name: 'Report @bob' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    const comment = within(dialog).getByRole('textbox') as HTMLTextAreaElement;
    const form = dialog.querySelector('form') as HTMLFormElement;
    const send = within(dialog).getByRole('button', { name: 'Send report' }) as HTMLButtonElement;
    asScript(() => {
      comment.value = 'written by the page';
      comment.dispatchEvent(new Event('input', { bubbles: true }));
      form.requestSubmit();
      form.requestSubmit(send);
      form.dispatchEvent(new SubmitEvent('submit', { bubbles: true, cancelable: true }));
      send.click();
    });
    await settled();
    expect(background.sent()).not.toContain('profile.report');
    expect(comment.value).toBe('');
    await userEvent.click(send);
    expect(await within(dialog).findByRole('status')).toBeTruthy();
    expect(background.state.reports).toEqual([{ username: 'bob', reason: 'spam', comment: '' }]);
  });

  it('acts on no profile when the page changed its URL under the buttons, then follows the page', async () => {
    await open();
    await shown();
    const follow = ui().getByRole('button', { name: 'Follow' });
    history.pushState(null, '', '/@carol');
    await userEvent.click(follow);
    await settled();
    expect(background.sent()).not.toContain('profile.follow');
    await waitFor(() => expect(background.sent()).toEqual(['profile.start', 'profile.get']));
    expect(background.state.following.size).toBe(0);
  });
});

describe('the report dialog', () => {
  async function openDialog() {
    await open();
    await shown();
    await userEvent.click(ui().getByRole('button', { name: 'Report' }));
    return ui().getByRole('dialog', { name: 'Report @bob' });
  }

  it('lists the reasons in words and moves focus into the dialog', async () => {
    const dialog = await openDialog();
    expect(
      within(dialog)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['spam', 'harassment', 'impersonation', 'inappropriate', 'other']);
    for (const name of ['Spam', 'Harassment', 'Impersonation', 'Inappropriate content', 'Something else']) {
      expect(within(dialog).getByRole('radio', { name })).toBeTruthy();
    }
    expect(focused()).toBe(within(dialog).getByRole('radio', { name: 'Spam' }));
    expect((dialog as HTMLDialogElement).open).toBe(true);
  });

  it('counts the comment’s characters as they are typed, up to 2000', async () => {
    const dialog = await openDialog();
    const comment = within(dialog).getByRole('textbox', { name: 'Details (optional)' });
    expect(comment.getAttribute('maxlength')).toBe('2000');
    await userEvent.type(comment, 'Spam!');
    expect(within(dialog).getByText('5 of 2000 characters')).toBeTruthy();
    expect(comment.getAttribute('aria-describedby')).toBe('report-count');
  });

  it('closes on Escape and gives focus back to the Report button, sending nothing', async () => {
    await openDialog();
    await userEvent.keyboard('{Escape}');
    expect(ui().queryByRole('dialog')).toBeNull();
    expect(focused()).toBe(ui().getByRole('button', { name: 'Report' }));
    expect(background.sent()).not.toContain('profile.report');
  });

  it('closes on Cancel and gives focus back', async () => {
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(ui().queryByRole('dialog')).toBeNull();
    expect(focused()).toBe(ui().getByRole('button', { name: 'Report' }));
  });

  it('keeps Tab inside while open', async () => {
    const dialog = await openDialog();
    const send = within(dialog).getByRole('button', { name: 'Send report' });
    send.focus();
    await userEvent.tab();
    expect(focused()).toBe(within(dialog).getByRole('radio', { name: 'Spam' }));
    await userEvent.tab({ shift: true });
    expect(focused()).toBe(send);

    await userEvent.click(within(dialog).getByRole('radio', { name: 'Impersonation' }));
    send.focus();
    await userEvent.tab();
    expect(focused()).toBe(within(dialog).getByRole('radio', { name: 'Impersonation' }));
  });

  it('asks for a reason first, then sends once and says the report was received', async () => {
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose a reason for the report.');
    expect(focused()).toBe(within(dialog).getByRole('radio', { name: 'Spam' }));

    await userEvent.click(within(dialog).getByRole('radio', { name: 'Impersonation' }));
    await userEvent.type(within(dialog).getByRole('textbox'), 'Pretends to be me.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByText('Thank you. Your report was received and will be reviewed.')).toBeTruthy();
    expect(background.state.reports).toEqual([
      { username: 'bob', reason: 'impersonation', comment: 'Pretends to be me.' },
    ]);
    const close = within(dialog).getByRole('button', { name: 'Close' });
    expect(focused()).toBe(close);
    await userEvent.click(close);
    expect(ui().queryByRole('dialog')).toBeNull();
    expect(focused()).toBe(ui().getByRole('button', { name: 'Report' }));
  });

  it('says when the person can report again after a rate limit', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 21, 10, 0, 0));
    background.state.reports.length = 10;
    background.state.retryAfter = 600;
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    const time = new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' }).format(
      new Date(2026, 10, 21, 10, 10, 0),
    );
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      `You have sent the most reports allowed for now. You can report again in 10 minutes, at ${time}.`,
    );
    expect((within(dialog).getByRole('radio', { name: 'Spam' }) as HTMLInputElement).checked).toBe(true);
  });

  it('shows progress while sending and cannot be closed halfway', async () => {
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Something else' }));
    const release = background.hold('profile.report');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(within(dialog).getByRole('button', { name: 'Sending…' }).getAttribute('aria-busy')).toBe('true');
    await userEvent.keyboard('{Escape}');
    expect(ui().queryByRole('dialog')).not.toBeNull();
    release();
    expect(await within(dialog).findByRole('button', { name: 'Close' })).toBeTruthy();
  });

  it('keeps its key presses from the page’s shortcuts', async () => {
    const pageKeys: string[] = [];
    document.addEventListener('keydown', (event) => pageKeys.push(event.key));
    const dialog = await openDialog();
    await userEvent.type(within(dialog).getByRole('textbox'), 'j');
    expect(pageKeys).toEqual([]);
  });
});

describe('single-page navigation', () => {
  it('shows the buttons for the new profile, once, beside the new anchor', async () => {
    background.state.following.add('alice');
    await open('bob');
    await button('Follow');
    document.querySelector('#profile')?.remove();
    document.body.insertAdjacentHTML('afterbegin', section('alice'));
    history.pushState(null, '', '/@alice');
    expect(await button('Unfollow')).toBeTruthy();
    expect(hosts()).toHaveLength(1);
    expect(document.querySelector('[data-profile-actions]')?.nextSibling).toBe(document.querySelector(HOST_TAG));
  });

  it('drops an open dialog of the old profile', async () => {
    await open('bob');
    await button('Follow');
    await userEvent.click(ui().getByRole('button', { name: 'Report' }));
    document.querySelector('#profile')?.remove();
    document.body.insertAdjacentHTML('afterbegin', section('alice'));
    history.pushState(null, '', '/@alice');
    await waitFor(() =>
      expect(background.calls.at(-1)).toEqual({ type: 'profile.get', data: { account: ACCOUNT, username: 'alice' } }),
    );
    await button('Follow');
    expect(ui().queryByRole('dialog')).toBeNull();
  });

  it('ignores the old profile’s answer that arrives after navigating', async () => {
    await open('bob');
    await button('Follow');
    const release = background.hold('profile.follow');
    await userEvent.click(ui().getByRole('button', { name: 'Follow' }));
    document.querySelector('#profile')?.remove();
    document.body.insertAdjacentHTML('afterbegin', section('alice'));
    history.pushState(null, '', '/@alice');
    await waitFor(() =>
      expect(background.calls.at(-1)).toEqual({ type: 'profile.get', data: { account: ACCOUNT, username: 'alice' } }),
    );
    await button('Follow');
    release();
    await settled();
    expect(ui().getByRole('button', { name: 'Follow' })).toBeTruthy();
    expect(ui().getByRole('status').textContent).toBe('');
  });
});
