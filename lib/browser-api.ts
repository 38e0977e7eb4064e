/**
 * What the code calls differently in the two manifest versions it is built as: Chrome's MV3
 * build and Firefox's MV2 build (see `wxt.config.ts`, which holds the manifest's side).
 */
import { browser } from 'wxt/browser';

type ToolbarButton = typeof browser.action;

/** The toolbar button: `action` in MV3, `browserAction` in MV2 (the calls used here are the same). */
export function toolbarButton(): ToolbarButton {
  return browser.action ?? (browser.browserAction as unknown as ToolbarButton);
}

/**
 * Whether the toolbar button shows no badge: Firefox for Android has no toolbar, and lists the
 * button as an item of its menu, labelled with its title. Where the platform cannot be asked,
 * a desktop browser's.
 */
export async function drawsNoBadge(): Promise<boolean> {
  try {
    return (await browser.runtime.getPlatformInfo()).os === 'android';
  } catch {
    return false;
  }
}

/**
 * The command that opens the popup from the keyboard, as each manifest version names it. Read
 * when asked, not as the module loads: the build writes the version in, and code that runs the
 * module unbuilt (the polling benchmark, on the fake extension API in plain Node) never asks.
 */
const openPopupCommand = () => (import.meta.env.MANIFEST_VERSION === 2 ? '_execute_browser_action' : '_execute_action');

/**
 * The shortcut that opens the popup, as the browser reports it now (the person may have changed
 * it in the browser's shortcut settings); where it cannot say, the one the manifest suggests.
 * Blank when there is none.
 */
export async function openPopupShortcut(): Promise<string> {
  const name = openPopupCommand();
  try {
    const command = (await browser.commands.getAll()).find((each) => each.name === name);
    if (command) return command.shortcut ?? '';
  } catch {
    // No commands API where the page runs: the manifest's suggestion.
  }
  try {
    const commands = browser.runtime.getManifest().commands as
      | Record<string, { suggested_key?: { default?: string } }>
      | undefined;
    return commands?.[name]?.suggested_key?.default ?? '';
  } catch {
    // Nothing to read the manifest with either: the help leaves the line out.
    return '';
  }
}
