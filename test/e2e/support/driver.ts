/**
 * What an end-to-end test may do with a browser, in words both drivers speak: Playwright's for
 * Chromium (whose pages and locators fit these types as they are) and puppeteer-core over
 * WebDriver BiDi for Firefox (`firefox-page.ts`). The shapes are a small subset of
 * Playwright's, so a test written against Playwright's `Page` reads the same here.
 */
export const BROWSER_NAMES = ['chromium', 'firefox'] as const;
export type BrowserName = (typeof BROWSER_NAMES)[number];

export interface RoleOptions {
  name?: string;
  exact?: boolean;
}

export interface WaitOptions {
  state?: 'attached' | 'detached' | 'visible' | 'hidden';
  timeout?: number;
}

/** Elements found again at every use, waited for before every action. */
export interface E2ELocator {
  click(options?: { timeout?: number }): Promise<void>;
  /** Moves the pointer over the element and leaves it there. */
  hover(options?: { timeout?: number }): Promise<void>;
  /** Replaces the field's text by typing, as a person would. */
  fill(value: string): Promise<void>;
  check(): Promise<void>;
  focus(): Promise<void>;
  waitFor(options?: WaitOptions): Promise<void>;
  count(): Promise<number>;
  isVisible(): Promise<boolean>;
  isDisabled(): Promise<boolean>;
  innerText(): Promise<string>;
  textContent(): Promise<string | null>;
  allTextContents(): Promise<string[]>;
  getAttribute(name: string): Promise<string | null>;
  inputValue(): Promise<string>;
  evaluate<R>(fn: (element: HTMLElement) => R): Promise<R>;
  first(): E2ELocator;
  nth(index: number): E2ELocator;
  locator(selector: string): E2ELocator;
  getByRole(role: AriaRole, options?: RoleOptions): E2ELocator;
  /** The element itself, to reach the document of a frame element. */
  elementHandle(): Promise<{ contentFrame(): Promise<E2EFrame | null> } | null>;
}

/** A frame's document, where a script of the test's own can run. */
export interface E2EFrame {
  evaluate<R>(script: string): Promise<R>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
}

/** The elements inside a frame element's document, found again at every use. */
export interface E2EFrameLocator {
  getByRole(role: AriaRole, options?: RoleOptions): E2ELocator;
  locator(selector: string): E2ELocator;
}

export type AriaRole =
  | 'alert'
  | 'alertdialog'
  | 'article'
  | 'button'
  | 'checkbox'
  | 'dialog'
  | 'feed'
  | 'group'
  | 'heading'
  | 'link'
  | 'list'
  | 'listitem'
  | 'menu'
  | 'menuitem'
  | 'radio'
  | 'status'
  | 'switch'
  | 'tab'
  | 'textbox';

/** A tab: an extension page or a web page. */
export interface E2EPage {
  getByRole(role: AriaRole, options?: RoleOptions): E2ELocator;
  /** The form field with this accessible name. */
  getByLabel(text: string): E2ELocator;
  getByText(text: string, options?: { exact?: boolean }): E2ELocator;
  /** CSS, looking into open shadow roots. */
  locator(selector: string): E2ELocator;
  /** The document of the frame element `selector` finds (CSS, looking into open shadow roots). */
  frameLocator(selector: string): E2EFrameLocator;
  evaluate<R>(fn: () => R | Promise<R>): Promise<R>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  /** Runs a script in the page's own world, which the page's content security policy does not govern. */
  evaluate<R>(script: string): Promise<R>;
  url(): string | Promise<string>;
  title(): Promise<string>;
  goBack(): Promise<unknown>;
  keyboard: { press(key: string): Promise<void> };
  /** The pointer as a person moves it, in the page's viewport coordinates. */
  mouse: {
    move(x: number, y: number, options?: { steps?: number }): Promise<void>;
    down(): Promise<void>;
    up(): Promise<void>;
  };
  /** A finger's tap at a point of the viewport (Chromium launched with `hasTouch`). */
  touchscreen: { tap(x: number, y: number): Promise<void> };
  waitForLoadState(state?: 'load'): Promise<void>;
  waitForTimeout(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Runs a function where the extension's own APIs are (`chrome.*`), as the background sees them. */
export interface ExtensionContext {
  evaluate<R>(fn: () => R | Promise<R>): Promise<R>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
}

/** A browser with the extension installed. */
export interface E2EBrowser {
  name: BrowserName;
  /** Chromium's extension id, or Firefox's add-on id. */
  extensionId: string;
  /** The URL of one of the extension's pages, such as `popup.html`. */
  pageUrl(path: string): string;
  /** The extension's own context: a service worker in Chromium, an extension tab in Firefox. */
  extension: ExtensionContext;
  /** Opens a new tab at `url` (an extension page or a web page) and waits until it has loaded. */
  newPage(url: string): Promise<E2EPage>;
  /** How many tabs are open. */
  pageCount(): Promise<number>;
  /** The next tab anything opens, once it has loaded. */
  nextPage(): Promise<E2EPage>;
  /**
   * Stops the background as the browser itself would: Chromium's service worker is stopped at
   * once. Firefox's MV2 background page is persistent, so nothing stops it (this throws there).
   */
  stopBackground(): Promise<void>;
  /** Whether the background is running right now. */
  backgroundRunning(): Promise<boolean>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  extensionDir?: string;
  colorScheme?: 'light' | 'dark';
  locale?: string;
  /** Firefox only: how long an event page may idle before it is unloaded (the MV2 build's page is persistent). */
  backgroundIdleTimeoutMs?: number;
  /** Chromium: the profile folder, kept across launches so a test can restart the browser; a fresh one by default. */
  userDataDir?: string;
  /** Chromium: pages get a touch screen, for `E2EPage.touchscreen` (Firefox's pages always take taps). */
  hasTouch?: boolean;
  /**
   * Firefox: a phone's screen, as Firefox for Android shows the popup, a page of the whole screen:
   * 360 × 640 CSS px, and a finger as the only pointer (touch events; the media queries say a
   * coarse pointer and no hover).
   */
  phone?: boolean;
}
