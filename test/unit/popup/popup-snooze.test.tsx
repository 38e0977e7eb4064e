// @vitest-environment happy-dom
import { act, screen, waitFor, within } from '@testing-library/preact';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BadRequestError, NetworkError } from '../../../lib/api/errors';
import { failureReason } from '../../../lib/popup/inbox-problem';
import { localInputValue, snoozeChoices } from '../../../lib/snooze-times';
import { currentTimeZone, wakeLabel } from '../../../lib/wake-label';
import { ACCOUNT } from '../../support/background';
import { makeInbox, makeNotification } from './popup-background';
import { announced, openPopup, resetPopupWorld, row, rowTexts, settle, toast, waitForRows } from './popup-harness';

beforeEach(() => {
  resetPopupWorld();
  // A Tuesday morning, so every preset is on offer; only the clock is fixed, timers run as ever.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-24T10:00:00.000Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

const text = (n: number) => `Notification number ${n}`;
const checkbox = (n: number) => screen.getByRole('checkbox', { name: `Select: ${text(n)}` });
const snoozeButton = (n: number) => within(row(text(n))).getByRole('button', { name: 'Snooze' });
const menu = () => screen.findByRole('menu', { name: 'Snooze until' });
const menuItems = async () => within(await menu()).getAllByRole('menuitem');
const item = async (words: string) =>
  (await menuItems()).find((candidate) => candidate.textContent?.startsWith(words)) as HTMLElement;
const failure = () =>
  screen
    .getAllByRole('alert')
    .map((element) => element.textContent)
    .join(' ');
/** When a preset ends now, as the menu computes it. */
const presetUntil = (preset: string) => snoozeChoices(Date.now(), currentTimeZone()).find((c) => c.preset === preset);
const label = (until: number) => wakeLabel(until, Date.now(), currentTimeZone(), 'en-US');

describe('snoozing from a row', () => {
  it('offers the presets with their times, takes the row out of the list and the count, and undoes', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(10) });
    await waitForRows(10);
    expect(screen.getByText('7 unread')).toBeTruthy();

    await user.click(snoozeButton(10));
    const choices = await menuItems();
    const tomorrow = presetUntil('tomorrowMorning')?.until ?? 0;
    expect(choices.map((choice) => choice.textContent)).toContain(`Tomorrow morning${label(tomorrow)}`);
    expect(choices.at(-1)?.textContent).toBe('Pick a date and time…');
    expect(document.activeElement).toBe(choices[0]);

    await user.click(await item('Tomorrow morning'));
    await waitFor(() => expect(toast()).toBe(`Snoozed 1 notification until ${label(tomorrow)}.`));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(rowTexts()).not.toContain(text(10));
    expect(screen.getByText('6 unread')).toBeTruthy();
    expect(background.snoozed.map((each) => [each.text, each.snoozedUntil])).toEqual([
      [text(10), new Date(tomorrow).toISOString()],
    ]);
    expect(background.inbox.map((each) => each.text)).not.toContain(text(10));
    // The badge follows the service's count, which no longer holds the snoozed one.
    expect((await background.check()).count).toBe(6);

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(rowTexts()[0]).toBe(text(10)));
    expect(background.snoozed).toEqual([]);
    expect(background.inbox.map((each) => each.text)).toContain(text(10));
    await waitFor(() => expect(screen.getByText('7 unread')).toBeTruthy());
  });

  it('closes the menu with Escape and gives focus back to the row, having sent nothing', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(5) });
    await waitForRows(5);
    await user.click(snoozeButton(4));
    await menu();
    await user.keyboard('{ArrowDown}{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(snoozeButton(4));
    expect(rowTexts()).toHaveLength(5);
    expect(background.callsOf('inbox.snooze')).toEqual([]);
  });

  it('puts the row back and says why when the service refuses the time', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(5) });
    await waitForRows(5);
    background.failNext('inbox.snooze', new BadRequestError({ status: 400, code: 'invalid_until', detail: 'x' }));
    await user.click(snoozeButton(5));
    await user.click(await item('Next week'));
    await waitFor(() =>
      expect(failure()).toContain(
        'Could not snooze. The service takes a time from a minute to a year from now; pick another. Nothing was snoozed.',
      ),
    );
    expect(rowTexts()).toContain(text(5));
    expect(background.snoozed).toEqual([]);
  });

  it('snoozes until a picked date and time, read in the person’s time zone, and refuses one too soon', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(5) });
    await waitForRows(5);
    await user.click(snoozeButton(5));
    await user.click(await item('Pick a date and time'));
    const input = await screen.findByLabelText('Date and time');
    expect(document.activeElement).toBe(input);

    const zone = currentTimeZone();
    await user.clear(input);
    await user.type(input, localInputValue(Date.now() - 3_600_000, zone));
    const picker = screen.getByRole('dialog', { name: 'Snooze until a date and time' });
    await user.click(within(picker).getByRole('button', { name: 'Snooze' }));
    expect(failure()).toContain('Pick a time at least a minute from now.');
    expect(background.callsOf('inbox.snooze')).toEqual([]);

    const wanted = Math.floor((Date.now() + 3 * 86_400_000) / 60_000) * 60_000;
    await user.clear(input);
    await user.type(input, localInputValue(wanted, zone));
    await user.click(within(picker).getByRole('button', { name: 'Snooze' }));
    await waitFor(() =>
      expect(background.snoozed.map((each) => each.snoozedUntil)).toEqual([new Date(wanted).toISOString()]),
    );
    expect(rowTexts()).not.toContain(text(5));
  });
});

