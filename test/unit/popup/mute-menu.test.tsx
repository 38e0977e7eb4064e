// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MuteMenu } from '../../../components/popup/mute-menu';

const NOW = Date.parse('2026-11-24T10:00:00.000Z');
const DAY = 24 * 3_600_000;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function openMenu(actor: string | null = 'alice', url: string | null = 'https://example.test/threads/7') {
  const onChoose = vi.fn();
  const onClose = vi.fn();
  render(<MuteMenu anchor={null} actor={actor} url={url} onChoose={onChoose} onClose={onClose} />);
  return { onChoose, onClose, user: userEvent.setup() };
}

const focused = () => document.activeElement?.textContent;
const items = (name: string) => within(screen.getByRole('menu', { name })).getAllByRole('menuitem');

describe('the mute menu', () => {
  it('offers the person and the thread, moves with the arrow keys round from either end, and asks for how long', async () => {
    const { onChoose, user } = openMenu();
    expect(items('Mute').map((item) => item.textContent)).toEqual(['Mute @alice', 'Mute this thread']);
    expect(focused()).toBe('Mute @alice');
    await user.keyboard('{ArrowDown}');
    expect(focused()).toBe('Mute this thread');
    await user.keyboard('{ArrowDown}');
    expect(focused()).toBe('Mute @alice');
    await user.keyboard('{ArrowUp}');
    expect(focused()).toBe('Mute this thread');
    await user.keyboard('{Home}{Enter}');

    // The second step takes focus at its first item too.
    expect(items('How long').map((item) => item.textContent)).toEqual([
      'For 1 hour',
      'For 1 day',
      'For 1 week',
      'Until I undo it',
      'Back',
    ]);
    expect(focused()).toBe('For 1 hour');
    await user.keyboard('{End}');
    expect(focused()).toBe('Back');
    await user.keyboard('{Enter}');
    expect(focused()).toBe('Mute @alice');
    await user.keyboard('{Enter}{ArrowDown}{Enter}');
    expect(onChoose).toHaveBeenCalledWith({ actor: 'alice' }, NOW + DAY);
  });

  it('mutes a thread until it is undone', async () => {
    const { onChoose, user } = openMenu(null);
    expect(items('Mute').map((item) => item.textContent)).toEqual(['Mute this thread']);
    await user.keyboard('{Enter}{End}{ArrowUp}{Enter}');
    expect(onChoose).toHaveBeenCalledWith({ url: 'https://example.test/threads/7' }, null);
  });

  it('closes with Escape or Tab, having chosen nothing', async () => {
    for (const key of ['{Escape}', '{Tab}']) {
      const { onChoose, onClose, user } = openMenu();
      await user.keyboard(key);
      expect(onClose).toHaveBeenCalledTimes(1);
      expect(onChoose).not.toHaveBeenCalled();
      cleanup();
    }
  });
});
