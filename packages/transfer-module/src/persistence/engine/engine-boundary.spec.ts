import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

// What differs between SQLite and Postgres is decided in this folder, once per engine (EngineAdapter): no other
// source file asks which engine it runs on, nor writes SQL only one engine understands. Read from the syntax tree,
// so comments may name either engine.

const ROOT = join(__dirname, '..', '..', '..', '..', '..');
const SOURCE_ROOTS = ['packages', 'apps'];
const ENGINE_FOLDER = 'packages/transfer-module/src/persistence/engine/';

/** Where telling the engines apart is the point. */
const ALLOWED: RegExp[] = [
  // The adapters, and what they are made of.
  new RegExp(`^${ENGINE_FOLDER}`),
  // Migrations write each engine's DDL.
  /^packages\/transfer-module\/src\/persistence\/migrations\//,
  // The search chooses its own implementation, one per engine (search/movement-search-port.ts).
  /^packages\/transfer-module\/src\/persistence\/search\//,
  // Test support and specs run the same suites on both engines.
  /\/testing\//,
  /\.(spec|e2e-spec)\.ts$/,
];

/** Inside the engine folder: the only files that choose an engine; the rest serve one engine or both, without asking. */
const ENGINE_RESOLVERS = ['database-engine.ts', 'engine-adapter.ts', 'data-source-options.ts'];

const ENGINE_NAMES = new Set(['postgres', 'postgresql', 'sqlite', 'better-sqlite3']);
const ENGINE_QUESTIONS = new Set(['engineOf', 'DatabaseEngine']);
/** SQL only one engine understands. */
const ONE_ENGINE_SQL =
  /pg_advisory|SKIP LOCKED|FOR UPDATE|\bstrpos\(|\binstr\(|::(bigint|int|integer|text)\b|\bPRAGMA\b/i;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const repoPath = (file: string) => relative(ROOT, file).split(sep).join('/');

/** Each place in a file's `text` that tells the engines apart, as `line: what`. */
function engineChecks(text: string): string[] {
  const source = ts.createSourceFile('checked.ts', text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node, what: string) =>
    found.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const namesEngine = (node: ts.Node) =>
    ts.isStringLiteralLike(node) && ENGINE_NAMES.has(node.text.toLowerCase().replace(/:.*$/, ''));
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && ENGINE_QUESTIONS.has(node.text)) report(node, node.text);
    if (
      ts.isBinaryExpression(node) &&
      [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(
        node.operatorToken.kind,
      ) &&
      (namesEngine(node.left) || namesEngine(node.right))
    ) {
      report(node, node.getText(source));
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['startsWith', 'includes'].includes(node.expression.name.text) &&
      node.arguments.some(namesEngine)
    ) {
      report(node, node.getText(source));
    }
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      if (node.text === 'better-sqlite3' && !ts.isImportDeclaration(node.parent)) report(node, "'better-sqlite3'");
      const sql = ONE_ENGINE_SQL.exec(node.text);
      if (sql) report(node, `one engine's SQL: ${sql[0]}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the engine boundary', () => {
  const files = SOURCE_ROOTS.flatMap((root) => sourceFiles(join(ROOT, root))).map((file) => ({
    file,
    path: repoPath(file),
  }));

  it('finds the source files it guards', () => {
    const paths = files.map(({ path }) => path);
    expect(paths).toContain('packages/transfer-module/src/persistence/movement-store.ts');
    expect(paths).toContain('apps/reconciler/src/start-banner.ts');
  });

  it('no file outside the engine adapters tells SQLite and Postgres apart', () => {
    const offending = files
      .filter(({ path }) => !ALLOWED.some((allowed) => allowed.test(path)))
      .flatMap(({ file, path }) => engineChecks(readFileSync(file, 'utf8')).map((check) => `${path}:${check}`));
    expect(offending).toEqual([]);
  });

  it('inside the adapters, only the resolvers choose an engine: the rest ask the adapter', () => {
    const offending = files
      .filter(({ path }) => path.startsWith(ENGINE_FOLDER) && !/\.(spec|e2e-spec)\.ts$/.test(path))
      .filter(({ path }) => !ENGINE_RESOLVERS.includes(path.slice(ENGINE_FOLDER.length)))
      .flatMap(({ file, path }) =>
        engineChecks(readFileSync(file, 'utf8'))
          .filter((check) => !check.includes("one engine's SQL"))
          .map((check) => `${path}:${check}`),
      );
    expect(offending).toEqual([]);
  });

  it('catches what it is meant to catch', () => {
    expect(engineChecks("if (engineOf(dataSource) === 'postgres') lock();")).toHaveLength(2);
    expect(engineChecks("const shared = url.startsWith('postgres');")).toHaveLength(1);
    expect(engineChecks("const lock = kind !== 'sqlite' ? 'x' : '';")).toHaveLength(1);
    expect(engineChecks('const sql = `SELECT 1 FROM t FOR UPDATE SKIP LOCKED`;')).toHaveLength(1);
    expect(engineChecks("manager.query('SELECT pg_advisory_xact_lock($1)', [key]);")).toHaveLength(1);
    // Comments may name the engines.
    expect(engineChecks("// on Postgres: FOR UPDATE SKIP LOCKED; engineOf === 'sqlite'\nconst a = 1;")).toEqual([]);
  });
});
