/**
 * A GitHub markdown table, `align` per column (`l`, the default, or `r`), laid out as Biome formats markdown
 * (columns padded to their widest cell), so that a generated document passes `pnpm lint` as written.
 */
export function markdownTable(headers: string[], rows: string[][], align: ('l' | 'r')[] = []): string {
  const cells = [headers, ...rows].map((row) => row.map((cell) => cell.replaceAll('|', '\\|')));
  const widths = headers.map((_, column) => Math.max(3, ...cells.map((row) => length(row[column] ?? ''))));
  const pad = (cell: string, column: number) => {
    const fill = ' '.repeat(widths[column] - length(cell));
    return align[column] === 'r' ? fill + cell : cell + fill;
  };
  const line = (row: string[]) => `| ${row.map(pad).join(' | ')} |`;
  const rule = widths.map((width, column) => (align[column] === 'r' ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width)));
  return [line(cells[0]), `| ${rule.join(' | ')} |`, ...cells.slice(1).map(line)].join('\n');
}

/** Characters as they are counted for the layout (code points, not UTF-16 units). */
function length(text: string): number {
  return [...text].length;
}

/** A number with `digits` decimals, thousands separated by a thin space; `—` when not a finite number. */
export function formatNumber(value: number | undefined | null, digits = 0): string {
  if (value === undefined || value === null || !Number.isFinite(value)) return '—';
  const [whole, fraction] = Math.abs(value).toFixed(digits).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  return `${value < 0 ? '−' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}
