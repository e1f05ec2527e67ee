/** A GitHub markdown table; `align` per column, `l` (default) or `r`. */
export function markdownTable(headers: string[], rows: string[][], align: ('l' | 'r')[] = []): string {
  const escapePipes = (cell: string) => cell.replaceAll('|', '\\|');
  const line = (cells: string[]) => `| ${cells.map(escapePipes).join(' | ')} |`;
  const rule = headers.map((_, index) => (align[index] === 'r' ? '---:' : '---'));
  return [line(headers), `| ${rule.join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** A number with `digits` decimals, thousands separated by a thin space; `—` when not a finite number. */
export function formatNumber(value: number | undefined | null, digits = 0): string {
  if (value === undefined || value === null || !Number.isFinite(value)) return '—';
  const [whole, fraction] = Math.abs(value).toFixed(digits).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  return `${value < 0 ? '−' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}
