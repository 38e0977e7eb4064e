/**
 * The size budgets of the Chrome build people install: gzip bytes of the JavaScript the popup
 * runs before its first paint, loads before it takes input and in each part it loads when first used,
 * of the in-page buttons and of the background. A size, not a timing:
 * it does not depend on how busy the machine is. Builds the extension once, into a folder of
 * its own.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUDGETS,
  type BundleSize,
  jsGzip,
  LATER_PART_BUDGET,
  LATER_PART_PREFIX,
  measureBundles,
  popupLoad,
} from '../../../bench/size';
import { buildQuietly } from '../../../scripts/build';

const OUT_DIR = resolve('.output/size-test');

describe('the Chrome build', () => {
  let parts: BundleSize[] = [];

  beforeAll(async () => {
    // Vite keeps the NODE_ENV it finds, and the test runner's "test" keeps development-only
    // code in the bundles; people install the production build.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await buildQuietly({ outDir: OUT_DIR });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    parts = measureBundles(join(OUT_DIR, 'chrome-mv3'));
  }, 300_000);

  afterAll(() => rmSync(OUT_DIR, { recursive: true, force: true }));

  const size = (name: string) => {
    const part = parts.find((candidate) => candidate.name === name);
    if (!part || part.js.length === 0) throw new Error(`The build has no ${name}.`);
    return { bytes: jsGzip(part), files: part.js.map((file) => `${file.file} ${file.gzip} B`).join(', ') };
  };

  it.each(Object.entries(BUDGETS))('keeps the %s within its budget of %d bytes of gzip JavaScript', (name, budget) => {
    const { bytes, files } = size(name);
    expect(bytes, `${name}: ${files}`).toBeLessThanOrEqual(budget);
  });

  it('names in popup.html every chunk the popup needs to take input, fetched beside its first module', () => {
    const load = popupLoad(join(OUT_DIR, 'chrome-mv3'));
    expect(load.interactive.length).toBeGreaterThan(0);
    expect(new Set(load.preloaded)).toEqual(new Set(load.interactive));
  });

  it('loads each of the popup’s later parts on its own, none above its budget', () => {
    const later = parts.filter((part) => part.name.startsWith(LATER_PART_PREFIX));
    expect(later.length, 'the popup loads its menus, views and dialogs when first used').toBeGreaterThan(5);
    for (const part of later) {
      expect(jsGzip(part), `${part.name}: ${part.js.map((file) => file.file).join(', ')}`).toBeLessThanOrEqual(
        LATER_PART_BUDGET,
      );
    }
  });
});
