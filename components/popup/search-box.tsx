import { useLayoutEffect, useRef } from 'preact/hooks';
import { t } from '../../lib/i18n';

interface Props {
  onSearch(text: string): void;
}

/** A text field, editable area or the like, where `/` is typed rather than a shortcut. */
const editable = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || !!target.closest('input, textarea, select'));

/**
 * The search box over the list: the list follows as the person types; `/` anywhere else in the
 * popup comes here, Esc empties it. Keys typed here are words, never the list's shortcuts.
 */
export function SearchBox({ onSearch }: Props) {
  const input = useRef<HTMLInputElement>(null);

  // Listening from the render that takes the screen over, not a frame later.
  useLayoutEffect(() => {
    function onKeyDown(event: KeyboardEvent): void {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || editable(event.target)) return;
      event.preventDefault();
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
    }
    event.stopPropagation();
  }

  return (
    <search class="search">
      <input
        ref={input}
        type="search"
        aria-label={t('popup_search')}
        placeholder={t('popup_search')}
        aria-keyshortcuts="/"
        autocomplete="off"
        spellcheck={false}
        maxLength={100}
        onInput={(event) => onSearch(event.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
    </search>
  );
}
