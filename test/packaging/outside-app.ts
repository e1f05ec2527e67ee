import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURES = join(__dirname, 'fixtures');

export interface OutsideAppSpec {
  /** Its folder under fixtures/: package.json with the app's own dependencies, and tsconfig.json for a Nest app. */
  fixture: string;
  /** giro's packages the app itself depends on, as `npm install <tarball>` would add them. */
  giro: string[];
  /**
   * Whether it builds fixtures/transfer-app/src, the Nest application both Nest apps share; otherwise its fixture's
   * own src/ and tsconfig.json, when it has them.
   */
  transferApp: boolean;
}

/** Writes the app's package.json, tsconfig.json and sources into `dir`, ready for `npm install`. */
export function writeOutsideApp(dir: string, spec: OutsideAppSpec, tarballs: Map<string, string>): void {
  const fixture = join(FIXTURES, spec.fixture);
  const manifest = JSON.parse(readFileSync(join(fixture, 'package.json'), 'utf8'));
  const fileSpec = (name: string) => `file:${tarballs.get(name)}`;
  manifest.dependencies = { ...manifest.dependencies, ...Object.fromEntries(spec.giro.map((n) => [n, fileSpec(n)])) };
  // giro's packages that reach the app only as another one's dependency (@giro/transfer-module under the
  // reconciler) would come from the registry, where this version is not published: `overrides` stands in.
  const indirect = [...tarballs.keys()].filter((name) => !spec.giro.includes(name));
  if (indirect.length > 0) manifest.overrides = Object.fromEntries(indirect.map((n) => [n, fileSpec(n)]));

  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (spec.transferApp) {
    cpSync(join(fixture, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    cpSync(join(FIXTURES, 'transfer-app', 'src'), join(dir, 'src'), { recursive: true });
  } else if (existsSync(join(fixture, 'src'))) {
    // An app with sources of its own (the client app).
    cpSync(join(fixture, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    cpSync(join(fixture, 'src'), join(dir, 'src'), { recursive: true });
  }
}

/** The script an installed package's `bin` maps `command` to, as npm links it into node_modules/.bin. */
export function installedBin(appDir: string, packageName: string, command: string): string {
  const packageDir = join(appDir, 'node_modules', packageName);
  const { bin } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const script = typeof bin === 'string' ? bin : bin?.[command];
  if (typeof script !== 'string') throw new Error(`${packageName} has no \`${command}\` in its package.json bin`);
  return join(packageDir, script);
}
