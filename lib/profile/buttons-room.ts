/**
 * An unseen copy of the buttons as the frame first draws them on a profile, laid out with the
 * frame's own rules (`buttons-box.css`) in the content script's shadow root: its size is the
 * room the frame will take, known before the frame has loaded, so the page holds that room from
 * the start and nothing on it moves when the buttons come. It carries only the buttons' words,
 * the same on every profile, and is taken off once measured.
 */
import { type MessageKey, t } from '../i18n';

/** Every label the follow toggle can show: it is as wide as the widest, whichever it shows. */
export const FOLLOW_LABELS: MessageKey[] = [
  'profile_follow',
  'profile_unfollow',
  'profile_follow_pending',
  'profile_unfollow_pending',
];

/** Every label the mute button can show, for the same reason. */
export const MUTE_LABELS: MessageKey[] = ['profile_mute', 'profile_unmute'];

export function buttonsRoom(document: Document): HTMLElement {
  const make = (tag: string, className: string, ...children: (Node | string)[]) => {
    const element = document.createElement(tag);
    element.className = className;
    element.append(...children);
    return element;
  };
  const label = (keys: MessageKey[]) => make('span', 'label', ...keys.map((key) => make('span', '', t(key))));
  const bar = make(
    'fieldset',
    'bar',
    make('span', 'avatar'),
    make('button', 'button', label(FOLLOW_LABELS)),
    make('button', 'button', label(MUTE_LABELS)),
    make('button', 'button', t('profile_report')),
  );
  return make('div', 'buttons-box room', bar);
}
