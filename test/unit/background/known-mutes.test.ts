import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { FRESH_MS } from '../../../lib/background/handlers/known-mutes';
import { outboxItem } from '../../../lib/background/outbox';
import { readCachedFirstPage, writeCachedFirstPage } from '../../../lib/inbox-cache';
import { messaging, type ProfileAnswer } from '../../../lib/messaging';
import { ACCOUNT, signedIn } from '../../support/background';
import { profileFixture } from '../../support/fixtures';
import {
  answerMessages,
  deliver,
  optionsSender,
  popupSender,
  profileFrameSender,
  profileTabSender,
} from '../../support/messages';
import { json, noContent, problem } from '../../support/recording-fetch';

/** A token of its own for each test: what the worker knows is kept per sign-in, for the whole worker. */
let signIns = 0;
const BOB = 'http://127.0.0.1:8787/@bob';
const profile = profileFixture({ followedBy: false });

interface Mute {
  id: string;
  actor: string | null;
  url: string | null;
  until: string | null;
  createdAt: string;
}

/** A service that keeps the contract's rules for mutes and answers bob's profile. */
function service() {
  const state = {
    hasMutes: true,
    mutes: [] as Mute[],
    requests: [] as string[],
    made: 0,
    /** The service cannot be reached for a removal. */
    unreachable: false,
    /** The idempotency key of each removal that reached the service. */
    keys: [] as string[],
  };
  const mute = (actor: string, until: string | null = null): Mute => {
    state.made += 1;
    const id = `0193a2b4-0000-7000-8000-${String(state.made).padStart(12, '0')}`;
    return { id, actor, url: null, until, createdAt: '2026-11-25T09:00:00.000Z' };
  };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname.replace('/api/', '/');
    state.requests.push(`${request.method} ${path}`);
    if (path === '/user/bob') return json(profile);
    if (path === '/inbox/count') return json({ count: 0 });
    if (!state.hasMutes) return problem(404, 'not_found');
    if (path === '/inbox/policy') return json({ strangers: 'accept' });
    if (path === '/inbox/mutes' && request.method === 'GET') return json({ data: state.mutes });
    if (path === '/inbox/mutes' && request.method === 'POST') {
      const { actor, until } = (await request.json()) as { actor: string; until: string | null };
      const made = mute(actor, until);
      state.mutes = [made, ...state.mutes.filter((each) => each.actor !== actor)];
      return json(made, { status: 201 });
    }
    if (path.startsWith('/inbox/mutes/') && request.method === 'DELETE') {
      if (state.unreachable) throw new TypeError('Failed to fetch');
      state.keys.push(request.headers.get('idempotency-key') ?? '');
      if (!state.mutes.some((each) => path.endsWith(each.id))) return problem(404, 'mute_not_found');
      state.mutes = state.mutes.filter((each) => !path.endsWith(each.id));
      return noContent();
    }
    return problem(404, 'not_found');
  };
  answerMessages(fetch as typeof globalThis.fetch);
  return { state, mute };
}

/** What bob's profile page's frame is given: the profile, with the account's mute of bob. */
async function frameAnswer(): Promise<ProfileAnswer | undefined> {
  const started = await deliver('profile.start', { url: BOB }, profileTabSender(BOB));
  const claim = started.value?.claim ?? '';
  return (await deliver('profile.frame', { claim }, profileFrameSender(BOB))).value?.answer;
}
const muteShown = async () => {
  const answer = await frameAnswer();
  return answer?.ok ? answer.profile.mute : 'failed';
};
const mutesRead = (state: { requests: string[] }) =>
  state.requests.filter((request) => request === 'GET /inbox/mutes').length;

