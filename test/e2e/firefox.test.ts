/**
 * The Firefox build as addons.mozilla.org sees it: Mozilla's own linter, the one the store runs.
 * The same build runs every end-to-end flow in Firefox ESR (see `support/browsers.ts`); the
 * suite's global setup makes it once, and this file only reads it, since other files install it
 * in Firefox meanwhile.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('Firefox build', () => {
  it('passes addons-linter with no errors', async () => {
    const { default: linter } = await import('addons-linter');
    const instance = linter.createInstance({
      config: {
        _: [resolve('.output/firefox-mv2')],
        logLevel: 'fatal',
        stack: false,
        pretty: false,
        warningsAsErrors: false,
        metadata: false,
        output: 'none',
        boring: true,
        selfHosted: false,
      },
      runAsBinary: false,
    });
    const results = await instance.run();
    expect(results.errors.map(({ code, file, message }) => `${code} ${file ?? ''}: ${message}`)).toEqual([]);
    // The only warnings allowed are Preact's own innerHTML path, which this project never uses.
    expect(results.warnings.filter((w) => w.code !== 'UNSAFE_VAR_ASSIGNMENT').map((w) => w.code)).toEqual([]);
  });
});
