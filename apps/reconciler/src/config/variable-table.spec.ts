import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { variableTable, withVariableTable } from './variable-table';
import { VARIABLES } from './variables';

const README = join(__dirname, '../../README.md');

describe("the README's table of variables", () => {
  it('is the one the declarations make (run `pnpm docs:tables` after changing variables.ts)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(withVariableTable(readme)).toBe(readme);
  });

  it('has a row for every declared variable', () => {
    const table = variableTable();
    for (const name of Object.keys(VARIABLES)) expect(table).toContain(`| \`${name}\` `);
  });
});
