import { keysTable } from './keys';
import { KeysUsageError, parseKeysArgs } from './keys-args';

describe('giro-reconciler keys: the command line', () => {
  it.each([
    [['create', '--name', 'ops', '--role', 'operator'], { action: 'create', name: 'ops', role: 'operator' }],
    [['create', '--role=viewer', '--name=ci'], { action: 'create', name: 'ci', role: 'viewer' }],
    [['list'], { action: 'list', json: false }],
    [['list', '--json'], { action: 'list', json: true }],
    [['revoke', 'ops'], { action: 'revoke', name: 'ops' }],
  ])('reads %j', (args, command) => {
    expect(parseKeysArgs(args)).toEqual(command);
  });

  it.each([
    [[], /needs an action: create, list or revoke/],
    [['delete', 'ops'], /unknown keys action "delete"/],
    [['create', '--role', 'viewer'], /^--name is required/],
    [['create', '--name', 'ops'], /^--role is required: one of viewer, operator, approver, admin/],
    [['create', '--name'], /^--name needs a value/],
    [['create', '--name', '--role', 'viewer'], /^--name needs a value/],
    [['create', '--name', 'a', '--name', 'b', '--role', 'viewer'], /^--name is given twice/],
    [['create', '--name', 'a', '--role', 'viewer', '--secret', 'x'], /unknown argument "--secret"/],
    [['list', '--all'], /keys list takes only --json, not "--all"/],
    [['revoke'], /keys revoke takes one NAME/],
    [['revoke', 'a', 'b'], /keys revoke takes one NAME/],
    [['revoke', '--name', 'a'], /keys revoke takes one NAME/],
  ])('refuses %j, naming the flag and the rule', (args, message) => {
    expect(() => parseKeysArgs(args)).toThrow(KeysUsageError);
    expect(() => parseKeysArgs(args)).toThrow(message);
  });

  it('lists keys as an aligned table without secrets', () => {
    expect(
      keysTable([
        {
          keyId: '0123456789abcdef',
          name: 'ops',
          role: 'operator',
          active: true,
          createdAt: '2026-11-21T12:00:00.000Z',
          revokedAt: null,
          createdBy: 'cli',
        },
        {
          keyId: 'fedcba9876543210',
          name: 'old-admin',
          role: 'admin',
          active: false,
          createdAt: '2026-11-20T12:00:00.000Z',
          revokedAt: '2026-11-21T00:00:00.000Z',
          createdBy: null,
        },
      ]),
    ).toEqual([
      'NAME       ROLE      STATE                             ID                CREATED                   CREATED BY',
      'ops        operator  active                            0123456789abcdef  2026-11-21T12:00:00.000Z  cli',
      'old-admin  admin     revoked 2026-11-21T00:00:00.000Z  fedcba9876543210  2026-11-20T12:00:00.000Z  -',
    ]);
    expect(keysTable([])).toEqual(['no API keys (create one: giro-reconciler keys create --name NAME --role ROLE)']);
  });
});
