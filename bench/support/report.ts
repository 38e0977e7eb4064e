/**
 * What every benchmark hands back, and the one table they are all printed in. The table is
 * Markdown, so the same text reads well in a terminal and goes into BENCHMARKS.md as it is.
 */

/** `share` is a fraction (0.25) printed as a percentage (25.0 %). */
export type Unit = 'ms' | 'µs' | 'bytes' | 'ratio' | 'share' | 'req/s' | 'count';

export interface Figure {
  /** What is measured, in a few words. */
  name: string;
  value: number;
  unit: Unit;
  /** How the value was reached, such as "median of 25 runs". */
  how?: string;
  /** The goal the issue sets for this figure: at most `target`. */
  target?: number;
  /** The goal the issue sets for this figure: at least `atLeast`. */
  atLeast?: number;
}

export interface Section {
  id: string;
  title: string;
  figures: Figure[];
  /** Everything else worth keeping in results.json: raw samples, settings, counts. */
  details?: Record<string, unknown>;
  /** What a reader must know to read the figures right, printed under the table. */
  notes?: string[];
}

const grouped = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function formatValue(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return '—';
  switch (unit) {
    case 'ms':
      return `${grouped(value, value < 10 ? 2 : value < 100 ? 1 : 0)} ms`;
    case 'µs':
      return `${grouped(value, value < 10 ? 1 : 0)} µs`;
    case 'bytes':
      return value < 1000 ? `${value} B` : `${grouped(value / 1000, 2)} kB`;
    case 'ratio':
      return `${grouped(value, value < 10 ? 2 : 1)}×`;
    case 'share':
      return `${grouped(value * 100, 1)} %`;
    case 'req/s':
      return `${grouped(value)} req/s`;
    case 'count':
      return grouped(value);
  }
}

function targetCell(figure: Figure): string {
  if (figure.atLeast !== undefined) {
    const met = figure.value >= figure.atLeast;
    return `≥ ${formatValue(figure.atLeast, figure.unit)} ${met ? 'met' : 'MISSED'}`;
  }
  if (figure.target === undefined) return '';
  const met = figure.value <= figure.target;
  return `≤ ${formatValue(figure.target, figure.unit)} ${met ? 'met' : 'MISSED'}`;
}

/** The Markdown table of every section's figures. */
export function renderTable(sections: readonly Section[]): string {
  const rows = [['Area', 'Figure', 'Value', 'Target', 'How']];
  for (const section of sections) {
    section.figures.forEach((figure, index) => {
      rows.push([
        index === 0 ? section.title : '',
        figure.name,
        formatValue(figure.value, figure.unit),
        targetCell(figure),
        figure.how ?? '',
      ]);
    });
  }
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  const [head, ...body] = rows;
  return [line(head ?? []), rule, ...body.map(line)].join('\n');
}
