import ts from 'typescript';

/** Every name a module exports, types included, as TypeScript sees it: what the public-API specs pin. */
export function exportedNames(entry: string): string[] {
  const program = ts.createProgram([entry], { strict: true, experimentalDecorators: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) throw new Error(`${entry} is not a module`);
  return checker
    .getExportsOfModule(moduleSymbol)
    .map((symbol) => symbol.name)
    .sort();
}
