/** The performance mark set when the popup's first notification row is on screen. */
export const FIRST_ROW_MARK = 'inbox-first-row';

/** The performance mark set when the popup answers input: its code has taken the screen over. */
export const INTERACTIVE_MARK = 'popup-interactive';
