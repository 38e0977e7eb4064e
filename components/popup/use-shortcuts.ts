import { useLayoutEffect, useRef } from 'preact/hooks';
import { commandTargets, type InboxState, type InboxStore } from '../../lib/popup/inbox-store';
import { shortcutFor } from '../../lib/popup/shortcuts';

interface Context {
  state: InboxState;
  /** A dialog is open or a problem hides the list: the shortcuts rest. */
  paused: boolean;
  focusActiveSoon(): void;
  /** Opens the snooze menu for these notifications. */
  snooze(ids: string[]): void;
  /** Opens the mute menu for the active notification; left out where the service has no mutes. */
  mute?(id: string): void;
}

const STEP = { next: 1, previous: -1, first: 'first', last: 'last' } as const;

/**
 * The popup's keyboard shortcuts, listened for on the whole page so they work from the moment it
 * opens. Commands act on the selection when there is one, else on the active item; `z` and
 * Ctrl+Z undo the action the toast offers.
 */
export function useShortcuts(store: InboxStore, context: Context): void {
  const latest = useRef(context);
  latest.current = context;

  // Listening from the render that takes the screen over, not a frame later.
  useLayoutEffect(() => {
    function onKeyDown(event: KeyboardEvent): void {
      const { state, paused, focusActiveSoon } = latest.current;
      const shortcut = shortcutFor(event);
      if (!shortcut || paused || event.defaultPrevented) return;
      // Undo works on an emptied list too: that is where "delete all" leaves it.
      if (shortcut.command === 'undo') {
        if (state.undo === null && state.muteOffer === null) return;
        void store.undo();
        event.preventDefault();
        return;
      }
      if (state.items.length === 0) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      const onPage = !target || target === document.body || target === document.documentElement;
      // Space and Enter keep their own meaning on buttons, links and checkboxes.
      const free = onPage || !!target?.matches('article.item');
      const active = state.activeId;
      switch (shortcut.command) {
        case 'next':
        case 'previous':
        case 'first':
        case 'last':
          store.move(STEP[shortcut.command], shortcut.modified);
          focusActiveSoon();
          break;
        case 'toggle':
          if ((event.key === ' ' && !free) || active === null) return;
          if (shortcut.modified) store.extendTo(active);
          else store.toggle(active);
          focusActiveSoon();
          break;
        case 'open':
          if ((event.key === 'Enter' && !free) || active === null) return;
          void store.open(active, { background: shortcut.modified });
          break;
        case 'markRead':
          void store.markRead(commandTargets(state));
          break;
        case 'markUnread':
          void store.markUnread(commandTargets(state));
          break;
        case 'delete':
          void store.delete(commandTargets(state));
          break;
        case 'snooze': {
          const ids = commandTargets(state);
          if (ids.length === 0) return;
          latest.current.snooze(ids);
          break;
        }
        case 'mute':
          if (active === null || !latest.current.mute) return;
          latest.current.mute(active);
          break;
        case 'selectAll':
          if (!free && !target?.closest('.feed')) return;
          store.selectAll(true);
          break;
        case 'clearSelection':
          if (state.selection.ids.size === 0) return;
          store.selectAll(false);
          break;
      }
      event.preventDefault();
    }
    addEventListener('keydown', onKeyDown);
    return () => removeEventListener('keydown', onKeyDown);
  }, [store]);
}