describe('snoozing the selection', () => {
  it('opens the menu with s, moves with the arrow keys (round from either end), snoozes every selected row with Enter, and undoes with z', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(10) });
    await waitForRows(10);
    await user.click(checkbox(9));
    await user.click(checkbox(7));
    await user.keyboard('s');
    await menu();
    const items = [...document.querySelectorAll('[role="menuitem"]')];
    expect(document.activeElement).toBe(items[0]);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(items[1]);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(document.activeElement?.textContent).toBe('Pick a date and time…');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(items[0]);
    await user.keyboard('{End}{ArrowUp}');
    expect(document.activeElement?.textContent).toMatch(/^Next week/);
    const nextWeek = presetUntil('nextWeek')?.until ?? 0;
    await user.keyboard('{Enter}');

    await waitFor(() => expect(toast()).toBe(`Snoozed 2 notifications until ${label(nextWeek)}.`));
    expect(rowTexts()).not.toContain(text(9));
    expect(rowTexts()).not.toContain(text(7));
    expect(background.callsOf('inbox.snooze')).toEqual([
      {
        account: ACCOUNT,
        ids: [makeNotification(9).id, makeNotification(7).id],
        until: new Date(nextWeek).toISOString(),
        unread: 1,
      },
    ]);
    expect(document.activeElement?.matches('article.item')).toBe(true);

    await user.keyboard('z');
    await waitFor(() => expect(rowTexts()).toContain(text(9)));
    expect(rowTexts()).toContain(text(7));
    expect(background.snoozed).toEqual([]);
  });

  it('rolls back and says why when the background cannot reach the service', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(6) });
    await waitForRows(6);
    await user.click(checkbox(6));
    await user.click(checkbox(5));
    background.failNext('inbox.snooze', new NetworkError());
    await user.click(screen.getByRole('button', { name: 'Snooze selected' }));
    await user.click(await item('Tomorrow morning'));
    await waitFor(() => expect(failure()).toContain('Could not snooze.'));
    expect(rowTexts()).toEqual(makeInbox(6).map((each) => each.text));
    expect((checkbox(6) as HTMLInputElement).checked).toBe(true);
  });
});

