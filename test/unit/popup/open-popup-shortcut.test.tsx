// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ShortcutsHelp } from '../../../components/popup/shortcuts-help';

const commands = fakeBrowser.commands as unknown as Record<string, unknown>;
const runtime = fakeBrowser.runtime as unknown as Record<string, unknown>;
const { getAll } = commands;
const { getManifest } = runtime;

/** What the MV3 build's manifest suggests, as `wxt.config.ts` writes it. */
const manifest = () => ({ commands: { _execute_action: { suggested_key: { default: 'Alt+Shift+I' } } } });

describe('the popup’s shortcut help', () => {
  afterEach(() => {
    cleanup();
    commands.getAll = getAll;
    runtime.getManifest = getManifest;
  });

  it('names the shortcut that opens the popup as the browser has it, changed by the person', async () => {
    commands.getAll = async () => [{ name: '_execute_action', shortcut: 'Ctrl+Shift+Y' }];
    runtime.getManifest = manifest;
    render(<ShortcutsHelp />);
    expect((await screen.findByText('Ctrl + Shift + Y')).tagName).toBe('KBD');
    expect(screen.getByText(/^Open this popup from any page/)).toBeTruthy();
  });

  it('names the manifest’s suggestion where the browser cannot say', async () => {
    commands.getAll = () => {
      throw new Error('commands is not available here');
    };
    runtime.getManifest = manifest;
    render(<ShortcutsHelp />);
    expect(await screen.findByText('Alt + Shift + I')).toBeTruthy();
  });

  it('leaves the row out when the person removed the shortcut', async () => {
    commands.getAll = async () => [{ name: '_execute_action', shortcut: '' }];
    runtime.getManifest = manifest;
    render(<ShortcutsHelp />);
    await screen.findByText('Undo the last action, while it is offered');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/^Open this popup/)).toBeNull();
  });
});
