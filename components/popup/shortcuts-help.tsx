import { useEffect, useState } from 'preact/hooks';
import { openPopupShortcut } from '../../lib/browser-api';
import { type MessageKey, t } from '../../lib/i18n';

const rows: [string[], MessageKey][] = [
  [['↓', '↑', 'j', 'k'], 'popup_shortcut_move'],
  [['Shift + ↓', 'Shift + ↑'], 'popup_shortcut_extend'],
  [['x', 'Space'], 'popup_shortcut_select'],
  [['Ctrl + A'], 'popup_shortcut_select_all'],
  [['Esc'], 'popup_shortcut_clear'],
  [['Enter', 'o'], 'popup_shortcut_open'],
  [['e'], 'popup_shortcut_read'],
  [['u'], 'popup_shortcut_unread'],
  [['Delete', '#'], 'popup_shortcut_delete'],
  [['s'], 'popup_shortcut_snooze'],
  [['m'], 'popup_shortcut_mute'],
  [['/'], 'popup_shortcut_search'],
  [['z', 'Ctrl + Z'], 'popup_shortcut_undo'],
];

/** `Alt+Shift+I` as the browser names it, spaced as the other rows are. */
const spaced = (shortcut: string) => shortcut.split('+').join(' + ');

export function ShortcutsHelp() {
  // The browser's own shortcut that opens the popup, as the person may have changed it.
  const [openKeys, setOpenKeys] = useState('');
  useEffect(() => {
    void openPopupShortcut().then(setOpenKeys);
  }, []);
  const shown: [string[], MessageKey][] = openKeys ? [[[spaced(openKeys)], 'popup_shortcut_openPopup'], ...rows] : rows;
  return (
    <details class="shortcuts">
      <summary>{t('popup_shortcuts')}</summary>
      <dl>
        {shown.map(([keys, description]) => (
          <div key={description}>
            <dt>
              {keys.map((key) => (
                <kbd key={key}>{key}</kbd>
              ))}
            </dt>
            <dd>{t(description)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
