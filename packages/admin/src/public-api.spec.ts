import { join } from 'node:path';
import { exportedNames } from '@test-support/exported-names';

// The package's public surface, pinned: a name added to or removed from the root fails this spec until the list
// below changes with it — so a change to what hosts may import is always deliberate.

const ROOT = [
  'AdminAuthentication',
  'AdminOpenApiOptions',
  'AdminRefusalAudit',
  'AdminSweepRunner',
  'ErrorBody',
  'ErrorReply',
  'GIRO_ACTOR_PROPERTY',
  'REDACTED',
  'RequiresRole',
  'SecretRedactor',
  'SweepUnavailableError',
  'TransferAdminModule',
  'TransferAdminModuleOptions',
  'TransferAdminModuleOptionsError',
  'actorOf',
  'ambiguityViolations',
  'errorReply',
  'readJsonText',
  'setupAdminOpenApi',
  'writeErrorReply',
];

describe('the public API of @giro/admin', () => {
  // A TypeScript program over the package and its peers' declarations: seconds, more on a busy machine.
  it('exports exactly the names a host uses', () => {
    expect(exportedNames(join(__dirname, 'index.ts'))).toEqual(ROOT);
  }, 120_000);

  it('keeps the controllers, the guard, the pipe and the filter internal', () => {
    const root = require('./index') as Record<string, unknown>;
    for (const internal of [
      'TransfersController',
      'CancellationsController',
      'ReconcileController',
      'AdminRoleGuard',
      'KeysController',
      'ADMIN_TOKEN',
      'TransferErrorsFilter',
      'adminValidationPipe',
    ]) {
      expect(root[internal]).toBeUndefined();
    }
  });
});
