// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { PriorityModel } from '../../../lib/priority/model';
import { ACCOUNT } from '../../support/background';
import { makeInbox } from './popup-background';
import { openPopup, resetPopupWorld, row, rowTexts, settle, waitForRows } from './popup-harness';

beforeEach(resetPopupWorld);

const text = (n: number) => `Notification number ${n}`;
const KEY = `priority:${ACCOUNT}`;
/** A count of three prompt opens, made a minute ago. */
const opens = (): [number, number] => [3, Date.now() - 60_000];
/** An inbox of `count` notifications that came in the last hours, one from each of user1…user`count`. */
const recentInbox = (count: number) =>
  makeInbox(count, (n) => ({ createdAt: new Date(Date.now() - (count - n + 1) * 60_000).toISOString() }));

async function storeModel(model: PriorityModel): Promise<void> {
  await fakeBrowser.storage.local.set({ [KEY]: model });
}

const storedModel = async () => ((await fakeBrowser.storage.local.get(KEY))[KEY] ?? null) as PriorityModel | null;

describe('the Priority view', () => {
  it('lists only the priority notifications, each saying why, without the whole inbox’s actions; Inbox lists all again', async () => {
    const { user } = await openPopup({ inbox: recentInbox(6) });
    await waitForRows(6);
    await storeModel({ people: { '@user2': { follow: true }, '@user5': { open: opens() } }, threads: {} });

    await user.click(screen.getByRole('tab', { name: 'Priority' }));
    await waitFor(() => expect(rowTexts()).toEqual([text(5), text(2)]));
    expect(within(row(text(5))).getByText('You often open @user5’s')).toBeTruthy();
    expect(within(row(text(2))).getByText('You follow @user2')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Priority' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('view-tab-priority');
    expect(screen.queryByRole('button', { name: 'Mark all read' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^All/ })).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'Inbox' }));
    await waitFor(() => expect(rowTexts()).toContain(text(1)));
    expect(screen.queryByText('You follow @user2')).toBeNull();
    expect(screen.getByRole('button', { name: 'Mark all read' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^All/ })).toBeTruthy();
  });

  it('tells the background what the person opens and triages, which learns from it', async () => {
    const { user } = await openPopup({ inbox: recentInbox(4) });
    await waitForRows(4);
    await user.click(within(row(text(4))).getByRole('link'));
    await waitFor(async () => expect((await storedModel())?.people['@user4']?.open?.[0]).toBeCloseTo(1, 3));
    // The read that opening makes is part of the open, not a signal of its own.
    expect((await storedModel())?.people['@user4']?.act).toBeUndefined();
    await user.click(within(row(text(3))).getByRole('button', { name: 'Delete' }));
    await waitFor(async () => expect((await storedModel())?.people['@user3']?.against?.[0]).toBeCloseTo(0.5, 3));
    expect((await storedModel())?.threads[`http://127.0.0.1:8787/@user4`]?.[0]).toBeCloseTo(1, 3);
  });

  it('looks through the newest hundred, says what makes a notification priority, and looks further when asked', async () => {
    const { user, background } = await openPopup({ inbox: recentInbox(130) });
    await waitForRows(25);
    await storeModel({ people: { '@user1': { follow: true } }, threads: {} });
    await user.click(screen.getByRole('tab', { name: 'Priority' }));
    await screen.findByRole('heading', { name: 'Nothing here is priority yet' });
    const pages = () => background.calls.filter((call) => call.type === 'inbox.fetch').length;
    const looked = pages();
    await user.click(screen.getByRole('button', { name: 'Look further' }));
    await waitFor(() => expect(rowTexts()).toEqual([text(1)]));
    expect(within(row(text(1))).getByText('You follow @user1')).toBeTruthy();
    await settle();
    expect(pages() - looked).toBe(2);
  });
});
