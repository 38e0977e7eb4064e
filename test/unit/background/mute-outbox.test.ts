import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { outboxItem } from '../../../lib/background/outbox';
import { messaging, type ProfileAnswer } from '../../../lib/messaging';
import { ACCOUNT, signedIn } from '../../support/background';
import { profileFixture } from '../../support/fixtures';
import { answerMessages, deliver, popupSender, profileFrameSender, profileTabSender } from '../../support/messages';
import { json, noContent, problem } from '../../support/recording-fetch';

/** A token of its own for each test: what the worker knows of mutes is kept per sign-in. */
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

/**
 * A service that keeps the contract's rules for mutes, answers bob's profile, and replays a
 * mute's answer for a key it has seen; it can be cut off for changes to mutes, or refuse them.
 */
function service() {
  const state = {
    mutes: [] as Mute[],
    /** Each change to mutes that reached the service: method, path and idempotency key. */
    changes: [] as { request: string; key: string }[],
    made: 0,
    unreachable: false,
    refusing: false,
    /** A mute's key is one the service has used already, and it does not say the mute again. */
    replaying: false,
  };
  const answered = new Map<string, Mute>();
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname.replace('/api/', '/');
    if (path === '/user/bob') return json(profile);
    if (path === '/inbox/count') return json({ count: 0 });
    if (path === '/inbox/policy') return json({ strangers: 'accept' });
    if (path === '/inbox/mutes' && request.method === 'GET') return json({ data: state.mutes });
    if (!path.startsWith('/inbox/mutes')) return problem(404, 'not_found');
    if (state.unreachable) throw new TypeError('Failed to fetch');
    const key = request.headers.get('idempotency-key') ?? '';
    state.changes.push({ request: `${request.method} ${path}`, key });
    if (state.refusing) return problem(422, 'invalid_parameter');
    if (state.replaying && request.method === 'POST') return problem(422, 'idempotency_key_reused');
    if (request.method === 'POST') {
      const seen = answered.get(key);
      if (seen) return json(seen, { status: 201 });
      const { actor, url = null, until = null } = (await request.json()) as Partial<Mute>;
      state.made += 1;
      const id = `0193a2b4-0000-7000-8000-${String(state.made).padStart(12, '0')}`;
      const made: Mute = { id, actor: actor ?? null, url, until, createdAt: '2026-11-27T12:00:00.000Z' };
      answered.set(key, made);
      state.mutes = [made, ...state.mutes.filter((each) => each.actor !== actor || each.url !== url)];
      return json(made, { status: 201 });
    }
    if (!state.mutes.some((each) => path.endsWith(each.id))) return problem(404, 'mute_not_found');
    state.mutes = state.mutes.filter((each) => !path.endsWith(each.id));
    return noContent();
  };
  answerMessages(fetch as typeof globalThis.fetch);
  return state;
}

async function frameAnswer(): Promise<ProfileAnswer | undefined> {
  const started = await deliver('profile.start', { url: BOB }, profileTabSender(BOB));
  const claim = started.value?.claim ?? '';
  return (await deliver('profile.frame', { claim }, profileFrameSender(BOB))).value?.answer;
}
/** The mute bob's profile page starts with, as a new page would be given it. */
const muteShown = async () => {
  const answer = await frameAnswer();
  return answer?.ok ? answer.profile.mute : 'failed';
};
const onPage = { account: ACCOUNT, username: 'bob' };
const pageSender = profileFrameSender(BOB);
const kept = async () => (await outboxItem(ACCOUNT).getValue()).entries;
const dropped = async () => (await outboxItem(ACCOUNT).getValue()).dropped;
/** The service can be reached again, and the worker's next check says so. */
async function back(state: { unreachable: boolean }) {
  state.unreachable = false;
  await deliver('status.refresh', undefined, popupSender);
  await vi.waitFor(async () => expect(await kept()).toEqual([]));
}

