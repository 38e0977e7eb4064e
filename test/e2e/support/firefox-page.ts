/**
 * The end-to-end page and locator types on puppeteer-core's Firefox (WebDriver BiDi): elements
 * are found again at every use, waited for before every action, and clicked and typed into
 * with trusted input. Elements are found by a script of the test's own in the page
 * (`in-page-find.ts`), through open shadow roots; roles and names are the ARIA computations, and
 * names match exactly.
 */
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import type { ElementHandle, Frame, JSHandle, Page } from 'puppeteer-core';
import type { AriaRole, E2EFrame, E2EFrameLocator, E2ELocator, E2EPage, RoleOptions, WaitOptions } from './driver';
import type { find as inPageFind } from './in-page-find';
import { until } from './wait';

const TIMEOUT = 15_000;

/** What one step looks for: CSS (through shadow roots), a role and name, or text. */
type Query =
  | { kind: 'css'; selector: string }
  | { kind: 'aria'; role: AriaRole | null; name: string | undefined }
  | { kind: 'text'; text: string };

/**
 * A query; `exactText` keeps only elements with exactly that text, `control` only form fields;
 * `frame` goes on in the documents of the frame elements found.
 */
type Step = { query: Query; exactText?: string; control?: boolean; frame?: boolean } | { nth: number };

type Root = Page | Frame | ElementHandle<Element>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describeQuery(query: Query): string {
  if (query.kind === 'css') return query.selector;
  if (query.kind === 'text') return `text=${JSON.stringify(query.text)}`;
  return `role=${query.role ?? '*'}${query.name === undefined ? '' : `[name=${JSON.stringify(query.name)}]`}`;
}

async function release(handles: ElementHandle<Element>[]): Promise<void> {
  await Promise.all(handles.map((handle) => handle.dispose()));
}

/** The handle a query starts from: the element itself, or the document of a page or frame. */
async function startOf(root: Root): Promise<{ handle: ElementHandle<Node>; own: boolean }> {
  if ('contentFrame' in root) return { handle: root, own: false };
  return { handle: (await root.evaluateHandle(() => document)) as unknown as ElementHandle<Node>, own: true };
}

/** The elements of an array handle, each a handle of its own; the array handle is let go. */
async function elementsOf(array: JSHandle<Element[]>): Promise<ElementHandle<Element>[]> {
  const properties = await array.getProperties();
  await array.dispose();
  const elements: ElementHandle<Element>[] = [];
  for (const handle of properties.values()) {
    const element = handle.asElement() as ElementHandle<Element> | null;
    if (element) elements.push(element);
    else await handle.dispose();
  }
  return elements;
}

/**
 * Runs `run`; where it fails for want of a global the page lacks (its error says `missing`),
 * runs `define` and then `run` once more.
 */
async function definingFirst<T>(run: () => Promise<T>, missing: string, define: () => Promise<unknown>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!String(error).includes(missing)) throw error;
    await define();
    return run();
  }
}

/**
 * Runs `run` in `realm`'s page; where the caller was compiled by tsx (the benchmarks), whose
 * functions name their inner functions with a `__name` helper the page lacks, defines it there
 * first and runs it again.
 */
function withNames<T>(realm: { evaluate(fn: () => void): Promise<unknown> }, run: () => Promise<T>): Promise<T> {
  return definingFirst(run, '__name is not defined', () =>
    realm.evaluate(() => {
      (globalThis as { __name?: unknown }).__name ??= (fn: unknown) => fn;
    }),
  );
}

/** The global the in-page finder's script defines, holding its module's exports. */
const FINDER = '__inboxCompanionE2EFinder';

/** The in-page finder's script, bundled once for the run. */
let finderScript: string | undefined;

