import { describe, expect, it } from 'vitest';
import { formatValue, renderTable } from '../../../bench/support/report';
import { median, pairedRatio, percentile } from '../../../bench/support/stats';

describe('benchmark statistics', () => {
  it('takes medians and percentiles between ranks, whatever the order of the samples', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(percentile([10, 20, 30, 40, 50], 90)).toBe(46);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('compares runs in pairs, so drift shared by both sides cancels out', () => {
    // The machine slows down threefold halfway; each pair still says B takes twice as long.
    expect(pairedRatio([20, 20, 60, 60], [10, 10, 30, 30])).toBe(2);
    expect(() => pairedRatio([1], [1, 2])).toThrow();
  });

  it('prints one Markdown table, saying which targets are met', () => {
    const table = renderTable([
      {
        id: 'size',
        title: 'Size',
        figures: [
          { name: 'popup JS gzip', value: 19_880, unit: 'bytes', target: 15_000 },
          { name: 'body per check', value: 0, unit: 'bytes', target: 0 },
        ],
      },
      { id: 'depth', title: 'Depth', figures: [{ name: 'deep ÷ top', value: 1.04, unit: 'ratio', how: 'paired' }] },
    ]);
    const lines = table.split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[2]).toMatch(/^\| Size +\| popup JS gzip +\| 19\.88 kB \| ≤ 15\.00 kB MISSED \|/);
    expect(lines[3]).toContain('≤ 0 B met');
    expect(lines[4]).toMatch(/^\| Depth +\| deep ÷ top +\| 1\.04× +\| +\| paired \|$/);
    expect(formatValue(1234.5, 'req/s')).toBe('1,235 req/s');
    expect(formatValue(3.456, 'ms')).toBe('3.46 ms');
  });
});
