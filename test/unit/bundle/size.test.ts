/**
 * The size budgets of the Chrome build people install: gzip bytes of the JavaScript the popup
 * loads for its first row, of the in-page buttons and of the background. A size, not a timing:
 * it does not depend on how busy the machine is. Builds the extension once, into a folder of
 * its own.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGETS, type BundleSize, jsGzip, measureBundles } from '../../../bench/size';
import { buildQuietly } from '../../../scripts/build';

const OUT_DIR = resolve('.output/size-test');

describe('the Chrome build', () => {
  let parts: BundleSize[] = [];

  beforeAll(async () => {
    await buildQuietly({ outDir: OUT_DIR });
    parts = measureBundles(join(OUT_DIR, 'chrome-mv3'));
  }, 300_000);

  afterAll(() => rmSync(OUT_DIR, { recursive: true, force: true }));

  it.each(Object.entries(BUDGETS))('keeps the %s within %d bytes of gzip JavaScript', (name, budget) => {
    const part = parts.find((candidate) => candidate.name === name);
    expect(part?.js.length, `the build has no ${name}`).toBeGreaterThan(0);
    const files = part?.js.map((file) => `${file.file} ${file.gzip} B`).join(', ');
    expect(part && jsGzip(part), `${name}: ${files}`).toBeLessThanOrEqual(budget);
  });
});
