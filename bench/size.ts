/**
 * Bundle size: raw and gzip bytes of what each part of the Chrome build loads when it starts.
 * A page counts every script, preloaded chunk and stylesheet its HTML names.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Figure, Section } from './support/report';

/**
 * The budgets, gzip bytes of JavaScript (1 kB = 1000 B), by part: what the popup runs before its
 * first paint (the copy of its last first screen) and what it loads before it takes input
 * (Preact and the first screen's controls), the in-page buttons (content script and frame page
 * together), and the background. `test/unit/bundle/size.test.ts` fails past them.
 */
/** What each part the popup loads when first used (a menu, a view, a dialog) may weigh on its own, gzip bytes. */
export const LATER_PART_BUDGET = 5_000;
export const LATER_PART_PREFIX = 'popup, later: ';

export const BUDGETS: Record<string, number> = {
  'popup run before the first paint': 5_000,
  'popup to interactive': 22_000,
  'in-page buttons': 10_000,
  background: 40_000,
};

/** The options page's part that signs in through the service's page (OAuth), loaded when an account is added. */
export const SIGN_IN_PART = 'options, sign-in';

/** The chunks a chunk imports: statically (loaded with it) or with `import()` (loaded later). */
function importsOf(dir: string, file: string) {
  const code = readFileSync(join(dir, file), 'utf8');
  const at = (path: string) => posix.normalize(posix.join(dirname(file), path));
  return {
    static: [...code.matchAll(/(?:^|[;}\s])import\s*(?:[\w{},*\s$]+from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g)].map(
      (match) => at(match[1] as string),
    ),
    dynamic: [...code.matchAll(/import\(\s*["'](\.{1,2}\/[^"']+\.js)["']\s*\)/g)].map((match) =>
      at(match[1] as string),
    ),
  };
}

/** A chunk with every chunk it imports statically, however deep. */
function withStaticImports(dir: string, files: readonly string[]): Set<string> {
  const found = new Set<string>();
  const visit = (file: string) => {
    if (found.has(file)) return;
    found.add(file);
    for (const each of importsOf(dir, file).static) visit(each);
  };
  for (const file of files) visit(file);
  return found;
}

export interface PopupLoad {
  /** What `popup.html` runs before its first paint: its module script and what that imports. */
  firstRow: string[];
  /** What `popup.html` names to be fetched beside it (`modulepreload`), to run once asked for. */
  preloaded: string[];
  /** What else it loads before it takes input: the parts its first module imports with `import()`. */
  interactive: string[];
  /** Each part loaded when first used, with the chunks it adds. */
  lazy: { part: string; files: string[] }[];
}

/** The popup's JavaScript by when it loads, from the chunks of a build. */
export function popupLoad(extensionDir: string): PopupLoad {
  const html = readFileSync(join(extensionDir, 'popup.html'), 'utf8');
  const named = (pattern: RegExp) => [...html.matchAll(pattern)].map((match) => match[1] as string);
  const scripts = named(/<script\b[^>]*\bsrc="\/?([^"]+\.js)"/g);
  const firstRow = withStaticImports(extensionDir, scripts);
  const preloaded = withStaticImports(extensionDir, named(/<link\b[^>]*\bhref="\/?([^"]+\.js)"/g));
  for (const file of firstRow) preloaded.delete(file);
  const entry = scripts[0] as string;
  const interactive = withStaticImports(extensionDir, importsOf(extensionDir, entry).dynamic);
  for (const file of firstRow) interactive.delete(file);
  // A later part may load later parts of its own (triage from the part that talks to the
  // background): each counts what it adds to what is loaded by then, the popup and its parents.
  const lazy = new Map<string, string[]>();
  const queue = [...new Set([...firstRow, ...interactive])].map((file) => ({
    file,
    loaded: new Set([...firstRow, ...interactive]),
  }));
  for (let next = queue.shift(); next; next = queue.shift()) {
    for (const part of importsOf(extensionDir, next.file).dynamic) {
      if (next.loaded.has(part) || lazy.has(part)) continue;
      const files = [...withStaticImports(extensionDir, [part])].filter((each) => !next.loaded.has(each));
      lazy.set(part, files);
      const loaded = new Set([...next.loaded, ...files]);
      for (const file of files) queue.push({ file, loaded });
    }
  }
  return {
    firstRow: [...firstRow],
    preloaded: [...preloaded],
    interactive: [...interactive],
    lazy: [...lazy].map(([part, files]) => ({ part, files })),
  };
}

