import { useRef, useState } from 'preact/hooks';
import { type MessageKey, t } from '../../lib/i18n';
import type { MuteTarget } from '../../lib/mute-target';
import { useMenuKeys, useMenuPlacement } from './menu-placement';

const HOUR = 3_600_000;
const LENGTHS: [MessageKey, number | null][] = [
  ['popup_mute_hour', HOUR],
  ['popup_mute_day', 24 * HOUR],
  ['popup_mute_week', 7 * 24 * HOUR],
  ['popup_mute_forever', null],
];

interface Props {
  /** What opened the menu: it sits beside it. */
  anchor: HTMLElement | null;
  /** The row's actor, when it has one. */
  actor: string | null;
  /** The row's link, when it has one: the thread. */
  url: string | null;
  /** `until` in ms since the epoch, or null until the mute is removed. */
  onChoose(target: MuteTarget, until: number | null): void;
  onClose(): void;
}

/**
 * The mute menu: the person or the thread, then for how long. A menu as the ARIA pattern has it:
 * arrow keys, Home and End move, Enter chooses, Escape and Tab close; a click outside closes.
 */
export function MuteMenu({ anchor, actor, url, onChoose, onClose }: Props) {
  const [target, setTarget] = useState<MuteTarget | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  useMenuPlacement(panel, anchor, target);
  const onKeyDown = useMenuKeys(menu, onClose, target);

  const item = (key: string, words: string, onClick: () => void) => (
    <button type="button" role="menuitem" tabIndex={-1} key={key} onClick={onClick}>
      <span>{words}</span>
    </button>
  );

  return (
    <>
      <div class="snooze-backdrop" onClick={onClose} aria-hidden="true" />
      <div class="snooze-panel" ref={panel}>
        <div
          role="menu"
          ref={menu}
          class="snooze-menu"
          aria-label={target ? t('popup_mute_for') : t('popup_mute_menu')}
          onKeyDown={onKeyDown}
        >
          {target
            ? [
                ...LENGTHS.map(([words, length]) =>
                  item(words, t(words), () => onChoose(target, length === null ? null : Date.now() + length)),
                ),
                item('back', t('popup_mute_back'), () => setTarget(null)),
              ]
            : [
                actor && item('actor', t('popup_mute_actor', actor), () => setTarget({ actor })),
                url && item('thread', t('popup_mute_thread'), () => setTarget({ url })),
              ]}
        </div>
      </div>
    </>
  );
}
