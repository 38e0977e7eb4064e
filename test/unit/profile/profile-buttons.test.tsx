// @vitest-environment happy-dom
// @vitest-environment-options { "url": "http://127.0.0.1:8787/" }
import { readFileSync } from 'node:fs';
import { waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startButtonsFramePage } from '../../../components/profile/buttons-frame-page';
import { profileButtons } from '../../../components/profile/profile-buttons';
import { NetworkError } from '../../../lib/api/errors';
import type { ClickGuard } from '../../../lib/profile/click-guard';
import type { FrameFinding } from '../../../lib/profile/click-rules';
import { type FrameLayout, findingMessage } from '../../../lib/profile/frame-messages';
import type { ProfileSession } from '../../../lib/profile/profile-state';
import { deliver, popupSender } from '../../support/messages';
import { asScript, trustPersonEvents } from './person-input';
import { type ProfileBackground, profileBackground } from './profile-background';

beforeEach(trustPersonEvents);

const PLAIN_FINDING: FrameFinding = {
  box: [200, 150, 374, 40],
  size: [374, 40],
  viewport: [1000, 800],
  styles: [['1', 'none', 'none', 'none', 'none', 'normal', 'visible']],
  shown: true,
  covers: [],
};

let background: ProfileBackground;
let stop: AbortController;

let layouts: FrameLayout[] = [];
/** The claim the frame brought the background: the content script's. */
let claimed = '';
/** Which clicks act; every one of the person's, unless a test covers the frame. */
const anyClick: ClickGuard = { allows: () => true };
let guard: ClickGuard | undefined = anyClick;

/** The buttons' frame on a tab that shows `username`'s profile. */
async function open(username = 'bob') {
  background.state.shows = username;
  document.body.innerHTML = '<div id="app"></div>';
  layouts = [];
  await startButtonsFramePage({
    document,
    ask: background.ask,
    tell: (layout) => layouts.push(layout),
    nextClaim: async () => {
      claimed = await background.claim();
      return claimed;
    },
    signal: stop.signal,
    guard,
  });
}

/** Whether the frame told the content script it has buttons to show. */
const showing = () => layouts.at(-1)?.shown === true;
function shadow(): HTMLElement {
  const root = document.getElementById('app');
  if (!root?.querySelector('fieldset')) throw new Error('no buttons in the frame');
  return root;
}
const ui = () => within(shadow());
/** Waits for a button of the buttons' UI, which may be put on the page only after an answer. */
const button = (name: string) => waitFor(() => ui().getByRole('button', { name }));
const shown = () => waitFor(() => shadow());
const focused = () => document.activeElement;
/** Waits until every message sent so far has been answered and drawn. */
const settled = () => new Promise((resolve) => setTimeout(resolve));

beforeEach(() => {
  background = profileBackground();
  stop = new AbortController();
});

afterEach(() => {
  stop.abort();
  guard = anyClick;
  vi.useRealTimers();
});

