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
  [['z', 'Ctrl + Z'], 'popup_shortcut_undo'],
];

export function ShortcutsHelp() {
  return (
    <details class="shortcuts">
      <summary>{t('popup_shortcuts')}</summary>
      <dl>
        {rows.map(([keys, description]) => (
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
