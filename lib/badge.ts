/**
 * The toolbar badge. Every state is one row of a table (text, colour, words for the tooltip),
 * and one function decides how the badge looks, so the states cannot drift apart.
 */
import { SIGNED_OUT } from './connection-status';
import { type MessageKey, t, tn, uiLanguage } from './i18n';
import type { ConnectionStatus, LiveMode, StatusKind } from './messaging';

interface BadgeLook {
  text: string;
  color: string;
  /** Words for the tooltip, after the extension's name. */
  title: MessageKey;
}

const GREY = '#5f6368';
const AMBER = '#b06000';
const RED = '#c5221f';
const BLUE = '#1a73e8';

export const BADGE_LOOKS: Record<Exclude<StatusKind, 'ok'>, BadgeLook> = {
  signedOut: { text: '', color: GREY, title: 'badge_signedOut' },
  unauthorized: { text: '!', color: RED, title: 'badge_unauthorized' },
  unreachable: { text: '?', color: GREY, title: 'badge_unreachable' },
  offline: { text: 'off', color: GREY, title: 'badge_offline' },
  rateLimited: { text: '…', color: AMBER, title: 'badge_rateLimited' },
  notThisService: { text: '!', color: RED, title: 'badge_notThisService' },
  noPermission: { text: '!', color: AMBER, title: 'badge_noPermission' },
};

/** How a count on show came, in the tooltip under it; nothing while the live channel is off. */
export const LIVE_LOOKS: Record<LiveMode, MessageKey | null> = {
  live: 'badge_live',
  reconnecting: 'badge_liveReconnecting',
  unavailable: 'badge_liveUnavailable',
  off: null,
};

/** The badge text for an unread count: blank at 0, `99+` above 99. */
export function countText(count: number): string {
  if (count <= 0) return '';
  return count > 99 ? '99+' : String(count);
}

function clock(time: number): string {
  return new Intl.DateTimeFormat(uiLanguage(), { hour: 'numeric', minute: '2-digit' }).format(time);
}

/**
 * The priority notifications among an account's unread ones, when the badge counts only those:
 * counted in the newest `looked` of them, all of them when `complete`.
 */
export interface PriorityCount {
  count: number;
  looked: number;
  complete: boolean;
}

/** An unread count in words, or its priority part (see `PriorityCount`) when the badge shows that. */
function countWords(unread: number, priority?: PriorityCount | null): string {
  if (priority) {
    return priority.complete
      ? tn('badge_priority', priority.count, unread)
      : tn('badge_priorityNewest', priority.count, priority.looked, unread);
  }
  return unread === 0 ? t('badge_noUnread') : tn('badge_unread', unread);
}

/** What the badge shows for a status: text, colour and a tooltip in words. */
export function badgeFor(
  status: ConnectionStatus,
  live: LiveMode = 'off',
  priority?: PriorityCount | null,
): { text: string; color: string; title: string } {
  const lines = [t('extName')];
  let look: { text: string; color: string };
  if (status.kind === 'ok') {
    const count = status.count ?? 0;
    look = { text: countText(priority?.count ?? count), color: BLUE };
    lines.push(countWords(count, priority));
    const how = LIVE_LOOKS[live];
    if (how) lines.push(t(how));
  } else {
    look = BADGE_LOOKS[status.kind];
    lines.push(t(BADGE_LOOKS[status.kind].title));
    if (status.count !== null && status.kind !== 'signedOut') lines.push(tn('badge_lastKnown', status.count));
  }
  if (status.checkedAt !== null && status.kind !== 'signedOut')
    lines.push(t('badge_checkedAt', clock(status.checkedAt)));
  return { ...look, title: lines.join('\n') };
}

/** One account as the badge shows it: how it is named, its status, whether its count is live. */
export interface BadgeRow {
  label: string;
  status: ConnectionStatus;
  live: LiveMode;
  /** Set while the badge counts priority notifications only, once they are counted. */
  priority?: PriorityCount | null;
}

/** One account's line in the tooltip of several: its name, then its count or its state. */
function accountLine({ label, status, priority }: BadgeRow): string {
  if (status.kind === 'ok') return t('badge_account', label, countWords(status.count ?? 0, priority));
  const words = [t(BADGE_LOOKS[status.kind].title)];
  if (status.count !== null && status.kind !== 'signedOut') words.push(tn('badge_lastKnown', status.count));
  return t('badge_account', label, words.join(' '));
}

/**
 * What the badge shows for the accounts: with one, its status as `badgeFor` shows it; with
 * several, the sum of the unread counts of those that answer (or of their priority ones), and each
 * account's count or state in the tooltip, so one signed-out or failing account hides nothing of the others.
 */
export function badgeForAccounts(rows: readonly BadgeRow[]): { text: string; color: string; title: string } {
  const [only] = rows;
  if (rows.length <= 1) return badgeFor(only?.status ?? SIGNED_OUT, only?.live, only?.priority);
  const answering = rows.filter((row) => row.status.kind === 'ok');
  const first = rows.find((row) => row.status.kind !== 'signedOut') ?? rows[0];
  if (answering.length === 0 && first) {
    const look = BADGE_LOOKS[first.status.kind as Exclude<StatusKind, 'ok'>];
    return { text: look.text, color: look.color, title: [t('extName'), ...rows.map(accountLine)].join('\n') };
  }
  const sum = answering.reduce((total, row) => total + (row.status.count ?? 0), 0);
  // Priority ones, once every account that answers has counted its own.
  const counted = answering.flatMap((row) => (row.priority ? [row.priority] : []));
  const priority: PriorityCount | null =
    counted.length === answering.length
      ? {
          count: counted.reduce((total, each) => total + each.count, 0),
          looked: counted.reduce((total, each) => total + each.looked, 0),
          complete: counted.every((each) => each.complete),
        }
      : null;
  const lines = [t('extName'), countWords(sum, priority), ...rows.map(accountLine)];
  return { text: countText(priority?.count ?? sum), color: BLUE, title: lines.join('\n') };
}

/**
 * The title where the browser draws no badge: Firefox for Android lists the toolbar button as an
 * item of its menu, labelled with the title, on one line. It says there what the badge would: the
 * unread count of every account that answers, or, with none, the first one's state in words.
 */
export function badgeAsTitle(rows: readonly BadgeRow[]): string {
  const answering = rows.filter((row) => row.status.kind === 'ok');
  let words: string;
  if (answering.length > 0) {
    const sum = answering.reduce((total, row) => total + (row.status.count ?? 0), 0);
    words = sum === 0 ? t('badge_noUnread') : tn('badge_unread', sum);
  } else {
    const kind = (rows.find((row) => row.status.kind !== 'signedOut') ?? rows[0])?.status.kind ?? 'signedOut';
    words = t(BADGE_LOOKS[kind as Exclude<StatusKind, 'ok'>].title);
  }
  return t('badge_menuItem', t('extName'), words);
}