describe('the Snoozed view', () => {
  const inAnHour = (n: number) => new Date(Date.now() + (60 + n) * 60_000).toISOString();

  it('lists snoozed notifications by wake time, and Unsnooze brings one back to the top of the inbox', async () => {
    const inbox = [
      ...makeInbox(4),
      makeNotification(50, { snoozedUntil: inAnHour(2), read: true }),
      makeNotification(51, { snoozedUntil: inAnHour(1) }),
    ];
    const { background, user } = await openPopup({ inbox });
    await waitForRows(4);
    expect(screen.getByText('3 unread')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Snoozed' }));
    const list = await screen.findByRole('list', { name: 'Snoozed notifications' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((each) => each.querySelector('.text')?.textContent)).toEqual([text(51), text(50)]);
    expect(rows[0]?.textContent).toContain(`until ${label(Date.parse(inAnHour(1)))}`);

    await user.click(within(rows[1] as HTMLElement).getByRole('button', { name: 'Unsnooze' }));
    await waitFor(() => expect(announced()).toBe('1 notification is back in your inbox.'));
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(background.snoozed.map((each) => each.text)).toEqual([text(51)]);

    await user.click(screen.getByRole('tab', { name: 'Inbox' }));
    await waitFor(() => expect(rowTexts()[0]).toBe(text(50)));
    expect(row(text(50)).classList.contains('unread')).toBe(true);
    await waitFor(() => expect(screen.getByText('4 unread')).toBeTruthy());
  });

  it('brings back what this popup snoozed a moment ago, at the top of the inbox', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(6) });
    await waitForRows(6);
    await user.click(snoozeButton(3));
    await user.click(await item('Tomorrow morning'));
    await waitFor(() => expect(rowTexts()).not.toContain(text(3)));

    await user.click(screen.getByRole('tab', { name: 'Snoozed' }));
    const list = await screen.findByRole('list', { name: 'Snoozed notifications' });
    await user.click(within(list).getByRole('button', { name: 'Unsnooze' }));
    await screen.findByText('Nothing snoozed');
    await waitFor(() => expect(announced()).toBe('1 notification is back in your inbox.'));
    expect(background.inbox[0]?.text).toBe(text(3));

    await user.click(screen.getByRole('tab', { name: 'Inbox' }));
    await waitFor(() => expect(rowTexts()[0]).toBe(text(3)));
    expect(row(text(3)).classList.contains('unread')).toBe(true);
  });

  it('unsnoozes the selected ones, and keeps them when the service cannot be reached', async () => {
    const inbox = [1, 2, 3].map((n) => makeNotification(60 + n, { snoozedUntil: inAnHour(n) }));
    const { background, user } = await openPopup({ inbox });
    await user.click(await screen.findByRole('tab', { name: 'Snoozed' }));
    await screen.findByRole('list', { name: 'Snoozed notifications' });
    await user.click(checkbox(61));
    await user.click(checkbox(63));

    background.failNext('inbox.unsnooze', new NetworkError());
    await user.click(screen.getByRole('button', { name: 'Unsnooze selected' }));
    await waitFor(() => expect(failure()).toContain('Could not unsnooze.'));
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect((checkbox(61) as HTMLInputElement).checked).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Unsnooze selected' }));
    await waitFor(() => expect(announced()).toBe('2 notifications are back in your inbox.'));
    expect(screen.getAllByRole('listitem').map((each) => each.querySelector('.text')?.textContent)).toEqual([text(62)]);
    expect(background.inbox.map((each) => each.text).sort()).toEqual([text(61), text(63)]);
  });

  it('says why the snoozed notifications could not be loaded, in words loaded with the failure', async () => {
    const { background, user } = await openPopup({ inbox: makeInbox(3) });
    await waitForRows(3);
    background.failNext('inbox.fetchSnoozed', new NetworkError());
    await user.click(screen.getByRole('tab', { name: 'Snoozed' }));
    const reason = failureReason(new NetworkError(), true);
    expect(reason).not.toBe('');
    expect(await screen.findByText(`Could not load your snoozed notifications. ${reason}`)).toBeTruthy();
  });

  it('pages through many snoozed notifications, and says when none are snoozed', async () => {
    const inbox = Array.from({ length: 30 }, (_, i) => makeNotification(100 + i, { snoozedUntil: inAnHour(i) }));
    const { user } = await openPopup({ inbox });
    await user.click(await screen.findByRole('tab', { name: 'Snoozed' }));
    const list = await screen.findByRole('list', { name: 'Snoozed notifications' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(25);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(30));
    expect(screen.getByText("That's everything.")).toBeTruthy();

    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await user.click(screen.getByRole('button', { name: 'Unsnooze selected' }));
    await waitFor(() => expect(screen.getByText('Nothing snoozed')).toBeTruthy());
    await act(settle);
  });
});

describe('accessibility', () => {
  /** What axe finds wrong in the popup now; colour contrast needs layout, which happy-dom does not do. */
  const problems = async () =>
    (await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } })).violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`,
    );

  it('has no violations with the menu open, the picker open, and the Snoozed view on show', async () => {
    const inbox = [
      ...makeInbox(3),
      makeNotification(40, { snoozedUntil: new Date(Date.now() + 7_200_000).toISOString() }),
    ];
    const { user } = await openPopup({ inbox });
    await waitForRows(3);
    await user.click(snoozeButton(3));
    await menu();
    expect(await problems()).toEqual([]);
    await user.click(await item('Pick a date and time'));
    await screen.findByLabelText('Date and time');
    expect(await problems()).toEqual([]);
    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(snoozeButton(3));

    await user.click(screen.getByRole('tab', { name: 'Snoozed' }));
    await screen.findByRole('list', { name: 'Snoozed notifications' });
    expect(await problems()).toEqual([]);
  }, 30_000);
});