describe('mutes made while the service cannot be reached', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    signIns += 1;
    await signedIn(`mute-outbox-token-${signIns}`);
  });

  it('keeps an in-page Mute, shows the person muted meanwhile, and sends it once with its key when back', async () => {
    const state = service();
    expect(await muteShown()).toBeNull();
    state.unreachable = true;
    const made = (await deliver('profile.mute', onPage, pageSender)).value;
    expect(made).toMatchObject({ actor: 'bob', waiting: true });
    const [entry] = await kept();
    expect(entry).toMatchObject({ kind: 'mute', target: { actor: 'bob' }, username: 'bob' });
    // A page opened meanwhile starts muted.
    expect(await muteShown()).toMatchObject({ actor: 'bob' });

    await back(state);
    expect(state.changes).toEqual([{ request: 'POST /inbox/mutes', key: entry?.key }]);
    // The worker now knows the service's mute, whose id an Unmute removes.
    const [real] = state.mutes;
    expect(await muteShown()).toEqual(real);
    expect((await deliver('profile.unmute', onPage, pageSender)).value).toEqual({ waiting: false });
    expect(state.changes.at(-1)?.request).toBe(`DELETE /inbox/mutes/${real?.id}`);
    expect(state.mutes).toEqual([]);
  });

  it('sends an Unmute made while its Mute waits after it, removing the mute the service made', async () => {
    const state = service();
    state.unreachable = true;
    await deliver('profile.mute', onPage, pageSender);
    expect((await deliver('profile.unmute', onPage, pageSender)).value).toEqual({ waiting: true });
    const [mute, unmute] = await kept();
    expect(unmute).toMatchObject({ kind: 'unmute', mute: mute?.key });
    expect(await muteShown()).toBeNull();

    await back(state);
    expect(state.changes).toEqual([
      { request: 'POST /inbox/mutes', key: mute?.key },
      { request: 'DELETE /inbox/mutes/0193a2b4-0000-7000-8000-000000000001', key: unmute?.key },
    ]);
    expect(state.mutes).toEqual([]);
    expect(await muteShown()).toBeNull();
    expect(await dropped()).toEqual([]);
  });

  it('drops a mute the service refuses when it is sent, with a line for the popup, and the unmute behind it', async () => {
    const state = service();
    state.unreachable = true;
    await deliver('profile.mute', onPage, pageSender);
    await deliver('profile.unmute', onPage, pageSender);
    state.refusing = true;
    await back(state);
    expect(state.changes.map((change) => change.request)).toEqual(['POST /inbox/mutes']);
    expect(await dropped()).toEqual([expect.objectContaining({ kind: 'mute', why: 'refused', username: 'bob' })]);
    expect(await muteShown()).toBeNull();
  });

  it('finds the mute to remove when the service made it without saying its id', async () => {
    const state = service();
    state.unreachable = true;
    await deliver('profile.mute', onPage, pageSender);
    await deliver('profile.unmute', onPage, pageSender);
    const [mute] = await kept();
    // The first try reached the service after all, its answer lost: the mute is in force, and its key used.
    const made = {
      id: '0193a2b4-0000-7000-8000-00000000000b',
      actor: 'bob',
      url: null,
      until: null,
      createdAt: '2026-11-27T12:00:00.000Z',
    };
    state.mutes = [made];
    state.replaying = true;
    await back(state);
    expect(state.changes.map((change) => change.request)).toEqual([
      'POST /inbox/mutes',
      `DELETE /inbox/mutes/${made.id}`,
    ]);
    expect(state.changes[0]?.key).toBe(mute?.key);
    expect(state.mutes).toEqual([]);
    expect(await muteShown()).toBeNull();
    expect(await dropped()).toEqual([]);
  });

  it('refuses a mute of a person and a link at once, and sends nothing', async () => {
    const state = service();
    const both = { actor: 'bob', url: 'http://127.0.0.1:8787/posts/1' };
    for (const target of [both, { ...both, url: undefined }, { url: both.url, actor: undefined }]) {
      const { error } = await deliver('inbox.mute', { account: ACCOUNT, target, until: null }, popupSender);
      expect(error?.code, JSON.stringify(target)).toMatch(/^invalid_/);
    }
    expect(state.changes).toEqual([]);
    expect(await kept()).toEqual([]);
  });

  it('keeps the popup’s mute and its Undo, each with one key, in order', async () => {
    const state = service();
    state.unreachable = true;
    const request = { account: ACCOUNT, target: { actor: 'bob' }, until: null };
    const made = (await deliver('inbox.mute', request, popupSender)).value;
    expect(made).toMatchObject({ mute: { actor: 'bob' }, unreadCount: null, waiting: true });
    const undone = await deliver('inbox.unmute', { account: ACCOUNT, id: made?.mute.id ?? '' }, popupSender);
    expect(undone.value).toEqual({ unreadCount: null, waiting: true });
    const [mute, unmute] = await kept();
    expect(unmute).toMatchObject({ kind: 'removeMute', mute: mute?.key });

    await back(state);
    expect(state.changes.map((change) => change.key)).toEqual([mute?.key, unmute?.key]);
    expect(state.mutes).toEqual([]);
  });

  it('names the person in the line about a Remove from the Muted view that was not sent', async () => {
    const state = service();
    const request = { account: ACCOUNT, target: { actor: 'bob' }, until: null };
    const made = (await deliver('inbox.mute', request, popupSender)).value;
    state.unreachable = true;
    const id = made?.mute.id ?? '';
    await deliver('inbox.unmute', { account: ACCOUNT, id, username: 'bob' }, popupSender);
    expect(await kept()).toEqual([expect.objectContaining({ kind: 'unmute', username: 'bob', mute: id })]);

    // Refused when it is sent: the popup's line says whose mute it was ("Unmuting @bob was not sent").
    state.refusing = true;
    await back(state);
    expect(await dropped()).toEqual([expect.objectContaining({ kind: 'unmute', username: 'bob', why: 'refused' })]);
  });

  it('keeps a Remove from the Muted view, which lists the mute as gone meanwhile', async () => {
    const state = service();
    const made = (
      await deliver(
        'inbox.mute',
        { account: ACCOUNT, target: { url: 'http://127.0.0.1:8787/posts/1' }, until: null },
        popupSender,
      )
    ).value;
    expect(state.changes).toEqual([{ request: 'POST /inbox/mutes', key: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
    state.unreachable = true;
    const removed = await deliver('inbox.unmute', { account: ACCOUNT, id: made?.mute.id ?? '' }, popupSender);
    expect(removed.value).toEqual({ unreadCount: null, waiting: true });
    expect((await deliver('inbox.mutes', { account: ACCOUNT }, popupSender)).value).toEqual([]);
    const [unmute] = await kept();
    expect(unmute).toMatchObject({ kind: 'removeMute', mute: made?.mute.id });

    await back(state);
    expect(state.changes.at(-1)).toEqual({ request: `DELETE /inbox/mutes/${made?.mute.id}`, key: unmute?.key });
    expect(state.mutes).toEqual([]);
  });
});
