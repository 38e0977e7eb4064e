import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { FRESH_MS } from '../../../lib/background/handlers/known-mutes';
import { outboxItem } from '../../../lib/background/outbox';
import { readCachedFirstPage, writeCachedFirstPage } from '../../../lib/inbox-cache';
import { messaging } from '../../../lib/messaging';
import { ACCOUNT, signedIn } from '../../support/background';
import { BOB, BOBS_PROFILE, bobsFrameAnswer, bobsMuteShown, fakeMutesService } from '../../support/fake-mutes-service';
import { deliver, optionsSender, popupSender, profileFrameSender } from '../../support/messages';

/** A token of its own for each test: what the worker knows is kept per sign-in, for the whole worker. */
let signIns = 0;

const mutesRead = (state: { requests: string[] }) =>
  state.requests.filter((request) => request === 'GET /inbox/mutes').length;
const removalKeys = (state: { changes: { request: string; key: string }[] }) =>
  state.changes.filter((change) => change.request.startsWith('DELETE')).map((change) => change.key);

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
    const { state, mute } = fakeMutesService();
    const bobs = mute('bob');
    state.mutes = [mute('alice'), bobs];
    expect(await bobsMuteShown()).toEqual(bobs);
    state.mutes = [];
    // A second page within the minute is answered from what the worker knows.
    expect(await bobsMuteShown()).toEqual(bobs);
    expect(mutesRead(state)).toBe(1);
  });

  it('follows a mute made in the popup and one removed from its Muted view, without asking the service again', async () => {
    const { state } = fakeMutesService();
    expect(await bobsMuteShown()).toBeNull();
    const made = await deliver('inbox.mute', { account: ACCOUNT, target: { actor: 'bob' }, until: null }, popupSender);
    expect(await bobsMuteShown()).toEqual(made.value?.mute);
    await deliver('inbox.unmute', { account: ACCOUNT, id: made.value?.mute.id ?? '' }, optionsSender);
    expect(await bobsMuteShown()).toBeNull();
    expect(mutesRead(state)).toBe(1);
  });

  it('follows a mute made on the profile page itself', async () => {
    const { state } = fakeMutesService();
    expect(await bobsMuteShown()).toBeNull();
    const made = await deliver('profile.mute', { account: ACCOUNT, username: 'bob' }, profileFrameSender(BOB));
    expect(await bobsMuteShown()).toEqual(made.value);
    expect(mutesRead(state)).toBe(1);
  });

  it('sees a mute made elsewhere once what it knows is a minute old', async () => {
    const { state, mute } = fakeMutesService();
    expect(await bobsMuteShown()).toBeNull();
    state.mutes = [mute('bob')];
    vi.setSystemTime(Date.now() + FRESH_MS + 1);
    expect(await bobsMuteShown()).toEqual(state.mutes[0]);
    expect(mutesRead(state)).toBe(2);
  });

  it('shows a mute whose end has passed as over, without asking', async () => {
    const { state, mute } = fakeMutesService();
    state.mutes = [mute('bob', '2026-11-27T12:00:30.000Z')];
    expect(await bobsMuteShown()).toEqual(state.mutes[0]);
    vi.setSystemTime(Date.parse('2026-11-27T12:00:31Z'));
    expect(await bobsMuteShown()).toBeNull();
    expect(mutesRead(state)).toBe(1);
  });

  it('says nothing of mutes at a service without them, and shows the profile all the same', async () => {
    const { state } = fakeMutesService();
    state.hasMutes = false;
    const answer = await bobsFrameAnswer();
    expect(answer).toEqual({ ok: true, profile: BOBS_PROFILE });
  });

  it('asks nothing about mutes while signed out', async () => {
    const { state } = fakeMutesService();
    await deliver('accounts.signOut', { account: ACCOUNT }, optionsSender);
    state.requests = [];
    const answer = await bobsFrameAnswer();
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
    const { state, mute } = fakeMutesService();
    const theirs = mute('bob');
    state.mutes = [mute('alice'), theirs];
    expect(await bobsMuteShown()).toEqual(theirs);
    await writeCachedFirstPage(ACCOUNT, false, { data: [], cursor: null });
    expect(await readCachedFirstPage(ACCOUNT, false)).not.toBeNull();
    expect((await unmute()).value).toEqual({ waiting: false });
    expect(state.requests).toContain(`DELETE /inbox/mutes/${theirs.id}`);
    expect(removalKeys(state)).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(state.mutes.map((each) => each.actor)).toEqual(['alice']);
    // The popup's kept first page lacked them: it asks the service next time.
    expect(await readCachedFirstPage(ACCOUNT, false)).toBeNull();
    expect(await bobsMuteShown()).toBeNull();
    expect(mutesRead(state)).toBe(1);
  });

  it('asks nothing of the service for someone not muted, or whose mute was removed elsewhere meanwhile', async () => {
    const { state, mute } = fakeMutesService();
    expect(await bobsMuteShown()).toBeNull();
    expect((await unmute()).value).toEqual({ waiting: false });
    expect(state.requests.filter((request) => request.startsWith('DELETE'))).toEqual([]);
    vi.useFakeTimers({ toFake: ['Date'] });
    state.mutes = [mute('bob')];
    vi.setSystemTime(Date.now() + FRESH_MS + 1);
    expect(await bobsMuteShown()).toEqual(state.mutes[0]);
    state.mutes = [];
    expect((await unmute()).value).toEqual({ waiting: false });
    expect(await bobsMuteShown()).toBeNull();
    vi.useRealTimers();
  });

  it('keeps an Unmute the service cannot be reached for, and sends it with the same key when it can', async () => {
    const { state, mute } = fakeMutesService();
    const theirs = mute('bob');
    state.mutes = [theirs];
    expect(await bobsMuteShown()).toEqual(theirs);
    state.unreachable = true;
    expect((await unmute()).value).toEqual({ waiting: true });
    expect(await bobsMuteShown()).toBeNull();
    const [kept] = await outboxItem(ACCOUNT)
      .getValue()
      .then((value) => value.entries);
    expect(kept).toMatchObject({ kind: 'unmute', username: 'bob', mute: theirs.id });
    state.unreachable = false;
    await deliver('status.refresh', undefined, popupSender);
    await vi.waitFor(() => expect(state.mutes).toEqual([]));
    expect(removalKeys(state)).toEqual([kept?.key]);
    expect((await outboxItem(ACCOUNT).getValue()).entries).toEqual([]);
  });
});
