/** The popup's keyboard shortcuts: which key does what, apart from where focus is. */

export type Command =
  | 'next'
  | 'previous'
  | 'first'
  | 'last'
  | 'toggle'
  | 'open'
  | 'markRead'
  | 'markUnread'
  | 'delete'
  | 'snooze'
  | 'mute'
  | 'undo'
  | 'selectAll'
  | 'clearSelection';

export interface KeyInput {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

export interface Shortcut {
  command: Command;
  /** Shift held: moving also selects; Ctrl or Cmd held: opening keeps the popup in front. */
  modified: boolean;
}

const plain: Record<string, Command> = {
  ArrowDown: 'next',
  j: 'next',
  ArrowUp: 'previous',
  k: 'previous',
  Home: 'first',
  End: 'last',
  x: 'toggle',
  ' ': 'toggle',
  e: 'markRead',
  o: 'open',
  u: 'markUnread',
  z: 'undo',
  Delete: 'delete',
  '#': 'delete',
  s: 'snooze',
  m: 'mute',
  Escape: 'clearSelection',
};

export function shortcutFor(input: KeyInput): Shortcut | null {
  const command = input.ctrlKey || input.metaKey;
  if (input.altKey) return null;
  if (input.key === 'Enter') return { command: 'open', modified: command };
  if (command) {
    const key = input.key.toLowerCase();
    if (key === 'a') return { command: 'selectAll', modified: false };
    // Ctrl+Shift+Z is redo in most programs; there is nothing to redo here.
    return key === 'z' && !input.shiftKey ? { command: 'undo', modified: false } : null;
  }
  const key = input.key.length === 1 ? input.key.toLowerCase() : input.key;
  const found = plain[key];
  return found ? { command: found, modified: input.shiftKey } : null;
}
