/**
 * Renders the popup against the real background handlers and poller over an in-memory service,
 * with real fake-browser storage, and with what the tests need to drive it as a person would.
 */
import { cleanup, render, screen, waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { onTestFinished, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { Popup } from '../../../components/popup/popup';
import type { Notification } from '../../../lib/api/contract';
import { writeCachedFirstPage } from '../../../lib/inbox-cache';
import { createInboxStore } from '../../../lib/popup/inbox-store';
import { updateSettings } from '../../../lib/settings';
import { ACCOUNT } from '../../support/background';
import { createPopupBackground, type PopupBackground, type Trouble, type World } from './popup-background';

export interface Setup extends World {
  /** What the service holds; newest first. */
  inbox?: Notification[];
  /** A first page already in the cache, as a previous popup left it. */
  cached?: { data: Notification[]; cursor: string | null; unreadOnly?: boolean; savedAt?: number };
  unreadOnly?: boolean;
  /** How the service answers every request, instead of as the contract says. */
  service?: Trouble;
  online?: boolean;
  /** Runs before the popup opens, to make answers fail or wait from the first message on. */
  prepare?: (background: PopupBackground) => void;
}

export async function openPopup(setup: Setup = {}) {
  const background: PopupBackground = createPopupBackground(setup.inbox ?? [], setup);
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => setup.online ?? true });
  // The page is online again for the next test, which may be another file's on the same page.
  onTestFinished(() => {
    Reflect.deleteProperty(navigator, 'onLine');
  });
  background.answerWith(setup.service ?? null);
  setup.prepare?.(background);
  if (setup.unreadOnly) await updateSettings({ unreadOnly: true });
  // The background checked the service before the popup opened, as its alarm does.
  await background.check();
  if (setup.cached) {
    const { data, cursor, unreadOnly = false, savedAt } = setup.cached;
    await writeCachedFirstPage(ACCOUNT, unreadOnly, { data, cursor }, savedAt);
  }
  const user = userEvent.setup();
  const store = createInboxStore();
  const view = render(<Popup store={store} />);
  return { background, store, user, ...view };
}

export function resetPopupWorld(): void {
  // A test's unstubAllGlobals also takes away the extension API WXT stubs for every test, which
  // the popup still uses while it closes.
  vi.stubGlobal('chrome', fakeBrowser);
  vi.stubGlobal('browser', fakeBrowser);
  cleanup();
  vi.restoreAllMocks();
  fakeBrowser.reset();
  performance.clearMarks();
  Object.assign(fakeBrowser.runtime, { openOptionsPage: vi.fn(async () => {}) });
}

/** The notification rows on show, by their text. */
export function rowTexts(): string[] {
  const feed = screen.queryByRole('feed');
  if (!feed) return [];
  return within(feed)
    .queryAllByRole('article')
    .map((article) => article.querySelector('.text')?.textContent ?? '');
}

export function row(text: string): HTMLElement {
  return screen.getByRole('article', { name: text });
}

export async function waitForRows(count: number): Promise<void> {
  await waitFor(() => {
    if (rowTexts().length !== count) throw new Error(`expected ${count} rows, saw ${rowTexts().length}`);
  });
}

/** Lets every pending promise and render settle. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** What the popup's polite announcement region says now. */
export const announced = (): string => document.querySelector('.sr-only[role="status"]')?.textContent ?? '';

/** The words of the undo toast on show, or null when there is none. */
export const toast = (): string | null => document.querySelector('.toast span')?.textContent ?? null;