describe('what the buttons show', () => {
  it('offers Follow when not following, and tells the page no more than its size', async () => {
    await open();
    await shown();
    expect(ui().getByRole('group', { name: 'Inbox Companion' })).toBeTruthy();
    expect(ui().getByRole('button', { name: 'Follow' })).toBeTruthy();
    expect(ui().getByRole('button', { name: 'Report' }).getAttribute('aria-haspopup')).toBe('dialog');
    expect(layouts.at(-1)).toEqual({
      shown: true,
      modal: false,
      width: expect.any(Number),
      height: expect.any(Number),
    });
    expect(background.calls).toEqual([{ type: 'profile.frame', data: { claim: expect.any(String) } }]);
  });

  it('offers Unfollow when following', async () => {
    background.state.following.add('bob');
    await open();
    expect(await button('Unfollow')).toBeTruthy();
  });

  it('mutes someone followed without unfollowing, and says where their notifications went', async () => {
    background.state.following.add('bob');
    await open();
    (await button('Mute')).click();
    const unmute = await button('Unmute');
    expect(unmute.hasAttribute('aria-disabled')).toBe(false);
    expect(background.state.muted).toEqual(['bob']);
    expect(background.state.following.has('bob')).toBe(true);
    expect(ui().getByRole('button', { name: 'Unfollow' })).toBeTruthy();
    expect(ui().getByRole('status').textContent).toBe(
      "@bob is muted: their notifications wait in the popup's Muted view.",
    );
    expect(background.sent().filter((type) => type === 'profile.mute')).toHaveLength(1);
  });

  it('unmutes, and says the person’s notifications are back; following them stays as it was', async () => {
    background.state.following.add('bob');
    background.state.muted.push('bob', 'alice');
    await open();
    const unmute = await button('Unmute');
    unmute.click();
    await waitFor(() => expect(unmute.getAttribute('aria-busy')).toBe('true'));
    await button('Mute');
    expect(background.state.muted).toEqual(['alice']);
    expect(background.state.following.has('bob')).toBe(true);
    expect(ui().getByRole('status').textContent).toBe(
      '@bob is no longer muted: their notifications are back in the inbox.',
    );
    // The same button, where the person's focus may be: Mute again works as before.
    expect(await button('Mute')).toBe(unmute);
    unmute.click();
    await button('Unmute');
    expect(background.state.muted).toEqual(['alice', 'bob']);
  });

  it('keeps an Unmute the service cannot be reached for, says it will be sent, and sends it when it can', async () => {
    background.state.muted.push('bob');
    background.state.unmutes = 'unreachable';
    await open();
    (await button('Unmute')).click();
    await button('Mute');
    expect(ui().getByRole('status').textContent).toBe("Will be sent when you're back online");
    expect(ui().queryByRole('alert')).toBeNull();
    // A new page meanwhile shows the change the person made, not the mute the service still has.
    stop.abort();
    stop = new AbortController();
    await open();
    expect(await button('Mute')).toBeTruthy();
    expect(background.state.muted).toEqual(['bob']);
    background.state.unmutes = 'answered';
    await deliver('status.refresh', undefined, popupSender);
    await waitFor(() => expect(background.state.muted).toEqual([]));
  });

  it('keeps a Mute the service cannot be reached for, shows the person muted, and sends it once when it can', async () => {
    background.state.mutes = 'unreachable';
    await open();
    (await button('Mute')).click();
    await button('Unmute');
    expect(ui().getByRole('status').textContent).toBe("Will be sent when you're back online");
    expect(ui().queryByRole('alert')).toBeNull();
    // A new page meanwhile shows the person muted, as the person made them.
    stop.abort();
    stop = new AbortController();
    await open();
    expect(await button('Unmute')).toBeTruthy();
    expect(background.state.muted).toEqual([]);
    background.state.mutes = 'answered';
    await deliver('status.refresh', undefined, popupSender);
    await waitFor(() => expect(background.state.muted).toEqual(['bob']));
    expect(background.state.muteKeys).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
  });

  it('says why an Unmute failed, and still offers it', async () => {
    background.state.muted.push('bob');
    background.state.unmutes = 'failing';
    await open();
    (await button('Unmute')).click();
    await waitFor(() => expect(ui().getByRole('status').className).toContain('problem'));
    expect(ui().getByRole('status').textContent).not.toBe('');
    expect((await button('Unmute')).hasAttribute('aria-disabled')).toBe(false);
    expect(background.state.muted).toEqual(['bob']);
  });

  it('offers Unmute from its first frame on the profile of someone muted before the page loaded', async () => {
    background.state.muted.push('bob');
    await open();
    const unmute = await button('Unmute');
    expect(ui().queryByRole('button', { name: 'Mute' })).toBeNull();
    // No title: the mute lasts until removed.
    expect(unmute.hasAttribute('title')).toBe(false);
    expect(background.sent()).toEqual(['profile.frame']);
  });

  it('says until when a mute made for a while lasts', async () => {
    background.state.muted.push('bob');
    background.state.until.bob = '2099-01-02T03:04:00.000Z';
    await open();
    expect((await button('Unmute')).title).toMatch(/^until .*2099/);
  });

  it('holds the same room muted as not, so the page cannot tell from the frame whom the person muted', async () => {
    const barOn = async (username: string) => {
      stop.abort();
      stop = new AbortController();
      await open(username);
      await shown();
      await settled();
      return (shadow().querySelector('fieldset') as HTMLElement).outerHTML.replace(
        /<span class="avatar".*?<\/span>/,
        '',
      );
    };
    background.state.muted.push('alice');
    const muted = await barOn('alice');
    const notMuted = await barOn('bob');
    // Every label the button may show sizes it, whichever it shows: only its word differs.
    expect(muted).not.toBe(notMuted);
    expect(muted.replace('<span>Unmute</span>', '<span>Mute</span>')).toBe(notMuted);
  });

  it('takes Mute away, with no error, when the service has no mutes', async () => {
    background.state.hasMutes = false;
    await open();
    (await button('Mute')).click();
    await waitFor(() => expect(ui().queryByRole('button', { name: 'Mute' })).toBeNull());
    expect(ui().getByRole('button', { name: 'Follow' })).toBeTruthy();
    expect(ui().queryByRole('alert')).toBeNull();
    expect(ui().getByRole('status').textContent).toBe('');
  });

  it('holds the same room on the person’s own profile as on anyone’s, with nothing in it to click', async () => {
    const frameOn = async (username: string) => {
      stop.abort();
      stop = new AbortController();
      await open(username);
      await shown();
      await settled();
      const bar = shadow().querySelector('fieldset') as HTMLElement;
      return { layouts, sent: background.sent(), bar };
    };
    const bob = await frameOn('bob');
    // Each face is its person's own, the same size: the rest is the same markup.
    const faceless = (bar: HTMLElement) => bar.outerHTML.replace(/<span class="avatar".*?<\/span>/, '');
    const bobMarkup = faceless(bob.bar);
    background.calls.length = 0;
    const me = await frameOn('me');
    // The same frame, told the same way after the same messages: only the unseen mark differs.
    expect(me.layouts).toEqual(bob.layouts);
    expect(me.layouts.at(-1)).toMatchObject({ shown: true, modal: false });
    expect(me.sent).toEqual(['profile.frame']);
    expect(me.bar.hasAttribute('data-self')).toBe(true);
    expect(faceless(me.bar).replace(' data-self=""', '')).toBe(bobMarkup);
    // The stylesheet hides the buttons there, and a click on them does nothing.
    const css = readFileSync('components/profile/profile.css', 'utf8');
    document.head.insertAdjacentHTML('beforeend', `<style>${css}</style>`);
    expect(ui().queryByRole('button', { name: 'Follow' })).toBeNull();
    expect(ui().queryByRole('button', { name: 'Report' })).toBeNull();
    for (const button of me.bar.querySelectorAll('button')) button.click();
    await settled();
    expect(background.sent()).toEqual(['profile.frame']);
    expect(ui().queryByRole('dialog')).toBeNull();
    document.head.querySelector('style')?.remove();
  });

  it('shows nothing for an unknown user', async () => {
    await open('nobody');
    await settled();
    expect(showing()).toBe(false);
    expect(background.sent()).toEqual(['profile.frame']);
  });

  it('shows nothing, and tells nothing, in a tab that shows no profile', async () => {
    await open('');
    await settled();
    expect(layouts).toEqual([]);
    expect(background.sent()).toEqual(['profile.frame']);
  });

  it('tries the claims its parent window posts until the background takes one, and gives up after a few', async () => {
    const claims = ['posted by the page', 'also the page'];
    background.state.shows = 'bob';
    document.body.innerHTML = '<div id="app"></div>';
    await startButtonsFramePage({
      document,
      ask: background.ask,
      tell: (layout) => layouts.push(layout),
      nextClaim: async () => claims.shift() ?? background.claim(),
      signal: stop.signal,
    });
    expect(await button('Follow')).toBeTruthy();
    expect(background.sent()).toEqual(['profile.frame', 'profile.frame', 'profile.frame']);

    stop.abort();
    stop = new AbortController();
    layouts = [];
    document.body.innerHTML = '<div id="app"></div>';
    let tries = 0;
    await startButtonsFramePage({
      document,
      ask: background.ask,
      tell: (layout) => layouts.push(layout),
      nextClaim: async () => `forged ${++tries}`,
      signal: stop.signal,
    });
    expect(tries).toBe(20);
    expect(layouts).toEqual([]);
  });

  it('shows nothing when the background refuses the frame', async () => {
    background.failNext('profile.frame', new NetworkError());
    await open();
    await settled();
    expect(layouts).toEqual([]);
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
    expect(background.sent()).toEqual(['profile.frame', 'profile.get']);
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
    expect(background.sent()).toEqual(['profile.frame', 'profile.follow']);
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
    expect(background.sent()).toEqual(['profile.frame']);
    expect(ui().getByRole('button', { name: 'Follow' })).toBe(follow);
    await userEvent.click(follow);
    expect(await ui().findByRole('button', { name: 'Unfollow' })).toBeTruthy();
    expect(background.sent()).toEqual(['profile.frame', 'profile.follow']);
  });

  it('cannot open the report dialog, or send a report with requestSubmit() or a click on Send', async () => {
    await open();
    await shown();
    asScript(() => ui().getByRole('button', { name: 'Report' }).click());
    await settled();
    expect(ui().queryByRole('dialog')).toBeNull();
    await userEvent.click(ui().getByRole('button', { name: 'Report' }));
    const dialog = await ui().findByRole('dialog', { name: 'Report @bob' });
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

  it('acts on no click the frame could not trust, says quietly to click again, and acts on the next', async () => {
    const allowed: boolean[] = [false];
    guard = { allows: () => allowed.shift() ?? true };
    await open();
    await shown();
    const follow = ui().getByRole('button', { name: 'Follow' });
    await userEvent.click(follow);
    await settled();
    expect(background.sent()).toEqual(['profile.frame']);
    expect(follow.getAttribute('data-again')).toBe('Click again');
    expect(layouts.at(-1)).toEqual(layouts[0]);
    await userEvent.click(follow);
    expect(await ui().findByRole('button', { name: 'Unfollow' })).toBe(follow);
    expect(follow.hasAttribute('data-again')).toBe(false);
    expect(background.sent()).toEqual(['profile.frame', 'profile.follow']);
  });

  it('by default acts on no click from a pointer that came onto the frame just then', async () => {
    guard = undefined;
    await open();
    await shown();
    await userEvent.click(ui().getByRole('button', { name: 'Follow' }));
    await settled();
    expect(background.sent()).toEqual(['profile.frame']);
    ui().getByRole('button', { name: 'Follow' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(await ui().findByRole('button', { name: 'Unfollow' })).toBeTruthy();
  });

  it('hears how the page shows the frame from the content script alone: from the parent window, with the claim', async () => {
    const heard: FrameFinding[] = [];
    guard = { allows: () => true, see: (finding) => heard.push(finding) };
    await open();
    await shown();
    const finding = { ...PLAIN_FINDING, covers: [[0, 0, 1000, 800]] };
    const post = (data: unknown, source: MessageEventSource | null = window.parent) =>
      window.dispatchEvent(new MessageEvent('message', { data, source, origin: 'http://127.0.0.1:8787' }));
    post(findingMessage('guessed', finding));
    post({ type: 'inbox-companion:finding', finding });
    post(findingMessage(claimed, finding), null);
    expect(heard).toEqual([]);
    post(findingMessage(claimed, finding));
    expect(heard).toEqual([finding]);
  });

  it('acts on no profile when the page changed its URL under the buttons', async () => {
    await open();
    await shown();
    background.state.shows = 'carol';
    await userEvent.click(ui().getByRole('button', { name: 'Follow' }));
    await settled();
    expect(background.state.following.size).toBe(0);
    expect(ui().queryByRole('button', { name: 'Unfollow' })).toBeNull();
  });
});

describe('the report dialog', () => {
  async function openDialog() {
    await open();
    await shown();
    await userEvent.click(ui().getByRole('button', { name: 'Report' }));
    return ui().findByRole('dialog', { name: 'Report @bob' });
  }

  it('opens once however often Report is clicked while the dialog loads', async () => {
    await open();
    await shown();
    const report = ui().getByRole('button', { name: 'Report' });
    report.click();
    report.click();
    const dialog = await ui().findByRole('dialog', { name: 'Report @bob' });
    await settled();
    expect(ui().getAllByRole('dialog')).toEqual([dialog]);
    expect(focused()).toBe(within(dialog).getByRole('radio', { name: 'Spam' }));
    await userEvent.keyboard('{Escape}');
    expect(ui().queryByRole('dialog')).toBeNull();
    expect(focused()).toBe(report);
  });

  it('sends no report on a click on Send the frame could not trust, asks for another, and sends on the next', async () => {
    const allowed: boolean[] = [true, false];
    guard = { allows: () => allowed.shift() ?? true };
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    const send = within(dialog).getByRole('button', { name: 'Send report' });
    await userEvent.click(send);
    await settled();
    expect(background.sent()).not.toContain('profile.report');
    expect(send.getAttribute('data-again')).toBe('Click again');
    await userEvent.click(send);
    expect(await within(dialog).findByRole('status')).toBeTruthy();
    expect(background.state.reports).toEqual([{ username: 'bob', reason: 'spam', comment: '' }]);
  });

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
});

describe('the choice of account, with several signed in on the site', () => {
  /** A session that shows `view` as it is when drawn. */
  const sessionAs = (account: string, view: ProfileSession['view']): ProfileSession =>
    ({ account, username: 'bob', view, load: async () => {} }) as unknown as ProfileSession;
  const accounts = [
    { id: 'first', label: '@alice' },
    { id: 'second', label: '@alice2' },
  ];
  const ready = {
    kind: 'ready',
    follow: { following: false, pending: null, problem: null },
    report: null,
    notice: '',
    mute: 'off',
    muting: null,
    muteProblem: null,
  } as const;

  it('keeps the choice, with its focus, while the other account’s view loads, then shows its buttons', async () => {
    document.body.innerHTML = '<div id="app"></div>';
    const mount = document.getElementById('app') as HTMLElement;
    const draw = profileButtons(mount, anyClick);
    const chosen: string[] = [];
    const onAccount = (account: string) => chosen.push(account);
    draw({ session: sessionAs('first', ready), accounts, onAccount });
    const choice = within(mount).getByRole('combobox', { name: 'as' }) as HTMLSelectElement;
    expect(choice.value).toBe('first');
    await userEvent.selectOptions(choice, '@alice2');
    expect(chosen).toEqual(['second']);
    expect(focused()).toBe(choice);
    draw({ session: sessionAs('second', { kind: 'loading' }), accounts, onAccount });
    expect(within(mount).getByRole('combobox', { name: 'as' })).toBe(choice);
    expect(focused()).toBe(choice);
    expect(within(mount).queryByRole('button')).toBeNull();
    expect(within(mount).getByRole('group').getAttribute('aria-busy')).toBe('true');
    draw({
      session: sessionAs('second', { ...ready, follow: { ...ready.follow, following: true } }),
      accounts,
      onAccount,
    });
    expect(focused()).toBe(choice);
    expect(choice.value).toBe('second');
    expect(within(mount).getByRole('button', { name: 'Unfollow' })).toBeTruthy();
    expect(within(mount).getByRole('group').hasAttribute('aria-busy')).toBe(false);
  });

  it('is not offered with one account, nor while signed out', () => {
    document.body.innerHTML = '<div id="app"></div>';
    const mount = document.getElementById('app') as HTMLElement;
    const draw = profileButtons(mount, anyClick);
    draw({ session: sessionAs('first', ready), accounts: accounts.slice(0, 1), onAccount: () => {} });
    expect(within(mount).queryByRole('combobox')).toBeNull();
    draw({ session: sessionAs('first', { kind: 'signedOut', expired: false }), accounts, onAccount: () => {} });
    expect(within(mount).queryByRole('combobox')).toBeNull();
    expect(within(mount).getByRole('button', { name: 'Open settings' })).toBeTruthy();
  });
});
