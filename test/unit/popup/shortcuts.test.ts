import { describe, expect, it } from 'vitest';
import { type KeyInput, shortcutFor } from '../../../lib/popup/shortcuts';

const key = (k: string, mods: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

describe('shortcutFor', () => {
  it.each([
    ['j', 'next'],
    ['ArrowDown', 'next'],
    ['k', 'previous'],
    ['ArrowUp', 'previous'],
    ['Home', 'first'],
    ['End', 'last'],
    ['x', 'toggle'],
    [' ', 'toggle'],
    ['Enter', 'open'],
    ['e', 'markRead'],
    ['u', 'markUnread'],
    ['z', 'undo'],
    ['Delete', 'delete'],
    ['#', 'delete'],
    ['Escape', 'clearSelection'],
  ])('maps %j to %s', (k, command) => {
    expect(shortcutFor(key(k))).toEqual({ command, modified: false });
  });

  it('tells shift on moves and selection, and ctrl or cmd on open', () => {
    expect(shortcutFor(key('J', { shiftKey: true }))).toEqual({ command: 'next', modified: true });
    expect(shortcutFor(key('#', { shiftKey: true }))).toEqual({ command: 'delete', modified: true });
    expect(shortcutFor(key('Enter', { metaKey: true }))).toEqual({ command: 'open', modified: true });
    expect(shortcutFor(key('a', { ctrlKey: true }))).toEqual({ command: 'selectAll', modified: false });
    expect(shortcutFor(key('z', { ctrlKey: true }))).toEqual({ command: 'undo', modified: false });
    expect(shortcutFor(key('Z', { metaKey: true }))).toEqual({ command: 'undo', modified: false });
  });

  it('leaves Ctrl+Shift+Z, redo elsewhere, alone', () => {
    expect(shortcutFor(key('Z', { ctrlKey: true, shiftKey: true }))).toBeNull();
  });

  it('leaves the browser its own shortcuts', () => {
    expect(shortcutFor(key('j', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(key('e', { altKey: true }))).toBeNull();
    expect(shortcutFor(key('a'))).toBeNull();
    expect(shortcutFor(key('Tab'))).toBeNull();
  });
});
