import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

// The layer order of ARCHITECTURE.md ("packages/transfer-module/src"), checked: every file under src/, specs and
// spec helpers (`*/testing/`) included, imports only the folders its own may import. An import up the stack fails
// here, naming the file, the import and what its folder may use.

/** The root's files: `index.ts` (the public API) and `transfer.module.ts`, which compose everything. */
const ROOT = '.';

const BELOW_MOVEMENT = ['domain', 'bank', 'persistence', 'options', 'movement'];

/**
 * What each folder may import, the stack `domain` ← `bank`, `persistence` ← `options` ← `movement` ← `transfer`,
 * `sweep`, `webhooks` ← `module` ← the root. `access` stands beside it: the store, and the transfer services'
 * validation error for a bad filter. `testing` is the public `./testing` entry (a host's test helpers).
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  domain: [],
  bank: ['domain'],
  persistence: ['domain'],
  options: ['domain', 'bank', 'persistence'],
  movement: ['domain', 'bank', 'persistence', 'options'],
  transfer: BELOW_MOVEMENT,
  sweep: BELOW_MOVEMENT,
  webhooks: BELOW_MOVEMENT,
  access: ['domain', 'persistence', 'transfer'],
  module: [...BELOW_MOVEMENT, 'transfer', 'sweep', 'webhooks', 'access'],
  testing: ['domain', 'transfer', 'sweep'],
  [ROOT]: [...BELOW_MOVEMENT, 'transfer', 'sweep', 'webhooks', 'access', 'module', 'testing'],
};

/** What a folder's specs and spec helpers may import besides: `sweep`'s specs request transfers to sweep. */
const SPECS_MAY_ALSO_IMPORT: Record<string, readonly string[]> = {
  sweep: ['transfer'],
};

const SRC = __dirname;
const PACKAGE_NAME = '@giro/transfer-module';

interface Violation {
  file: string;
  specifier: string;
  message: string;
}

/** The folder (layer) a path under src/ belongs to: its first folder, or the root for src's own files. */
function layerOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  if (parts.length === 1) return isDirectory(path) ? parts[0] : ROOT;
  return parts[0];
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The layer an import names, or undefined for one outside this package's src/ (a library, test support). */
function importedLayer(file: string, specifier: string): string | undefined {
  if (specifier === PACKAGE_NAME) return ROOT;
  if (specifier.startsWith(`${PACKAGE_NAME}/`)) return specifier.slice(PACKAGE_NAME.length + 1).split('/')[0];
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(dirname(file), specifier);
  if (target === SRC) return ROOT;
  if (relative(SRC, target).startsWith('..')) return undefined;
  return layerOf(target);
}

function isSpecOrHelper(file: string): boolean {
  return file.endsWith('.spec.ts') || relative(SRC, file).split(sep).slice(1, -1).includes('testing');
}

/** Every module specifier a file names: imports, re-exports, `import()`, `require()`, `import('…')` types, jest's. */
function specifiersOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const { expression } = node.moduleReference;
      if (ts.isStringLiteral(expression)) found.push(expression.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const { literal } = node.argument;
      if (ts.isStringLiteral(literal)) found.push(literal.text);
    } else if (ts.isCallExpression(node) && isModuleCall(node) && node.arguments.length > 0) {
      const [first] = node.arguments;
      if (ts.isStringLiteralLike(first)) found.push(first.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isModuleCall(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
  if (ts.isIdentifier(callee)) return callee.text === 'require';
  return (
    ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'jest'
  );
}

/** The imports of `file` (text given, so the rules can be tried on a file that does not exist) that run up the stack. */
function violationsOf(file: string, text: string): Violation[] {
  const from = layerOf(file);
  const allowed = MAY_IMPORT[from];
  if (allowed === undefined) {
    const message = `folder "${from}" is not in the layer table: place it in MAY_IMPORT (and in ARCHITECTURE.md)`;
    return [{ file, specifier: '', message }];
  }
  const alsoAllowed = isSpecOrHelper(file) ? (SPECS_MAY_ALSO_IMPORT[from] ?? []) : [];
  return specifiersOf(file, text).flatMap((specifier) => {
    const to = importedLayer(file, specifier);
    if (to === undefined || to === from || allowed.includes(to) || alsoAllowed.includes(to)) return [];
    const may = allowed.length === 0 ? 'nothing of the package' : allowed.join(', ');
    const message = `${relative(SRC, file)} imports '${specifier}' (${to}), but ${from} may import ${may}`;
    return [{ file, specifier, message }];
  });
}

function* typeScriptFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* typeScriptFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

describe('the layer order of ARCHITECTURE.md', () => {
  it('holds for every file under src/, specs and spec helpers included', () => {
    const files = [...typeScriptFiles(SRC)];
    expect(files.length).toBeGreaterThan(100);
    const violations = files.flatMap((file) => violationsOf(file, readFileSync(file, 'utf8')));
    expect(violations.map((violation) => violation.message)).toEqual([]);
  });

  it('names every folder of src/ in its table', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => MAY_IMPORT[folder] === undefined)).toEqual([]);
  });

  it('refuses an import up the stack, in any form, naming the file and the import', () => {
    const file = join(SRC, 'domain', 'example.ts');
    const text = [
      "import { BankClient } from '../bank';",
      "export { MovementStore } from '../persistence/movement-store';",
      "type Sweep = typeof import('../sweep');",
      "const module = require('../module/transfer-module.providers');",
      "import { TransferModule } from '@giro/transfer-module';",
      "import { isCvu } from './cbu-cvu';",
      "import { Injectable } from '@nestjs/common';",
    ].join('\n');
    expect(violationsOf(file, text).map((violation) => violation.message)).toEqual([
      "domain/example.ts imports '../bank' (bank), but domain may import nothing of the package",
      "domain/example.ts imports '../persistence/movement-store' (persistence), but domain may import nothing of the package",
      "domain/example.ts imports '../sweep' (sweep), but domain may import nothing of the package",
      "domain/example.ts imports '../module/transfer-module.providers' (module), but domain may import nothing of the package",
      "domain/example.ts imports '@giro/transfer-module' (.), but domain may import nothing of the package",
    ]);
  });

  it("lets only sweep's specs import the transfer services, and access the store but not the movement's work", () => {
    const sweepSpec = join(SRC, 'sweep', 'example.spec.ts');
    const sweepCode = join(SRC, 'sweep', 'example.ts');
    const access = join(SRC, 'access', 'example.ts');
    expect(violationsOf(sweepSpec, "import { TransferService } from '../transfer';")).toEqual([]);
    expect(violationsOf(sweepCode, "import { TransferService } from '../transfer';")).toHaveLength(1);
    expect(violationsOf(access, "import { AuditTrail } from '../persistence';")).toEqual([]);
    expect(violationsOf(access, "import { MovementSender } from '../movement';")).toHaveLength(1);
    expect(violationsOf(join(SRC, 'transfer', 'x.spec.ts'), "import { x } from '../testing/y';")).toHaveLength(1);
  });
});