function finderSource(): string {
  finderScript ??= buildSync({
    entryPoints: [fileURLToPath(new URL('./in-page-find.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: FINDER,
    minify: true,
    write: false,
  }).outputFiles[0]?.text;
  if (!finderScript) throw new Error('in-page-find.ts bundled to nothing');
  return finderScript;
}

/**
 * Every element under `root` that `query` finds, in document order, in one call to the page (the
 * finder is put into the page first where it is not there yet). Puppeteer's own `$$` costs about
 * 200 ms a call over WebDriver BiDi whatever it finds, and its `queryAXTree` a second or more once
 * the popup holds a few hundred rows (Firefox's remote agent asks the accessibility service for
 * each element in turn, forcing refreshes for those it has no accessible for); the page answers in
 * a few milliseconds.
 */
async function find(root: Root, query: Query, native = false): Promise<ElementHandle<Element>[]> {
  if (native && query.kind === 'aria') return findInAccessibilityTree(root, query.role, query.name);
  // The realm of the element, or of the page or frame, whose document is then where to look.
  const [realm, from] = 'contentFrame' in root ? [root.frame, root] : [root, null];
  const [wanted, name] =
    query.kind === 'css' ? [query.selector] : query.kind === 'text' ? [query.text] : [query.role, query.name];
  const array = await definingFirst(
    () =>
      realm.evaluateHandle(
        (from, finder, kind, wanted, name) => {
          const script = (globalThis as unknown as Record<string, { find: typeof inPageFind } | undefined>)[finder];
          if (!script) throw new Error(`${finder} is not defined`);
          return script.find(from ?? document, kind, wanted, name);
        },
        from,
        FINDER,
        query.kind,
        wanted,
        name,
      ),
    `${FINDER} is not defined`,
    () => realm.evaluate(finderSource()),
  );
  return elementsOf(array);
}

/** What Firefox's own accessibility tree, through WebDriver BiDi's `locateNodes`, finds under `root`. */
async function findInAccessibilityTree(
  root: Root,
  role: AriaRole | null,
  name: string | undefined,
): Promise<ElementHandle<Element>[]> {
  const start = await startOf(root);
  try {
    const tree = start.handle as unknown as {
      queryAXTree(name?: string, role?: string): AsyncIterable<ElementHandle<Node>>;
    };
    const found: ElementHandle<Element>[] = [];
    for await (const node of tree.queryAXTree(name, role ?? undefined)) found.push(node as ElementHandle<Element>);
    return found;
  } finally {
    if (start.own) await start.handle.dispose();
  }
}

/** What `clickOnly` answers when the press would have landed on another element. */
const MISSED = Symbol('missed');

/**
 * Clicks the middle of `handle` with the mouse, as puppeteer does, but lets the press reach the
 * page only if it lands on that element (or a label of it), as Playwright's own click checks. The
 * popup loads the next page by itself when "Load more" scrolls into view, and its rows then
 * take the button's place between finding the point and pressing it: an unguarded click opens a
 * notification there, marking it read in a new tab. A guarded one says `MISSED`, and the caller
 * finds the element again.
 */
async function clickOnly(page: Page, handle: ElementHandle<Element>): Promise<true | typeof MISSED> {
  if (!(await handle.isIntersectingViewport({ threshold: 1 }))) await handle.scrollIntoView();
  const { x, y } = await handle.clickablePoint();
  // Its inner function is named with tsx's `__name` where the benchmarks run this.
  const guard = await withNames(handle, () =>
    handle.evaluateHandle((element) => {
      const view = element.ownerDocument.defaultView ?? window;
      const types = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'auxclick', 'dblclick'];
      const state = { missed: false, remove: () => {} };
      const block = (event: Event) => {
        const path = event.composedPath();
        const onIt = path.some(
          (node) => node === element || (node instanceof HTMLLabelElement && node.control === element),
        );
        if (onIt) return;
        state.missed = true;
        event.preventDefault();
        event.stopImmediatePropagation();
      };
      for (const type of types) view.addEventListener(type, block, { capture: true });
      state.remove = () => {
        for (const type of types) view.removeEventListener(type, block, { capture: true });
      };
      return state;
    }),
  );
  let missed = true;
  try {
    await page.mouse.click(x, y);
  } finally {
    missed = await guard.evaluate((state) => {
      state.remove();
      return state.missed;
    });
    await guard.dispose();
  }
  return missed ? MISSED : true;
}

class FirefoxLocator implements E2ELocator {
  constructor(
    private readonly page: Page,
    private readonly steps: Step[],
  ) {}

  private describe(): string {
    return this.steps.map((step) => ('nth' in step ? `nth(${step.nth})` : describeQuery(step.query))).join(' » ');
  }

  private with(step: Step): FirefoxLocator {
    return new FirefoxLocator(this.page, [...this.steps, step]);
  }

  /**
   * Every element the steps reach now; the caller disposes them. `native` finds roles and names
   * with Firefox's own accessibility tree instead of the in-page script.
   */
  private async resolve(native = false): Promise<ElementHandle<Element>[]> {
    let found: ElementHandle<Element>[] = [];
    let roots: Root[] = [this.page];
    for (const step of this.steps) {
      if ('nth' in step) {
        const picked = found.at(step.nth);
        await release(found.filter((handle) => handle !== picked));
        found = picked ? [picked] : [];
      } else {
        const next = (await Promise.all(roots.map((root) => find(root, step.query, native)))).flat();
        await release(found);
        found = next;
        if (step.exactText !== undefined || step.control) {
          const keep = await Promise.all(
            next.map((handle) =>
              handle.evaluate(
                (element, text, control) =>
                  (text === undefined || element.textContent?.trim() === text) &&
                  (!control || element.matches('input, textarea, select')),
                step.exactText,
                step.control === true,
              ),
            ),
          );
          found = next.filter((_, index) => keep[index]);
          await release(next.filter((_, index) => !keep[index]));
        }
      }
      if ('frame' in step && step.frame) {
        const frames = await Promise.all(found.map((handle) => handle.contentFrame()));
        await release(found);
        found = [];
        roots = frames.filter((frame): frame is Frame => frame !== null);
      } else {
        roots = found;
      }
    }
    return found;
  }

  /**
   * Runs `use` on the first element once there is one (visible, if `visible`), waiting for it;
   * again, on the element found anew, while `use` says `MISSED`.
   */
  private async withFirst<T>(
    use: (handle: ElementHandle<Element>) => Promise<T>,
    visible = true,
    timeout = TIMEOUT,
  ): Promise<Exclude<T, typeof MISSED>> {
    return until(this.describe(), timeout, async () => {
      const handles = await this.resolve();
      try {
        const [first] = handles;
        if (!first || (visible && !(await first.isVisible()))) return undefined;
        const value = await use(first);
        return value === MISSED ? undefined : { value: value as Exclude<T, typeof MISSED> };
      } finally {
        await release(handles);
      }
    }).then(({ value }) => value);
  }

  async click(options: { timeout?: number } = {}) {
    await this.withFirst((handle) => clickOnly(this.page, handle), true, options.timeout);
  }

  async hover(options: { timeout?: number } = {}) {
    await this.withFirst((handle) => handle.hover(), true, options.timeout);
  }

  async fill(value: string) {
    await this.withFirst(async (handle) => {
      await handle.focus();
      await handle.evaluate((element) => (element as HTMLInputElement).select?.());
      if (value) await handle.type(value);
      else await this.page.keyboard.press('Backspace');
    });
  }

  async check() {
    await this.withFirst(async (handle) => {
      const checked = await handle.evaluate(
        (element) => (element as HTMLInputElement).checked || element.getAttribute('aria-checked') === 'true',
      );
      return checked ? true : clickOnly(this.page, handle);
    });
  }

  async focus() {
    await this.withFirst((handle) => handle.focus(), false);
  }

  async waitFor(options: WaitOptions = {}) {
    const state = options.state ?? 'visible';
    await until(`${this.describe()} to be ${state}`, options.timeout ?? TIMEOUT, async () => {
      const handles = await this.resolve();
      try {
        const visible = state === 'visible' || state === 'hidden' ? await handles[0]?.isVisible() : undefined;
        const done =
          state === 'attached'
            ? handles.length > 0
            : state === 'detached'
              ? handles.length === 0
              : state === 'visible'
                ? visible === true
                : visible !== true;
        return done ? true : undefined;
      } finally {
        await release(handles);
      }
    });
  }

  /** How many elements the steps reach now; `native` as `resolve` takes it. */
  async count(native = false) {
    const handles = await this.resolve(native);
    await release(handles);
    return handles.length;
  }

  async isVisible() {
    const handles = await this.resolve();
    try {
      return (await handles[0]?.isVisible()) ?? false;
    } finally {
      await release(handles);
    }
  }

  isDisabled() {
    return this.evaluate(
      (element) => (element as HTMLButtonElement).disabled === true || element.getAttribute('aria-disabled') === 'true',
    );
  }

  innerText() {
    return this.evaluate((element) => element.innerText);
  }

  textContent() {
    return this.evaluate((element) => element.textContent);
  }

  async allTextContents() {
    const handles = await this.resolve();
    try {
      return await Promise.all(handles.map((handle) => handle.evaluate((element) => element.textContent ?? '')));
    } finally {
      await release(handles);
    }
  }

  getAttribute(name: string) {
    return this.withFirst((handle) => handle.evaluate((element, name) => element.getAttribute(name), name), false);
  }

  inputValue() {
    return this.evaluate((element) => (element as HTMLInputElement).value);
  }

  evaluate<R>(fn: (element: HTMLElement) => R): Promise<R> {
    // puppeteer sends the function's source to the page; `fn` closes over nothing.
    return this.withFirst(
      (handle) => (handle as ElementHandle<HTMLElement>).evaluate(fn as (element: HTMLElement) => Awaited<R>),
      false,
    );
  }

  first() {
    return this.with({ nth: 0 });
  }

  nth(index: number) {
    return this.with({ nth: index });
  }

  locator(selector: string) {
    return this.with({ query: { kind: 'css', selector } });
  }

  getByRole(role: AriaRole, options: RoleOptions = {}) {
    return this.with({ query: { kind: 'aria', role, name: options.name } });
  }

  frame(): FirefoxLocator {
    const last = this.steps.at(-1);
    if (!last || 'nth' in last) throw new Error('a frame locator starts from a CSS selector');
    return new FirefoxLocator(this.page, [...this.steps.slice(0, -1), { ...last, frame: true }]);
  }

  async elementHandle() {
    const handles = await this.resolve();
    const [first] = handles;
    await release(handles.slice(1));
    if (!first) return null;
    return {
      contentFrame: async (): Promise<E2EFrame | null> => {
        const frame = await first.contentFrame();
        await first.dispose();
        return frame as unknown as E2EFrame | null;
      },
    };
  }
}

/**
 * How many elements Firefox's accessibility tree finds for `locator`, which this driver made, by
 * the roles and names it finds elsewhere with the in-page script: a second or more a call once
 * the popup holds a few hundred rows, so for the accessibility suite's check that both agree.
 */
export function countInAccessibilityTree(locator: E2ELocator): Promise<number> {
  if (!(locator instanceof FirefoxLocator)) throw new TypeError('not a locator of a Firefox page');
  return locator.count(true);
}

function firefoxFrameLocator(page: Page, selector: string): E2EFrameLocator {
  const frame = new FirefoxLocator(page, []).locator(selector).frame();
  return {
    getByRole: (role, options) => frame.getByRole(role, options),
    locator: (inner) => frame.locator(inner),
  };
}

/**
 * Tests use the extension's APIs as `chrome.*` with promises, as Chromium gives them. Firefox's
 * `chrome` in an MV2 build takes callbacks only (it answers `undefined` without one); its
 * `browser` is the same API with promises, so an extension page's `chrome` is made that.
 */
export async function promisedChrome(page: Page): Promise<void> {
  await page.evaluate(() => {
    const api = (globalThis as { browser?: { runtime?: { id?: string } } }).browser;
    if (api?.runtime?.id && (globalThis as { chrome?: unknown }).chrome !== api) {
      (globalThis as { chrome?: unknown }).chrome = api;
    }
  });
}

export function firefoxPage(page: Page): E2EPage {
  const root = new FirefoxLocator(page, []);
  const evaluate = (async (fn: (arg: unknown) => unknown, arg?: unknown) => {
    await promisedChrome(page);
    return withNames(page, () => page.evaluate(fn, arg));
  }) as E2EPage['evaluate'];
  return {
    getByRole: (role, options) => root.getByRole(role, options),
    getByLabel: (text) =>
      new FirefoxLocator(page, [{ query: { kind: 'aria', role: null, name: text }, control: true }]),
    getByText: (text, options = {}) =>
      new FirefoxLocator(page, [{ query: { kind: 'text', text }, exactText: options.exact ? text : undefined }]),
    locator: (selector) => root.locator(selector),
    frameLocator: (selector) => firefoxFrameLocator(page, selector),
    evaluate,
    // Firefox's remote agent does not report moz-extension: navigations, so ask the page itself.
    url: () => page.evaluate(() => location.href),
    title: () => page.evaluate(() => document.title),
    goBack: () => page.evaluate(() => history.back()),
    keyboard: { press: (key) => page.keyboard.press(key as Parameters<Page['keyboard']['press']>[0]) },
    mouse: {
      move: (x, y, options) => page.mouse.move(x, y, options),
      down: () => page.mouse.down(),
      up: () => page.mouse.up(),
    },
    touchscreen: { tap: (x, y) => page.touchscreen.tap(x, y) },
    async waitForLoadState() {
      await until('the page to load', TIMEOUT, async () =>
        (await page.evaluate(() => document.readyState)) === 'complete' ? true : undefined,
      );
    },
    async waitForTimeout(ms) {
      await sleep(ms);
    },
    close: () => page.close(),
  };
}

/**
 * Opens `url` in `page`. `page.goto()` never settles for moz-extension: URLs (the remote agent
 * drops their navigation events), so navigate without waiting and ask the page when it is there.
 */
export async function navigate(page: Page, url: string): Promise<void> {
  if (!url.startsWith('moz-extension:')) {
    await page.goto(url, { waitUntil: 'load' });
    return;
  }
  const frame = page.mainFrame() as unknown as {
    browsingContext: { navigate(url: string, wait: 'none'): Promise<unknown> };
  };
  await frame.browsingContext.navigate(url, 'none');
  await until(`${url} to load`, TIMEOUT, async () => {
    const [href, state] = await page.evaluate(() => [location.href, document.readyState]);
    return href === url && state === 'complete' ? true : undefined;
  });
}
