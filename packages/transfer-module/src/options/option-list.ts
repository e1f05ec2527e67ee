import { type OptionDeclaration, TRANSFER_MODULE_OPTIONS } from './option-declarations';

// The README's list of options, made from their declarations (option-declarations.ts): `pnpm docs:tables` puts it
// between the markers, and option-list.spec.ts fails when the README's copy is stale.

export const LIST_START = '<!-- options-list:start (generated from src/options/option-declarations.ts) -->';
export const LIST_END = '<!-- options-list:end -->';

/** The README with its list of options made anew from the declarations. */
export function withOptionList(readme: string): string {
  const start = readme.indexOf(LIST_START);
  const end = readme.indexOf(LIST_END);
  if (start < 0 || end < start) throw new Error(`the README has no ${LIST_START} … ${LIST_END} block`);
  return `${readme.slice(0, start + LIST_START.length)}\n${optionList()}\n${readme.slice(end)}`;
}

/** Every option a row, each field of an object option a row after it (`sweep.batchSize`). */
export function optionList(): string {
  const rows = declarationsOf(TRANSFER_MODULE_OPTIONS).map(([name, declared]) => [
    `\`${name}\``,
    defaultText(declared),
    declared.min !== undefined && declared.max !== undefined
      ? `${declared.doc} (${declared.min} … ${declared.max})`
      : declared.doc,
  ]);
  return markdownTable(['option', 'default', 'meaning'], rows);
}

/** Each declaration by its dotted name, fields after their option. */
export function declarationsOf(
  declarations: Record<string, OptionDeclaration<unknown>>,
  prefix = '',
): [string, OptionDeclaration<unknown>][] {
  return Object.entries(declarations).flatMap(([key, declared]) => [
    [`${prefix}${key}`, declared] as [string, OptionDeclaration<unknown>],
    ...(declared.fields
      ? declarationsOf(declared.fields as Record<string, OptionDeclaration<unknown>>, `${prefix}${key}.`)
      : []),
  ]);
}

/** What an omitted option takes: the declaration's words when it has some, else its default value. */
export function defaultText(declared: OptionDeclaration<unknown>): string {
  if (declared.unset !== undefined) return declared.unset;
  return declared.default === undefined ? '—' : `\`${formatValue(declared.default)}\``;
}

/** A default as TypeScript would write it: `100`, `false`, `{ maxInFlight: 8 }`. */
export function formatValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(formatValue).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{ ${Object.entries(value)
      .map(([key, field]) => `${key}: ${formatValue(field)}`)
      .join(', ')} }`;
  }
  return typeof value === 'string' ? `'${value}'` : String(value);
}

function markdownTable(header: string[], rows: string[][]): string {
  const cells = rows.map((row) => row.map((cell) => cell.replaceAll('|', '\\|')));
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => row[column].length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}
