// Builds the workspace: every package's src/ to dist/ with swc (decorator metadata included, which Nest's
// dependency injection needs), then the publishable packages' declarations with `tsc -b tsconfig.build.json`.
// A package with a `console/` (@giro/admin's operator console) also gets its browser bundle in dist/console
// (scripts/build-console.mjs), in both modes. A package with an `admin-openapi.json` (@giro/client) first gets its
// types generated from it (scripts/openapi-types.mjs). The full type check of specs and tests is a separate step
// (`pnpm typecheck`).
//
//   node scripts/build.mjs             every package (`pnpm build`)
//   node scripts/build.mjs --js-only   every package's JavaScript, no declarations (what `pnpm start` runs)
//   node scripts/build.mjs <folder>    one package and the declarations it needs (a package's `prepack`)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformFile } from '@swc/core';
import { buildConsole } from './build-console.mjs';
import { generateOpenApiTypes, OPENAPI_DOCUMENT } from './openapi-types.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const jsOnly = args.includes('--js-only');
const folder = args.find((arg) => !arg.startsWith('--'));
const only = folder === undefined ? undefined : resolve(folder);
const workspacePackages = ['packages', 'apps', 'examples'].flatMap((group) => {
  try {
    return readdirSync(join(root, group)).map((name) => join(root, group, name));
  } catch {
    return [];
  }
});
// The benchmarks (`pnpm bench`) build like a package: bench/src → bench/dist.
workspacePackages.push(join(root, 'bench'));
const packageDirs = only === undefined ? workspacePackages : [only];

const isSource = (name) => name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts');

/**
 * `testing/` folders hold helpers that only specs use, and stay out of dist/ — except a package's own
 * `src/testing` when its package.json exports `./testing` (a public entry, as `@giro/transfer-module/testing`).
 */
function isBuiltDir(pkg, path) {
  if (basename(path) !== 'testing') return true;
  return path === join(pkg, 'src', 'testing') && exportsTesting(pkg);
}

function exportsTesting(pkg) {
  const manifest = join(pkg, 'package.json');
  return existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).exports?.['./testing'] !== undefined;
}

function* sourceFiles(pkg, dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (isBuiltDir(pkg, path)) yield* sourceFiles(pkg, path);
    } else if (isSource(entry.name)) yield path;
  }
}

let count = 0;
for (const pkg of packageDirs) {
  const src = join(pkg, 'src');
  if (!existsSync(src)) continue;
  // @giro/client: its types from the admin API's OpenAPI document, before its source is compiled and checked.
  if (existsSync(join(pkg, OPENAPI_DOCUMENT))) {
    const written = await generateOpenApiTypes(pkg);
    console.log(`build: ${relative(root, written)} generated from ${relative(root, join(pkg, OPENAPI_DOCUMENT))}`);
  }
  const files = [...sourceFiles(pkg, src)];
  const dist = join(pkg, 'dist');
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
  // @giro/admin's operator console: a browser bundle beside the package's compiled code (scripts/build-console.mjs).
  if (existsSync(join(pkg, 'console', 'app.tsx'))) {
    const written = await buildConsole(pkg);
    console.log(`build: console of ${relative(root, pkg)} bundled to dist/console/ (${written.join(', ')})`);
  }
}
console.log(`build: ${count} files compiled to dist/`);

// Declarations: tsc's build mode follows the projects' references, so one package's build makes the
// declarations of the packages it imports first.
const project = only === undefined ? join(root, 'tsconfig.build.json') : join(only, 'tsconfig.build.json');
if (!jsOnly && existsSync(project)) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-b', project], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  console.log(`build: declarations of ${relative(root, project)}`);
}
