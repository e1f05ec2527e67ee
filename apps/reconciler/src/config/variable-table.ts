import { TOPICS, type Topic, type Variable } from './variable-kinds';
import { VARIABLES } from './variables';

// The README's table of variables, made from their declarations (variables.ts): `node scripts/doc-tables.mjs
// --write` puts it between the markers, and variable-table.spec.ts fails when the README's copy is stale.

export const TABLE_START = '<!-- env-table:start (generated from apps/reconciler/src/config/variables.ts) -->';
export const TABLE_END = '<!-- env-table:end -->';

/** The README with its table of variables made anew from the declarations. */
export function withVariableTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`the README has no ${TABLE_START} … ${TABLE_END} block`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${variableTable()}\n${readme.slice(end)}`;
}

/** One table per topic, each variable a row: name, kind and bounds, default, meaning. */
export function variableTable(): string {
  const entries = Object.entries(VARIABLES) as [string, Variable<unknown>][];
  return (Object.keys(TOPICS) as Topic[])
    .map((topic) => {
      const rows = entries
        .filter(([, variable]) => variable.topic === topic)
        .map(([name, variable]) => [`\`${name}\``, variable.kind, defaultText(variable), variable.doc]);
      return `**${TOPICS[topic]}**\n\n${markdownTable(['variable', 'kind', 'default', 'meaning'], rows)}`;
    })
    .join('\n\n');
}

/** What an unset variable means: its default value, or the declaration's words; a secret's value never. */
export function defaultText(variable: Variable<unknown>): string {
  if (variable.default !== undefined && !variable.secret) return `\`${String(variable.default)}\``;
  return variable.unset ?? '—';
}

function markdownTable(header: string[], rows: string[][]): string {
  const cells = rows.map((row) => row.map((cell) => cell.replaceAll('|', '\\|')));
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => row[column].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}
