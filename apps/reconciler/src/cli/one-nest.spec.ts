import { ConfigError } from '../config/reconciler-config';
import { assertOneNestCopy, type Resolve } from './one-nest';

// Folders as npm lays them out: the reconciler's own Nest nested under it when an application's Nest 12 took
// the top level (and with it, the transfer module's peers).
const TOP = '/app/node_modules';
const NESTED = `${TOP}/@giro/reconciler/node_modules`;

function resolverWith(transferModuleNest: string): Resolve {
  return (request, fromDir) => {
    if (request === '@giro/transfer-module') return `${TOP}/@giro/transfer-module/dist/index.js`;
    if (request === '@giro/admin') return `${TOP}/@giro/admin/dist/index.js`;
    if (fromDir?.startsWith(`${TOP}/@giro/transfer-module`)) return `${transferModuleNest}/@nestjs/common/package.json`;
    return `${NESTED}/@nestjs/common/package.json`;
  };
}

describe('assertOneNestCopy', () => {
  it('lets the start go on when every giro package resolves the same @nestjs/common', () => {
    expect(() => assertOneNestCopy(resolverWith(NESTED))).not.toThrow();
  });

  it('stops it with a ConfigError naming both copies and what to do', () => {
    const check = () => assertOneNestCopy(resolverWith(TOP));
    expect(check).toThrow(ConfigError);
    expect(check).toThrow(/two copies of @nestjs\/common.*\/app\/node_modules\/@nestjs\/common.*folder of its own/);
  });

  it('finds one copy in this repository', () => {
    expect(() => assertOneNestCopy()).not.toThrow();
  });
});
