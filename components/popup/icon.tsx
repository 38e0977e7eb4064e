/**
 * The popup's icons, drawn in the text colour from the symbols `popup.html` holds. Part of the
 * document rather than images of their own: a mask or background per icon is an SVG document
 * the browser loads and draws apart from the page on every opening, about 10 ms of the popup's
 * time to interactive.
 */
export type IconName = 'check' | 'unread' | 'trash' | 'snooze' | 'more' | 'mute' | 'gear';

export function Icon({ name }: { name: IconName }) {
  return (
    <svg aria-hidden="true">
      <use href={`#icon-${name}`} />
    </svg>
  );
}
