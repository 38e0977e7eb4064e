import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { outboxItem } from '../../../lib/background/outbox';
import { messaging } from '../../../lib/messaging';
import { ACCOUNT, signedIn } from '../../support/background';
import { BOB, bobsMuteShown, fakeMutesService } from '../../support/fake-mutes-service';
import { deliver, popupSender, profileFrameSender } from '../../support/messages';

/** A token of its own for each test: what the worker knows of mutes is kept per sign-in. */
let signIns = 0;

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
    const { state } = fakeMutesService();
    expect(await bobsMuteShown()).toBeNull();
    state.unreachable = true;
    const made = (await deliver('profile.mute', onPage, pageSender)).value;
    expect(made).toMatchObject({ actor: 'bob', waiting: true });
    const [entry] = await kept();
    expect(entry).toMatchObject({ kind: 'mute', target: { actor: 'bob' }, username: 'bob' });
    // A page opened meanwhile starts muted.
    expect(await bobsMuteShown()).toMatchObject({ actor: 'bob' });

    await back(state);
    expect(state.changes).toEqual([{ request: 'POST /inbox/mutes', key: entry?.key }]);
    // The worker now knows the service's mute, whose id an Unmute removes.
    const [real] = state.mutes;
    expect(await bobsMuteShown()).toEqual(real);
    expect((await deliver('profile.unmute', onPage, pageSender)).value).toEqual({ waiting: false });
    expect(state.changes.at(-1)?.request).toBe(`DELETE /inbox/mutes/${real?.id}`);
    expect(state.mutes).toEqual([]);
  });

  it('sends an Unmute made while its Mute waits after it, removing the mute the service made', async () => {
    const { state } = fakeMutesService();
    expect(await bobsMuteShown()).toBeNull();
    state.unreachable = true;
    await deliver('profile.mute', onPage, pageSender);
    expect((await deliver('profile.unmute', onPage, pageSender)).value).toEqual({ waiting: true });
    const [mute, unmute] = await kept();
    expect(unmute).toMatchObject({ kind: 'unmute', mute: mute?.key });
    expect(await bobsMuteShown()).toBeNull();

    await back(state);
    expect(state.changes).toEqual([
      { request: 'POST /inbox/mutes', key: mute?.key },
      { request: 'DELETE /inbox/mutes/0193a2b4-0000-7000-8000-000000000001', key: unmute?.key },
    ]);
    expect(state.mutes).toEqual([]);
    expect(await bobsMuteShown()).toBeNull();
    expect(await dropped()).toEqual([]);
  });

  it('drops a mute the service refuses when it is sent, with a line for the popup, and the unmute behind it', async () => {
    const { state } = fakeMutesService();
    expect(await bobsMuteShown()).toBeNull();
    state.unreachable = true;
    await deliver('profile.mute', onPage, pageSender);
    await deliver('profile.unmute', onPage, pageSender);
    state.refusing = true;
    await back(state);
    expect(state.changes.map((change) => change.request)).toEqual(['POST /inbox/mutes']);
    expect(await dropped()).toEqual([expect.objectContaining({ kind: 'mute', why: 'refused', username: 'bob' })]);
    expect(await bobsMuteShown()).toBeNull();
  });

  it('finds the mute to remove when the service made it without saying its id', async () => {
    const { state } = fakeMutesService();
    expect(await bobsMuteShown()).toBeNull();
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
    expect(await bobsMuteShown()).toBeNull();
    expect(await dropped()).toEqual([]);
  });

  it('refuses a mute of a person and a link at once, and sends nothing', async () => {
    const { state } = fakeMutesService();
    const both = { actor: 'bob', url: 'http://127.0.0.1:8787/posts/1' };
    for (const target of [both, { ...both, url: undefined }, { url: both.url, actor: undefined }]) {
      const { error } = await deliver('inbox.mute', { account: ACCOUNT, target, until: null }, popupSender);
      expect(error?.code, JSON.stringify(target)).toMatch(/^invalid_/);
    }
    expect(state.changes).toEqual([]);
    expect(await kept()).toEqual([]);
  });

  it('keeps the popup’s mute and its Undo, each with one key, in order', async () => {
    const { state } = fakeMutesService();
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
    const { state } = fakeMutesService();
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
    const { state } = fakeMutesService();
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
