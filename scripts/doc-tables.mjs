// Writes the documentation tables made from declarations in code: the reconciler's environment variables
// (apps/reconciler/src/config/variables.ts → apps/reconciler/README.md) and the transfer module's options
// (packages/transfer-module/src/options/option-declarations.ts → packages/transfer-module/README.md), each
// between its markers. Specs beside the declarations fail while a README's copy is stale.
//
//   pnpm docs:tables   build the JavaScript, then write both tables (`node scripts/doc-tables.mjs --write`)
//   node scripts/doc-tables.mjs   only say which README is stale (exit status 1), from the last build
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const write = process.argv.includes('--write');

const tables = [
  ['apps/reconciler/README.md', require(join(root, 'apps/reconciler/dist/config/variable-table.js')).withVariableTable],
  [
    'packages/transfer-module/README.md',
    require(join(root, 'packages/transfer-module/dist/options/option-list.js')).withOptionList,
  ],
];

let stale = 0;
for (const [file, regenerate] of tables) {
  const path = join(root, file);
  const before = readFileSync(path, 'utf8');
  const after = regenerate(before);
  if (after === before) continue;
  if (write) {
    writeFileSync(path, after);
    console.log(`doc-tables: ${file} written`);
  } else {
    console.log(`doc-tables: ${file} is stale (pnpm docs:tables)`);
    stale += 1;
  }
}
process.exitCode = stale > 0 ? 1 : 0;