/**
 * A lazy part's name from its chunk's file name: `chunks/snooze-menu-CKVRv1vw.js` is
 * "snooze-menu", and so is `chunks/snooze-menu-CK-Rv1vw.js` (a hash may hold "-" too).
 */
const lazyName = (file: string) => posix.basename(file, '.js').replace(/-[\w-]{8}$/, '');

/** Gzip bytes (level 9) of files of a build. */
export const gzipBytes = (extensionDir: string, files: readonly string[]) =>
  files.reduce((sum, file) => sum + gzipSync(readFileSync(join(extensionDir, file)), { level: 9 }).length, 0);

interface FileSize {
  file: string;
  raw: number;
  gzip: number;
}

export interface BundleSize {
  name: string;
  js: FileSize[];
  css: FileSize[];
}

function sizeOf(dir: string, file: string): FileSize {
  const bytes = readFileSync(join(dir, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/** The files an extension page loads: its module script, the chunks it preloads, its stylesheets. */
function pageFiles(dir: string, html: string): string[] {
  const text = readFileSync(join(dir, html), 'utf8');
  return [...text.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="\/?([^"]+\.(?:js|css))"/g)].map(
    (match) => match[1] as string,
  );
}

function bundle(dir: string, name: string, files: readonly string[]): BundleSize {
  const sizes = files.map((file) => sizeOf(dir, file));
  return {
    name,
    js: sizes.filter((size) => size.file.endsWith('.js')),
    css: sizes.filter((size) => size.file.endsWith('.css')),
  };
}

const total = (sizes: readonly FileSize[], key: 'raw' | 'gzip') => sizes.reduce((sum, size) => sum + size[key], 0);

/** What the options page adds when it first signs in: the chunk that adds an account, and what it imports that the page has not loaded. */
function signInFiles(extensionDir: string): string[] {
  const page = withStaticImports(
    extensionDir,
    pageFiles(extensionDir, 'options.html').filter((file) => file.endsWith('.js')),
  );
  const parts = [...page].flatMap((file) => importsOf(extensionDir, file).dynamic);
  const signIn = parts.filter((file) => lazyName(file) === 'add-account');
  return [...withStaticImports(extensionDir, signIn)].filter((file) => !page.has(file));
}

/** Each part of the build with the files it loads when it starts; the popup's parts by when they load. */
export function measureBundles(extensionDir: string): BundleSize[] {
  const popup = popupLoad(extensionDir);
  const popupCss = pageFiles(extensionDir, 'popup.html').filter((file) => file.endsWith('.css'));
  return [
    bundle(extensionDir, 'popup run before the first paint', [...popup.firstRow, ...popupCss]),
    bundle(extensionDir, 'popup preloaded', popup.preloaded),
    bundle(extensionDir, 'popup to interactive', [...popup.firstRow, ...popup.interactive]),
    ...popup.lazy.map(({ part, files }) => bundle(extensionDir, `${LATER_PART_PREFIX}${lazyName(part)}`, files)),
    bundle(extensionDir, 'background', ['background.js']),
    bundle(extensionDir, 'options', pageFiles(extensionDir, 'options.html')),
    bundle(extensionDir, SIGN_IN_PART, signInFiles(extensionDir)),
    // The in-page buttons: the content script that places their frame, and the frame page itself.
    bundle(extensionDir, 'in-page buttons', [
      'content-scripts/profile.js',
      ...pageFiles(extensionDir, 'profile-frame.html'),
    ]),
  ];
}

/** Gzip bytes of a part's JavaScript. */
export const jsGzip = (part: BundleSize) => total(part.js, 'gzip');

export function measureSize(extensionDir: string): Section {
  const bundles = measureBundles(extensionDir);
  const figures: Figure[] = bundles.flatMap((b) => {
    const rows: Figure[] = [
      { name: `${b.name} JS`, value: total(b.js, 'raw'), unit: 'bytes', how: 'raw' },
      {
        name: `${b.name} JS gzip`,
        value: jsGzip(b),
        unit: 'bytes',
        how: 'gzip -9',
        target: BUDGETS[b.name] ?? (b.name.startsWith(LATER_PART_PREFIX) ? LATER_PART_BUDGET : undefined),
      },
    ];
    if (b.css.length > 0) {
      rows.push({ name: `${b.name} CSS gzip`, value: total(b.css, 'gzip'), unit: 'bytes', how: 'gzip -9' });
    }
    return rows;
  });
  return { id: 'size', title: 'Size (Chrome build)', figures, details: { bundles } };
}
