/**
 * `npm run bench` measures polling in a plain Node process of its own, on WXT's fake extension
 * API, with the background's modules as they are in the source (`bench/support/polling-process.ts`),
 * not built: no build step writes `import.meta.env` in. Here that process runs as the bench runs
 * it, against the real service, and gives every figure of its area. And the bench's own program
 * loads outside Vitest, where no browser is installed too.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { measurePolling } from '../../bench/polling';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the polling benchmark', () => {
  it('runs the background’s modules unbuilt and gives an hour of checks, with no body for an unchanged inbox', async () => {
    const section = await measurePolling();
    const figure = (name: string) => section.figures.find((each) => each.name === name)?.value;
    expect(figure('checks per hour')).toBe(60);
    expect(figure('body bytes per unchanged check, conditional')).toBe(0);
    expect(figure('body bytes per unchanged check, unconditional')).toBeGreaterThan(0);
    expect(figure('wire bytes per hour, conditional')).toBeLessThan(figure('wire bytes per hour, unconditional') ?? 0);
  });

  it('loads on a machine without Chromium or Firefox, where it skips the browser areas', async () => {
    // An area no bench has: the program has loaded every module before it can say so.
    await expect(
      promisify(execFile)(`${root}node_modules/.bin/tsx`, ['bench/run.ts', '--only', 'no-such-area'], {
        cwd: root,
        env: {
          ...process.env,
          VITEST: '',
          CHROMIUM_PATH: '/nonexistent/chromium',
          FIREFOX_PATH: '/nonexistent/firefox',
        },
      }),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown area no-such-area;') });
  });
});
