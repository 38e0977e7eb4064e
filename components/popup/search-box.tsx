import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import { Icon } from './icon';

interface Props {
  /** The search on show. */
  query: string;
  /** The field stays open, as the comfortable list has it; else it opens from its button or `/`. */
  open: boolean;
  onSearch(text: string): void;
}

/** A text field, editable area or the like, where `/` is typed rather than a shortcut; a row's box is none. */
const editable = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || !!target.closest('textarea, select, input:not([type="checkbox"])'));

/**
 * The search over the list: a button that opens the field, or the field itself while it is open
 * or holds a search. The list follows as the person types; `/` anywhere else in the popup comes
 * here, Esc empties the field, and Esc in an empty one closes it. Keys typed here are words,
 * never the list's shortcuts.
 */
export function SearchBox({ query, open, onSearch }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  /** Opened by the person (true), closed by them with Esc (false), or neither yet (null). */
  const [opened, setOpened] = useState<boolean | null>(null);
  const shown = open || !!opened || query !== '';

  // Focus follows the field as the person opens or closes it, and stays put on the first render.
  useLayoutEffect(() => {
    if (opened !== null) (opened ? input : opener).current?.focus();
  }, [opened]);

  // Listening from the render that takes the screen over, not a frame later.
  useLayoutEffect(() => {
    function onKeyDown(event: KeyboardEvent): void {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || editable(event.target)) return;
      event.preventDefault();
      setOpened(true);
      input.current?.focus();
    }
    addEventListener('keydown', onKeyDown);
    return () => removeEventListener('keydown', onKeyDown);
  }, []);

  function onKeyDown(event: KeyboardEvent): void {
    if (event.key === 'Escape' && input.current?.value) {
      input.current.value = '';
      onSearch('');
      event.preventDefault();
    } else if (event.key === 'Escape' && !open) {
      setOpened(false);
      event.preventDefault();
    }
    event.stopPropagation();
  }

  const label = t('popup_search');
  return (
    <search class="search">
      {shown ? (
        <>
          <Icon name="search" />
          <input
            ref={input}
            type="search"
            aria-label={label}
            placeholder={label}
            aria-keyshortcuts="/"
            autocomplete="off"
            spellcheck={false}
            maxLength={100}
            defaultValue={query}
            onInput={(event) => onSearch(event.currentTarget.value)}
            onKeyDown={onKeyDown}
            // Left empty, the field gives its room back to the tabs.
            onBlur={(event) => !event.currentTarget.value && opened && setOpened(null)}
          />
        </>
      ) : (
        <button
          ref={opener}
          type="button"
          class="icon"
          aria-label={label}
          aria-keyshortcuts="/"
          title={`${label} (/)`}
          onClick={() => setOpened(true)}
        >
          <Icon name="search" />
        </button>
      )}
    </search>
  );
}
