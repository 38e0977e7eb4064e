import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NetworkError, ServerError, TimeoutError, UnauthenticatedError } from '../../../lib/api/errors';
import { createProfileSession, type ProfileSession, type SessionView } from '../../../lib/profile/profile-state';
import { ACCOUNT } from '../../support/background';
import { type ProfileBackground, profileBackground } from './profile-background';

let background: ProfileBackground;
let stop: AbortController;

/** A session for the profile the tab shows. */
function session(username = 'bob'): ProfileSession {
  background.state.shows = username;
  return createProfileSession(username, background.ask, stop.signal, undefined, undefined, ACCOUNT);
}

async function loaded(username = 'bob'): Promise<ProfileSession> {
  const s = session(username);
  await s.load();
  return s;
}

function ready(s: ProfileSession): Extract<SessionView, { kind: 'ready' }> {
  if (s.view.kind !== 'ready') throw new Error(`expected ready, got ${s.view.kind}`);
  return s.view;
}

beforeEach(() => {
  background = profileBackground();
  stop = new AbortController();
});

describe('loading the profile', () => {
  it('starts the toggle from the authenticated profile', async () => {
    background.state.following.add('bob');
    expect(ready(await loaded()).follow).toEqual({ following: true, pending: null, problem: null });
    expect(ready(await loaded('alice')).follow.following).toBe(false);
    expect(background.sent()).toEqual(['profile.get', 'profile.get']);
  });

  it('knows the person’s own profile, to offer nothing there, and shows nothing for an unknown user', async () => {
    expect((await loaded('me')).view).toMatchObject({ kind: 'self', person: { username: 'me' } });
    expect((await loaded('nobody')).view).toEqual({ kind: 'none' });
  });

  it('says so when signed out, and when the service no longer accepts the sign-in', async () => {
    background.state.me = null;
    expect((await loaded()).view).toEqual({ kind: 'signedOut', expired: false });
    background.failNext('profile.get', new UnauthenticatedError({ status: 401, code: 'unauthenticated' }));
    expect((await loaded()).view).toEqual({ kind: 'signedOut', expired: true });
  });

  it('says why the profile could not be fetched and fetches it again on retry', async () => {
    background.failNext('profile.get', new NetworkError());
    const s = await loaded();
    expect(s.view).toEqual({
      kind: 'failed',
      problem: 'The service could not be reached. Check your connection and try again.',
      retrying: false,
    });
    const release = background.hold('profile.get');
    const retry = s.load();
    expect(s.view).toMatchObject({ kind: 'failed', retrying: true });
    release();
    await retry;
    expect(ready(s).follow.following).toBe(false);
  });

  it('shows the profile that came with the frame’s start without asking again, and asks on retry', async () => {
    const start = async (username: string) => {
      background.state.shows = username;
      const answer = await background.ask('profile.frame', { claim: await background.claim() });
      if (!answer) throw new Error(`@${username} is no profile`);
      return createProfileSession(
        answer.username,
        background.ask,
        stop.signal,
        undefined,
        answer.answer,
        answer.account,
      );
    };
    const bob = await start('bob');
    await bob.load();
    expect(ready(bob).follow.following).toBe(false);
    expect(background.sent()).toEqual(['profile.frame']);

    background.failNext('profile.get', new UnauthenticatedError({ status: 401, code: 'unauthenticated' }));
    const expired = await start('bob');
    await expired.load();
    expect(expired.view).toEqual({ kind: 'signedOut', expired: true });

    const ghost = await start('ghost');
    await ghost.load();
    expect(ghost.view).toEqual({ kind: 'none' });

    background.failNext('profile.get', new NetworkError());
    const failed = await start('alice');
    await failed.load();
    expect(failed.view).toMatchObject({ kind: 'failed', retrying: false });
    await failed.load();
    expect(ready(failed).follow.following).toBe(false);
    expect(background.sent()).toEqual([
      'profile.frame',
      'profile.frame',
      'profile.frame',
      'profile.frame',
      'profile.get',
    ]);
  });

  it('tells its listeners about every change and stops changing once aborted', async () => {
    const s = session();
    const seen: string[] = [];
    s.subscribe(() => seen.push(s.view.kind));
    const release = background.hold('profile.get');
    const load = s.load();
    stop.abort();
    release();
    await load;
    expect(s.view.kind).toBe('loading');
    expect(seen).toEqual([]);
  });
});

