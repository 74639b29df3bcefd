/** Small helpers shared by the benchmarks: percentiles and a plain table. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export interface Row {
  measure: string;
  value: string;
  goal: string;
  met: boolean | null;
}

export function printTable(title: string, rows: Row[]): void {
  const widths = [
    Math.max(7, ...rows.map((r) => r.measure.length)),
    Math.max(5, ...rows.map((r) => r.value.length)),
    Math.max(4, ...rows.map((r) => r.goal.length)),
  ];
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 4)).join(' | ')} |`;
  console.log(`\n### ${title}\n`);
  console.log(line(['measure', 'value', 'goal', 'met']));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|-----|`);
  for (const r of rows) console.log(line([r.measure, r.value, r.goal, r.met === null ? '–' : r.met ? 'yes' : 'NO']));
}

export const ms = (n: number): string => `${n.toFixed(1)} ms`;
