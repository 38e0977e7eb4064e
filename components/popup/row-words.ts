/**
 * The words of a row in the feed, shared by the rows the framework draws and the first screen
 * painted before it loads, so both say the same.
 */
import type { NotificationType } from '../../lib/api/contract';
import { type MessageKey, t, tn, uiLanguage } from '../../lib/i18n';
import { groupActors, type NotificationGroup } from '../../lib/popup/inbox-groups';

export const typeLabel: Record<NotificationType, MessageKey> = {
  follow: 'popup_type_follow',
  mention: 'popup_type_mention',
  reply: 'popup_type_reply',
  like: 'popup_type_like',
  system: 'popup_type_system',
};

/** The type chips above the feed, in order: all, then each type. */
export const TYPE_CHIPS: [NotificationType | null, MessageKey][] = [
  [null, 'popup_chip_all'],
  ['mention', 'popup_chip_mention'],
  ['reply', 'popup_chip_reply'],
  ['follow', 'popup_chip_follow'],
  ['like', 'popup_chip_like'],
  ['system', 'popup_chip_system'],
];

/** "Alice, Bob and 3 others liked your post"; without names, the newest member's own text. */
export function groupTitle(group: NotificationGroup): string {
  const [newest] = group.members;
  const names = groupActors(group);
  if (!newest || names.length === 0) return newest?.text ?? '';
  const shown =
    names.length <= 2
      ? new Intl.ListFormat(uiLanguage(), { type: 'conjunction' }).format(names)
      : tn('popup_group_others', names.length - 2, names.slice(0, 2).join(', '));
  return t(`popup_group_${newest.type}`, shown);
}
