import { dirname } from 'node:path';
import { ConfigError } from '../config/reconciler-config';

/** Where a package resolves from a folder: `require.resolve` with `paths`, injectable for the spec. */
export type Resolve = (request: string, fromDir?: string) => string;

const nodeResolve: Resolve = (request, fromDir) =>
  require.resolve(request, fromDir === undefined ? undefined : { paths: [fromDir] });

/**
 * Stops the start when giro's packages would run on two copies of Nest. It happens when `@giro/reconciler` is
 * installed beside an application on another Nest major (npm gives the transfer module that application's Nest
 * and nests the reconciler's own): Nest's dependency injection then fails with a message naming a guard.
 */
export function assertOneNestCopy(resolve: Resolve = nodeResolve): void {
  const modules = ['@giro/transfer-module', '@giro/admin'].map((name) => dirname(resolve(name)));
  const ours = resolve('@nestjs/common/package.json');
  const others = modules.map((dir) => resolve('@nestjs/common/package.json', dir)).filter((path) => path !== ours);
  if (others.length === 0) return;
  throw new ConfigError([
    `two copies of @nestjs/common are installed (${dirname(ours)} and ${dirname(others[0] as string)}): install @giro/reconciler in a folder of its own (\`npm install @giro/reconciler\`), not beside an application on another Nest version`,
  ]);
}
