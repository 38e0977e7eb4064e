import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { E2E_EXTENSION_DIR } from '../../scripts/chromium';
import { hasChromium } from './support/product';

async function scripts(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe.runIf(hasChromium)('the built extension', () => {
  it('reads the token in the background only: no other bundle knows its storage key', async () => {
    const holders: string[] = [];
    for (const file of await scripts(E2E_EXTENSION_DIR)) {
      if ((await readFile(file, 'utf8')).includes('local:token')) holders.push(relative(E2E_EXTENSION_DIR, file));
    }
    expect(holders).toEqual(['background.js']);
  });
});