describe('the follow toggle', () => {
  it('follows with exactly one request, showing progress, then the new state', async () => {
    const s = await loaded();
    background.calls.length = 0;
    const release = background.hold('profile.follow');
    const toggle = s.toggleFollow();
    // What the buttons do loads with the first action: the progress shows as soon as it has.
    await vi.waitFor(() => expect(ready(s).follow).toEqual({ following: false, pending: 'follow', problem: null }));
    release();
    await toggle;
    expect(ready(s).follow).toEqual({ following: true, pending: null, problem: null });
    expect(ready(s).notice).toBe('You now follow @bob.');
    expect(background.calls).toEqual([{ type: 'profile.follow', data: { account: ACCOUNT, username: 'bob' } }]);
    expect(background.state.following.has('bob')).toBe(true);
  });

  it('unfollows with exactly one request', async () => {
    background.state.following.add('bob');
    const s = await loaded();
    background.calls.length = 0;
    await s.toggleFollow();
    expect(ready(s).follow.following).toBe(false);
    expect(ready(s).notice).toBe('You no longer follow @bob.');
    expect(background.calls).toEqual([{ type: 'profile.unfollow', data: { account: ACCOUNT, username: 'bob' } }]);
  });

  it('ignores clicks while a request is out', async () => {
    const s = await loaded();
    const release = background.hold('profile.follow');
    const first = s.toggleFollow();
    await s.toggleFollow();
    release();
    await first;
    expect(background.sent().filter((type) => type === 'profile.follow')).toHaveLength(1);
    expect(ready(s).follow.following).toBe(true);
  });

  it('adopts the true state without an error when the page was out of date', async () => {
    const s = await loaded();
    background.state.following.add('bob');
    await s.toggleFollow();
    expect(ready(s).follow).toEqual({ following: true, pending: null, problem: null });

    background.state.following.delete('bob');
    await s.toggleFollow();
    expect(ready(s).follow).toEqual({ following: false, pending: null, problem: null });
    expect(background.sent()).toEqual(['profile.get', 'profile.follow', 'profile.unfollow']);
  });

  it('restores the old state and says why on any other failure', async () => {
    const s = await loaded();
    background.failNext('profile.follow', new TimeoutError());
    await s.toggleFollow();
    expect(ready(s).follow).toEqual({
      following: false,
      pending: null,
      problem: 'The service did not answer in time. Try again.',
    });
    expect(ready(s).notice).toBe('');

    background.state.following.add('bob');
    const again = await loaded();
    background.failNext('profile.unfollow', new ServerError({ status: 503, code: 'service_unavailable' }));
    await again.toggleFollow();
    expect(ready(again).follow).toMatchObject({ following: true, problem: expect.stringContaining('problem') });
  });

  it('clears the last problem on the next click', async () => {
    const s = await loaded();
    background.failNext('profile.follow', new NetworkError());
    await s.toggleFollow();
    await s.toggleFollow();
    expect(ready(s).follow).toEqual({ following: true, pending: null, problem: null });
  });

  it('turns into the signed-out state when the service no longer accepts the sign-in', async () => {
    const s = await loaded();
    background.state.me = null;
    await s.toggleFollow();
    expect(s.view).toEqual({ kind: 'signedOut', expired: true });
  });
});

describe('the report form', () => {
  async function opened() {
    const s = await loaded();
    s.openReport();
    return s;
  }
  const form = (s: ProfileSession) => {
    const report = ready(s).report;
    if (!report) throw new Error('the report form is closed');
    return report;
  };

  it('opens empty and closes without sending anything', async () => {
    const s = await opened();
    expect(form(s)).toEqual({ reason: null, comment: '', sending: false, problem: null, received: false });
    s.closeReport();
    expect(ready(s).report).toBeNull();
    expect(background.sent()).toEqual(['profile.get']);
  });

  it('asks for a reason before sending', async () => {
    const s = await opened();
    await s.sendReport();
    expect(form(s).problem).toBe('Choose a reason for the report.');
    s.editReport({ reason: 'spam' });
    expect(form(s).problem).toBeNull();
    expect(background.sent()).toEqual(['profile.get']);
  });

  it('sends the reason and comment once and says the report was received', async () => {
    const s = await opened();
    s.editReport({ reason: 'harassment' });
    s.editReport({ comment: 'Keeps messaging me.' });
    const release = background.hold('profile.report');
    const send = s.sendReport();
    await vi.waitFor(() => expect(form(s).sending).toBe(true));
    await s.sendReport();
    release();
    await send;
    expect(form(s)).toMatchObject({ sending: false, received: true, problem: null });
    expect(background.state.reports).toEqual([
      { username: 'bob', reason: 'harassment', comment: 'Keeps messaging me.' },
    ]);
    expect(background.sent()).toEqual(['profile.get', 'profile.report']);
  });

  it('keeps the comment within the contract’s 2000 characters', async () => {
    const s = await opened();
    s.editReport({ comment: 'x'.repeat(2500) });
    expect(form(s).comment).toHaveLength(2000);
  });

  it('says when the person can report again after a rate limit, keeping the draft', async () => {
    background.state.reports.length = 10;
    background.state.retryAfter = 1500;
    const s = await opened();
    s.editReport({ reason: 'spam', comment: 'Ads everywhere.' });
    await s.sendReport();
    expect(form(s)).toMatchObject({ reason: 'spam', comment: 'Ads everywhere.', sending: false, received: false });
    expect(form(s).problem).toMatch(
      /^You have sent the most reports allowed for now\. You can report again in 25 minutes, at .+\.$/,
    );
  });

  it('keeps the draft when the sign-in has expired, so it can be sent after signing in again', async () => {
    const s = await opened();
    s.editReport({ reason: 'other', comment: 'See their posts.' });
    background.state.me = null;
    await s.sendReport();
    expect(form(s)).toMatchObject({
      reason: 'other',
      comment: 'See their posts.',
      problem: 'Your sign-in has expired. Sign in again in the settings.',
    });
    background.state.me = 'me';
    await s.sendReport();
    expect(form(s).received).toBe(true);
  });
});
