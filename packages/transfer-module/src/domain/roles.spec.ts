import { BOOTSTRAP_ADMIN_ACTOR, isRole, ROLES, type Role, roleAllows, rolesAllowed } from './roles';

describe('roles', () => {
  // held → the roles whose routes it may use
  const GRANTED: Record<Role, Role[]> = {
    viewer: ['viewer'],
    operator: ['viewer', 'operator'],
    approver: ['viewer', 'approver'],
    admin: ['viewer', 'operator', 'approver', 'admin'],
  };

  it.each(ROLES)('%s may use exactly the routes of its grants', (held) => {
    expect(ROLES.filter((needed) => roleAllows(held, needed))).toEqual(GRANTED[held]);
  });

  it('keeps making and approving apart: an operator cannot approve, an approver cannot create', () => {
    expect(roleAllows('operator', 'approver')).toBe(false);
    expect(roleAllows('approver', 'operator')).toBe(false);
  });

  it('names who may use a route, for messages', () => {
    expect(rolesAllowed('operator')).toEqual(['operator', 'admin']);
    expect(rolesAllowed('viewer')).toEqual(ROLES);
    expect(rolesAllowed('admin')).toEqual(['admin']);
  });

  it('recognises the four roles only', () => {
    expect(ROLES.every(isRole)).toBe(true);
    for (const value of ['Admin', 'root', '', undefined, 1]) expect(isRole(value)).toBe(false);
  });

  it('makes the bootstrap token an admin that cannot be changed', () => {
    expect(BOOTSTRAP_ADMIN_ACTOR).toEqual({ keyId: 'admin-token', name: 'admin-token', role: 'admin' });
    expect(Object.isFrozen(BOOTSTRAP_ADMIN_ACTOR)).toBe(true);
  });
});
