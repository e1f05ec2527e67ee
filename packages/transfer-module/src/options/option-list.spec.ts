import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { TRANSFER_MODULE_OPTIONS } from './option-declarations';
import { declarationsOf, optionList, withOptionList } from './option-list';

const SRC = join(__dirname, '..');

/** Where the TSDoc of each group of options is: the interfaces a host reads in its editor. */
const INTERFACES: [prefix: string, file: string, name: string][] = [
  ['', 'options/transfer-module.options.ts', 'TransferModuleOptions'],
  ['sweep.', 'options/transfer-module.options.ts', 'TransferSweepOptions'],
  ['schedule.', 'options/transfer-module.options.ts', 'TransferScheduleOptions'],
  ['polling.', 'options/transfer-module.options.ts', 'TransferPollingOptions'],
  ['polling.', 'domain/polling-policy.ts', 'PollingPolicyOptions'],
  ['budget.', 'bank/bank-call-budget.ts', 'BankCallBudgetOptions'],
  ['webhooks.', 'options/webhook-options.ts', 'TransferWebhookOptions'],
];

/** The TSDoc of every option, by its dotted name (`sweep.batchSize`). */
function tsDocs(): Map<string, string> {
  const docs = new Map<string, string>();
  for (const [prefix, file, name] of INTERFACES) {
    const source = ts.createSourceFile(file, readFileSync(join(SRC, file), 'utf8'), ts.ScriptTarget.ES2022, true);
    const declaration = source.statements.find(
      (statement): statement is ts.InterfaceDeclaration =>
        ts.isInterfaceDeclaration(statement) && statement.name.text === name,
    );
    if (declaration === undefined) throw new Error(`${name} is not in ${file}`);
    for (const member of declaration.members) {
      if (!ts.isPropertySignature(member) || !ts.isIdentifier(member.name)) continue;
      const text = ts
        .getJSDocCommentsAndTags(member)
        .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
        .join(' ');
      docs.set(`${prefix}${member.name.text}`, text.replace(/\s+/g, ' '));
    }
  }
  return docs;
}

describe('the options of TransferModule', () => {
  const declared = declarationsOf(TRANSFER_MODULE_OPTIONS);
  const docs = tsDocs();

  it('are listed in the README as their declarations make the list (run `pnpm docs:tables` after changing them)', () => {
    const readme = readFileSync(join(SRC, '../README.md'), 'utf8');
    expect(withOptionList(readme)).toBe(readme);
  });

  it('are each declared, and each declaration is an option of the interfaces', () => {
    const names = declared.map(([name]) => name);
    expect([...docs.keys()].sort()).toEqual([...names].sort());
    for (const name of names) expect(optionList()).toContain(`| \`${name}\` `);
  });

  it.each(declared)('%s has a TSDoc that gives the declared default', (name, declaration) => {
    const doc = docs.get(name) ?? '';
    expect(doc).not.toBe('');
    const value = declaration.default;
    if (typeof value === 'number' || typeof value === 'boolean')
      expect(doc).toMatch(new RegExp(`default ${value}\\b`, 'i'));
  });
});
