// Compiles every workspace package's src/ to dist/ with swc (decorator metadata
// included, which Nest's dependency injection needs). Type checking is a
// separate step (`pnpm typecheck`); this stays fast enough to run before
// every test run and every start.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformFile } from '@swc/core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packageDirs = ['packages', 'apps', 'examples'].flatMap((group) => {
  try {
    return readdirSync(join(root, group)).map((name) => join(root, group, name));
  } catch {
    return [];
  }
});
// The benchmarks (`pnpm bench`) build like a package: bench/src → bench/dist.
packageDirs.push(join(root, 'bench'));

const isSource = (name) => name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts');
// Helpers that only specs use live in `testing/` folders and stay out of dist/.
const isTestOnlyDir = (name) => name === 'testing';

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!isTestOnlyDir(entry.name)) yield* sourceFiles(path);
    } else if (isSource(entry.name)) yield path;
  }
}

let count = 0;
for (const pkg of packageDirs) {
  const src = join(pkg, 'src');
  const dist = join(pkg, 'dist');
  let files;
  try {
    files = [...sourceFiles(src)];
  } catch {
    continue;
  }
  rmSync(dist, { recursive: true, force: true });
  await Promise.all(
    files.map(async (file) => {
      const out = join(dist, relative(src, file)).replace(/\.ts$/, '.js');
      const { code, map } = await transformFile(file, {
        configFile: join(root, '.swcrc'),
        sourceMaps: true,
        sourceFileName: relative(dirname(out), file),
      });
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${code}\n//# sourceMappingURL=${out.split('/').pop()}.map\n`);
      writeFileSync(`${out}.map`, map);
    }),
  );
  count += files.length;
}
console.log(`build: ${count} files compiled to dist/`);
