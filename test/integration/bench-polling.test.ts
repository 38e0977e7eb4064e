/**
 * `npm run bench` measures polling in a plain Node process of its own, on WXT's fake extension
 * API, with the background's modules as they are in the source (`bench/support/polling-process.ts`),
 * not built: no build step writes `import.meta.env` in. Here that process runs as the bench runs
 * it, against the real service, and gives every figure of its area.
 */
import { describe, expect, it } from 'vitest';
import { measurePolling } from '../../bench/polling';

describe('the polling benchmark', () => {
  it('runs the background’s modules unbuilt and gives an hour of checks, with no body for an unchanged inbox', async () => {
    const section = await measurePolling();
    const figure = (name: string) => section.figures.find((each) => each.name === name)?.value;
    expect(figure('checks per hour')).toBe(60);
    expect(figure('body bytes per unchanged check, conditional')).toBe(0);
    expect(figure('body bytes per unchanged check, unconditional')).toBeGreaterThan(0);
    expect(figure('wire bytes per hour, conditional')).toBeLessThan(figure('wire bytes per hour, unconditional') ?? 0);
  });
});
