import { describe, expect, it } from 'vitest';
import { BADGE_LOOKS, type BadgeRow, badgeAsTitle, badgeFor, badgeForAccounts, countText } from '../../lib/badge';
import type { ConnectionStatus, StatusKind } from '../../lib/messaging';

const status = (kind: StatusKind, count: number | null = null, checkedAt: number | null = null): ConnectionStatus => ({
  kind,
  count,
  checkedAt,
  nextCheckAt: null,
  detail: null,
});

describe('countText', () => {
  it.each([
    [0, ''],
    [1, '1'],
    [99, '99'],
    [100, '99+'],
    [12345, '99+'],
  ])('shows %i as %j', (count, text) => {
    expect(countText(count)).toBe(text);
  });
});

describe('badgeFor', () => {
  it('shows the unread count and says it in words with the time it was checked', () => {
    const badge = badgeFor(status('ok', 3, Date.parse('2026-11-21T09:41:00')));
    expect(badge.text).toBe('3');
    expect(badge.title).toContain('3 unread notifications');
    expect(badge.title).toMatch(/Checked at 9:41/);
  });

  it('is blank at zero and says there is nothing unread', () => {
    const badge = badgeFor(status('ok', 0, Date.now()));
    expect(badge.text).toBe('');
    expect(badge.title).toContain('No unread notifications');
  });

  it('uses the singular for one', () => {
    expect(badgeFor(status('ok', 1, Date.now())).title).toContain('1 unread notification\n');
  });

  it.each(Object.keys(BADGE_LOOKS) as Exclude<StatusKind, 'ok'>[])('has a look and words for %s', (kind) => {
    const badge = badgeFor(status(kind));
    expect(badge.text).toBe(BADGE_LOOKS[kind].text);
    expect(badge.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(badge.title.split('\n')[1]).not.toMatch(/^badge_/);
  });

  it('tells every problem state apart from the count states', () => {
    const looks = Object.entries(BADGE_LOOKS).filter(([kind]) => kind !== 'signedOut');
    for (const [, look] of looks) expect(look.text).not.toMatch(/^\d*$/);
  });

  it('keeps the last known count in the tooltip of a problem state', () => {
    const badge = badgeFor(status('unreachable', 7, Date.parse('2026-11-21T09:41:00')));
    expect(badge.title).toContain('cannot be reached');
    expect(badge.title).toContain('Last known: 7 unread');
    expect(badge.title).toMatch(/Checked at 9:41/);
  });
});

describe('the badge counting priority notifications only', () => {
  const row = (label: string, count: number, priority?: BadgeRow['priority']): BadgeRow => ({
    label,
    status: status('ok', count, null),
    live: 'off',
    priority,
  });

  it('shows the priority ones and says how many of the unread they are', () => {
    const badge = badgeFor(status('ok', 5, null), 'off', { count: 2, looked: 5, complete: true });
    expect(badge.text).toBe('2');
    expect(badge.title.split('\n')[1]).toBe('2 priority of 5 unread');
  });

  it('says when only the newest unread ones were looked at', () => {
    const badge = badgeFor(status('ok', 250, null), 'off', { count: 1, looked: 100, complete: false });
    expect(badge.text).toBe('1');
    expect(badge.title).toContain('1 priority in the newest 100 of 250 unread');
  });

  it('adds up the accounts’ priority ones, each account’s in its own line', () => {
    const badge = badgeForAccounts([
      row('@work', 5, { count: 2, looked: 5, complete: true }),
      row('@home', 3, { count: 0, looked: 3, complete: true }),
    ]);
    expect(badge.text).toBe('2');
    expect(badge.title.split('\n')).toEqual([
      'Inbox Companion',
      '2 priority of 8 unread',
      '@work: 2 priority of 5 unread',
      '@home: 0 priority of 3 unread',
    ]);
  });

  it('shows the unread sum until every account has counted its priority ones', () => {
    const badge = badgeForAccounts([row('@work', 5, { count: 2, looked: 5, complete: true }), row('@home', 3, null)]);
    expect(badge.text).toBe('8');
    expect(badge.title.split('\n').slice(1)).toEqual([
      '8 unread notifications',
      '@work: 2 priority of 5 unread',
      '@home: 3 unread notifications',
    ]);
  });
});

describe('badgeAsTitle', () => {
  const row = (label: string, kind: StatusKind, count: number | null = null) => ({
    label,
    status: status(kind, count, Date.now()),
    live: 'off' as const,
  });

  it('adds up the counts of the accounts that answer, as the badge does', () => {
    expect(badgeAsTitle([row('@demo', 'ok', 3), row('@work', 'unreachable', 7), row('@side', 'ok', 2)])).toBe(
      'Inbox Companion: 5 unread notifications',
    );
  });

  it('says the first troubled account’s state when none answers, passing over those signed out', () => {
    expect(badgeAsTitle([row('@demo', 'signedOut'), row('@work', 'offline', 7)])).toBe(
      'Inbox Companion: You are offline. Checking again when you are back online.',
    );
    expect(badgeAsTitle([])).toBe('Inbox Companion: Signed out. Open the settings to sign in.');
  });
});
