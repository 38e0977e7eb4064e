// @vitest-environment happy-dom
import { render, screen } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SearchBox } from '../../../components/popup/search-box';

const field = () => screen.queryByRole('searchbox', { name: 'Search notifications' });
const opener = () => screen.queryByRole('button', { name: 'Search notifications' });

function open(props: { query?: string; open?: boolean } = {}) {
  const onSearch = vi.fn();
  const user = userEvent.setup();
  const view = render(<SearchBox query={props.query ?? ''} open={props.open ?? false} onSearch={onSearch} />);
  return { onSearch, user, ...view };
}

describe('the search in the compact list', () => {
  it('is a button named as the field it opens, with its key; the field takes the words, and Esc empties then closes it', async () => {
    const { onSearch, user } = open();
    expect(field()).toBeNull();
    expect(opener()?.getAttribute('aria-keyshortcuts')).toBe('/');
    await user.click(opener() as HTMLElement);
    expect(document.activeElement).toBe(field());
    await user.keyboard('zoe');
    expect(onSearch).toHaveBeenLastCalledWith('zoe');
    await user.keyboard('{Escape}');
    expect(onSearch).toHaveBeenLastCalledWith('');
    expect(document.activeElement).toBe(field());
    await user.keyboard('{Escape}');
    expect(field()).toBeNull();
    expect(document.activeElement).toBe(opener());
  });

  it('opens with / from anywhere but a text field, a row’s box included, and keys typed in it are not the list’s', async () => {
    const { user } = open();
    const box = document.body.appendChild(document.createElement('input'));
    box.type = 'checkbox';
    box.focus();
    const list = vi.fn();
    addEventListener('keydown', list);
    await user.keyboard('/');
    expect(document.activeElement).toBe(field());
    await user.keyboard('j');
    expect(list.mock.calls.map(([event]) => event.key)).toEqual(['/']);
    removeEventListener('keydown', list);
    box.remove();
  });

  it('closes when left empty, and stays open while it holds a search', async () => {
    const { user, rerender, onSearch } = open();
    await user.click(opener() as HTMLElement);
    await user.click(document.body);
    expect(field()).toBeNull();
    rerender(<SearchBox query="café" open={false} onSearch={onSearch} />);
    expect((field() as HTMLInputElement).value).toBe('café');
  });

  it('is always open in the comfortable list', async () => {
    const { user } = open({ open: true });
    expect(field()).not.toBeNull();
    expect(opener()).toBeNull();
    await user.click(field() as HTMLElement);
    await user.keyboard('{Escape}');
    expect(field()).not.toBeNull();
  });
});
