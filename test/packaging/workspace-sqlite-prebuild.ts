import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const BINARY = join('build', 'Release', 'better_sqlite3.node');

/**
 * better-sqlite3's install script runs prebuild-install, which downloads a prebuilt binary from GitHub — out of
 * reach on this machine — and otherwise compiles one: a minute of CPU for each app. The workspace's own build of
 * it, made for this Node, is offered to the apps' installs the way prebuild-install documents for offline
 * installs: a `local-prebuilds` folder (its `npm_config_better_sqlite3_local_prebuilds` variable) holding the
 * archive GitHub would have served. prebuild-install loads the binary before it keeps it, and compiles after all
 * when npm resolved another version than the workspace's, or when it does not load. Returns the environment
 * that offers it.
 */
export function offerWorkspaceSqliteBuild(folder: string): Record<string, string> {
  const workspaceRequire = createRequire(join(ROOT, 'packages', 'transfer-module', 'package.json'));
  const packageDir = dirname(workspaceRequire.resolve('better-sqlite3/package.json'));
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  mkdirSync(folder, { recursive: true });
  // The name prebuild-install asks for: {name}-v{version}-{runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz.
  const archive = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', join(folder, archive), '-C', packageDir, BINARY]);
  return { npm_config_better_sqlite3_local_prebuilds: folder };
}

/** Whether an app's better-sqlite3 was compiled by node-gyp (which leaves its object files) or came prebuilt. */
export function sqliteBuildOf(appDir: string): 'compiled' | 'prebuilt' {
  const build = join(appDir, 'node_modules', 'better-sqlite3', 'build', 'Release');
  return existsSync(join(build, 'obj.target')) ? 'compiled' : 'prebuilt';
}
