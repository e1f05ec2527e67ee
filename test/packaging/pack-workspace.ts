import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { runCommand } from './run-command';

const REPO = join(__dirname, '..', '..');
/** Where the publishable packages live (examples/ and bench/ are never published). */
const PACKAGE_GROUPS = ['packages', 'apps'];
/**
 * What a package's `prepack` (scripts/build.mjs: swc, then `tsc -b`; for @giro/admin the console's esbuild bundle)
 * reads outside the package's own folder.
 */
const BUILD_FILES = [
  'package.json',
  'pnpm-workspace.yaml',
  'tsconfig.base.json',
  '.swcrc',
  'scripts/build.mjs',
  'scripts/build-console.mjs',
  'scripts/openapi-types.mjs',
];

interface WorkspacePackage {
  name: string;
  version: string;
  /** Relative to the repository root. */
  dir: string;
  workspaceDependencies: string[];
}

/**
 * Packs `names` and the workspace packages they depend on with `pnpm pack`, as a release does (each package's
 * `prepack` builds it), into `destination`; returns each package's tarball by name.
 *
 * It packs a copy of the workspace in a temporary folder: `prepack` deletes and rebuilds the package's dist/,
 * which other suites of the same run execute (and other people's builds write).
 */
export async function packWorkspacePackages(
  names: string[],
  destination: string,
  signal: AbortSignal,
): Promise<Map<string, string>> {
  const workspace = readWorkspacePackages();
  const stage = mkdtempSync(join(tmpdir(), 'giro-pack-stage-'));
  mkdirSync(destination, { recursive: true });
  try {
    stageWorkspace(stage, [...workspace.values()]);
    const packages = withWorkspaceDependencies(names, workspace);
    // One pnpm for all of them (each npx start of pnpm costs seconds of CPU), packing in the order of their
    // dependencies and one at a time: a prepack also writes the declarations of the packages it references.
    const filters = packages.map((pkg) => `--filter=${pkg.name}`);
    const packed = await runCommand(
      'npx',
      [
        '-y',
        'pnpm@10',
        '--recursive',
        '--workspace-concurrency=1',
        ...filters,
        'pack',
        '--pack-destination',
        destination,
      ],
      { cwd: stage, signal, lowPriority: true },
    );
    const tarballs = new Map<string, string>();
    for (const pkg of packages) {
      const tarball = join(destination, `${pkg.name.replace('@', '').replace('/', '-')}-${pkg.version}.tgz`);
      if (packed.code !== 0 || !existsSync(tarball)) {
        throw new Error(`pnpm pack of ${pkg.name} failed (exit ${packed.code}):\n${packed.output}`);
      }
      tarballs.set(pkg.name, tarball);
    }
    return tarballs;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

function readWorkspacePackages(): Map<string, WorkspacePackage> {
  const packages = new Map<string, WorkspacePackage>();
  for (const group of PACKAGE_GROUPS) {
    for (const folder of readdirSync(join(REPO, group))) {
      const manifestPath = join(REPO, group, folder, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      const dependencies: Record<string, string> = manifest.dependencies ?? {};
      packages.set(manifest.name, {
        name: manifest.name,
        version: manifest.version,
        dir: join(group, folder),
        workspaceDependencies: Object.keys(dependencies).filter((name) => dependencies[name].startsWith('workspace:')),
      });
    }
  }
  return packages;
}

/** `names` and, before each, the workspace packages it depends on: a user needs all of them. */
function withWorkspaceDependencies(names: string[], workspace: Map<string, WorkspacePackage>): WorkspacePackage[] {
  const ordered: WorkspacePackage[] = [];
  const visit = (name: string) => {
    const pkg = workspace.get(name);
    if (!pkg) throw new Error(`${name} is not a package of the workspace`);
    if (ordered.includes(pkg)) return;
    pkg.workspaceDependencies.forEach(visit);
    ordered.push(pkg);
  };
  names.forEach(visit);
  return ordered;
}

/**
 * Copies the build inputs and every package's source to `stage`, without dist/. Each package's node_modules
 * holds relative links (into the root's node_modules/.pnpm, and to the other packages), copied as they are;
 * the root node_modules is linked, so the copy resolves every dependency as the repository does.
 */
function stageWorkspace(stage: string, packages: WorkspacePackage[]): void {
  for (const file of BUILD_FILES) cpSync(join(REPO, file), join(stage, file));
  symlinkSync(join(REPO, 'node_modules'), join(stage, 'node_modules'));
  for (const pkg of packages) {
    cpSync(join(REPO, pkg.dir), join(stage, pkg.dir), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => basename(source) !== 'dist',
    });
  }
}
