/**
 * The toolbar badge. Every state is one row of a table (text, colour, words for the tooltip),
 * and one `render` decides how the badge looks, so the states cannot drift apart.
 */
import { browser } from 'wxt/browser';
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

/** What the badge shows for a status: text, colour and a tooltip in words. */
export function badgeFor(
  status: ConnectionStatus,
  live: LiveMode = 'off',
): { text: string; color: string; title: string } {
  const lines = [t('extName')];
  let look: { text: string; color: string };
  if (status.kind === 'ok') {
    const count = status.count ?? 0;
    look = { text: countText(count), color: BLUE };
    lines.push(count === 0 ? t('badge_noUnread') : tn('badge_unread', count));
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

export async function renderBadge(status: ConnectionStatus, live: LiveMode = 'off'): Promise<void> {
  const { text, color, title } = badgeFor(status, live);
  await Promise.all([
    browser.action.setBadgeText({ text }),
    browser.action.setBadgeBackgroundColor({ color }),
    browser.action.setBadgeTextColor?.({ color: '#ffffff' }),
    browser.action.setTitle({ title }),
  ]);
}
