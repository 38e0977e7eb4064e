import type { NotificationType } from '../../lib/api/contract';

/**
 * The popup's icons, drawn in the text colour from the symbols `popup.html` holds. Part of the
 * document rather than images of their own: a mask or background per icon is an SVG document
 * the browser loads and draws apart from the page on every opening, about 10 ms of the popup's
 * time to interactive.
 */
export type IconName =
  | 'check'
  | 'check-all'
  | 'unread'
  | 'trash'
  | 'snooze'
  | 'more'
  | 'mute'
  | 'gear'
  | 'search'
  | NotificationType;

export function Icon({ name }: { name: IconName }) {
  return (
    <svg aria-hidden="true">
      <use href={`#icon-${name}`} />
    </svg>
  );
}

interface IconButtonProps {
  icon: IconName;
  /** The button removes something, and says so in its colour. */
  danger?: boolean;
  label: string;
  /** Where it is in the order of Tab, when not where the page puts it. */
  tabIndex?: number;
  /** The button opens a menu. */
  popup?: 'menu';
  onClick: (event: MouseEvent & { currentTarget: HTMLButtonElement }) => void;
}

/** A button drawn as an icon, named by its label for screen readers and as a tooltip. */
export function IconButton({ icon, danger, label, tabIndex, popup, onClick }: IconButtonProps) {
  return (
    <button
      type="button"
      class={danger ? 'icon danger' : 'icon'}
      tabIndex={tabIndex}
      aria-label={label}
      aria-haspopup={popup}
      title={label}
      onClick={onClick}
    >
      <Icon name={icon} />
    </button>
  );
}
