/**
 * The size budgets of the Chrome build people install: gzip bytes of the JavaScript the popup
 * loads before its first row, before it takes input and in each part it loads when first used,
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
  CEILINGS,
  jsGzip,
  LATER_PART_BUDGET,
  LATER_PART_PREFIX,
  measureBundles,
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

  const within = Object.entries(BUDGETS).filter(([name]) => CEILINGS[name] === undefined);
  it.each(within)('keeps the %s within its budget of %d bytes of gzip JavaScript', (name, budget) => {
    const { bytes, files } = size(name);
    expect(bytes, `${name}: ${files}`).toBeLessThanOrEqual(budget);
  });

  const above = Object.entries(CEILINGS);
  it.each(above)('lets the %s only shrink towards its budget: at most %d bytes of gzip JavaScript', (name, ceiling) => {
    const { bytes, files } = size(name);
    const budget = BUDGETS[name] ?? 0;
    expect(ceiling, `${name}: a ceiling is for a part above its budget`).toBeGreaterThan(budget);
    expect(bytes, `${name}: ${files}; budget ${budget} B`).toBeLessThanOrEqual(ceiling);
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