describe('the mute a profile page’s buttons start with', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-11-27T12:00:00Z'));
    signIns += 1;
    await signedIn(`known-mutes-token-${signIns}`);
  });
  afterEach(() => vi.useRealTimers());

  it('is the service’s mute of the person, read once beside the profile, and none for someone not muted', async () => {
    const { state, mute } = service();
    const bobs = mute('bob');
    state.mutes = [mute('alice'), bobs];
    expect(await muteShown()).toEqual(bobs);
    state.mutes = [];
    // A second page within the minute is answered from what the worker knows.
    expect(await muteShown()).toEqual(bobs);
    expect(mutesRead(state)).toBe(1);
  });

  it('follows a mute made in the popup and one removed from its Muted view, without asking the service again', async () => {
    const { state } = service();
    expect(await muteShown()).toBeNull();
    const made = await deliver('inbox.mute', { account: ACCOUNT, target: { actor: 'bob' }, until: null }, popupSender);
    expect(await muteShown()).toEqual(made.value?.mute);
    await deliver('inbox.unmute', { account: ACCOUNT, id: made.value?.mute.id ?? '' }, optionsSender);
    expect(await muteShown()).toBeNull();
    expect(mutesRead(state)).toBe(1);
  });

  it('follows a mute made on the profile page itself', async () => {
    const { state } = service();
    expect(await muteShown()).toBeNull();
    const made = await deliver('profile.mute', { account: ACCOUNT, username: 'bob' }, profileFrameSender(BOB));
    expect(await muteShown()).toEqual(made.value);
    expect(mutesRead(state)).toBe(1);
  });

  it('sees a mute made elsewhere once what it knows is a minute old', async () => {
    const { state, mute } = service();
    expect(await muteShown()).toBeNull();
    state.mutes = [mute('bob')];
    vi.setSystemTime(Date.now() + FRESH_MS + 1);
    expect(await muteShown()).toEqual(state.mutes[0]);
    expect(mutesRead(state)).toBe(2);
  });

  it('shows a mute whose end has passed as over, without asking', async () => {
    const { state, mute } = service();
    state.mutes = [mute('bob', '2026-11-27T12:00:30.000Z')];
    expect(await muteShown()).toEqual(state.mutes[0]);
    vi.setSystemTime(Date.parse('2026-11-27T12:00:31Z'));
    expect(await muteShown()).toBeNull();
    expect(mutesRead(state)).toBe(1);
  });

  it('says nothing of mutes at a service without them, and shows the profile all the same', async () => {
    const { state } = service();
    state.hasMutes = false;
    const answer = await frameAnswer();
    expect(answer).toEqual({ ok: true, profile });
  });

  it('asks nothing about mutes while signed out', async () => {
    const { state } = service();
    await deliver('accounts.signOut', { account: ACCOUNT }, optionsSender);
    state.requests = [];
    const answer = await frameAnswer();
    expect(answer?.ok && answer.profile.mute).toBeUndefined();
    expect(state.requests.filter((request) => request.includes('/inbox/'))).toEqual([]);
  });
});

describe('Unmute on a profile page', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    signIns += 1;
    await signedIn(`known-mutes-token-${signIns}`);
  });

  const unmute = () => deliver('profile.unmute', { account: ACCOUNT, username: 'bob' }, profileFrameSender(BOB));

  it('removes the mute the worker knows of the person the tab shows, with a key, and brings back their notifications', async () => {
    const { state, mute } = service();
    const theirs = mute('bob');
    state.mutes = [mute('alice'), theirs];
    expect(await muteShown()).toEqual(theirs);
    await writeCachedFirstPage(ACCOUNT, false, { data: [], cursor: null });
    expect(await readCachedFirstPage(ACCOUNT, false)).not.toBeNull();
    expect((await unmute()).value).toEqual({ waiting: false });
    expect(state.requests).toContain(`DELETE /inbox/mutes/${theirs.id}`);
    expect(state.keys).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(state.mutes.map((each) => each.actor)).toEqual(['alice']);
    // The popup's kept first page lacked them: it asks the service next time.
    expect(await readCachedFirstPage(ACCOUNT, false)).toBeNull();
    expect(await muteShown()).toBeNull();
    expect(mutesRead(state)).toBe(1);
  });

  it('asks nothing of the service for someone not muted, or whose mute was removed elsewhere meanwhile', async () => {
    const { state, mute } = service();
    expect((await unmute()).value).toEqual({ waiting: false });
    expect(state.requests.filter((request) => request.startsWith('DELETE'))).toEqual([]);
    vi.useFakeTimers({ toFake: ['Date'] });
    state.mutes = [mute('bob')];
    vi.setSystemTime(Date.now() + FRESH_MS + 1);
    expect(await muteShown()).toEqual(state.mutes[0]);
    state.mutes = [];
    expect((await unmute()).value).toEqual({ waiting: false });
    expect(await muteShown()).toBeNull();
    vi.useRealTimers();
  });

  it('keeps an Unmute the service cannot be reached for, and sends it with the same key when it can', async () => {
    const { state, mute } = service();
    const theirs = mute('bob');
    state.mutes = [theirs];
    expect(await muteShown()).toEqual(theirs);
    state.unreachable = true;
    expect((await unmute()).value).toEqual({ waiting: true });
    expect(await muteShown()).toBeNull();
    const [kept] = await outboxItem(ACCOUNT)
      .getValue()
      .then((value) => value.entries);
    expect(kept).toMatchObject({ kind: 'unmute', username: 'bob', mute: theirs.id });
    state.unreachable = false;
    await deliver('status.refresh', undefined, popupSender);
    await vi.waitFor(() => expect(state.mutes).toEqual([]));
    expect(state.keys).toEqual([kept?.key]);
    expect((await outboxItem(ACCOUNT).getValue()).entries).toEqual([]);
  });
});
