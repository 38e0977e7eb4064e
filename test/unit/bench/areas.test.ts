import { describe, expect, it } from 'vitest';
import { createAreaRunner } from '../../../bench/support/areas';

describe('a benchmark run’s areas', () => {
  it('names an area that fails with its error and still measures the areas after it', async () => {
    let clock = 0;
    const output: string[] = [];
    const runner = createAreaRunner<'size' | 'service' | 'depth' | 'bulk'>({
      wanted: (name) => name !== 'bulk',
      write: (text) => output.push(text),
      loadAverage: () => [1.5, 1, 0.5],
      now: () => clock,
    });
    await runner.area('size', () => {
      clock += 2_340;
      return { id: 'size', title: 'Size', figures: [] };
    });
    await runner.area('service', async () => {
      throw new Error('The role may not create a database.');
    });
    await runner.area('depth', async () => ({ id: 'depth', title: 'Depth', figures: [] }));
    await runner.area('bulk', () => {
      throw new Error('not chosen, so never measured');
    });

    expect(runner.sections.map((section) => section.id)).toEqual(['size', 'depth']);
    expect(runner.failed).toEqual([{ area: 'service', error: 'The role may not create a database.' }]);
    expect(runner.timings).toEqual([
      { area: 'size', seconds: 2.3, loadAverage: [1.5, 1, 0.5] },
      { area: 'depth', seconds: 0, loadAverage: [1.5, 1, 0.5] },
    ]);
    expect(output.join('')).toBe(
      'size… 2.3 s (load average 1.5)\nservice… failed: The role may not create a database.\ndepth… 0 s (load average 1.5)\n',
    );
  });
});
