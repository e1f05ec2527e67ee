/**
 * What a caller of the admin API may do, by role. Not a ladder: an approver may approve and reject but not create
 * (maker–checker keeps the two apart), an operator may create but not approve; both may read, and `admin` may do
 * everything, managing keys included.
 */
export const ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];

const GRANTS: Readonly<Record<Role, readonly Role[]>> = {
  viewer: ['viewer'],
  operator: ['viewer', 'operator'],
  approver: ['viewer', 'approver'],
  admin: ROLES,
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether a caller with role `held` may use a route that needs `needed`. */
export function roleAllows(held: Role, needed: Role): boolean {
  return GRANTS[held].includes(needed);
}

/** The roles that may use a route needing `needed`, for messages (`operator or admin`). */
export function rolesAllowed(needed: Role): Role[] {
  return ROLES.filter((role) => roleAllows(role, needed));
}

/**
 * Who made a request: the API key it presented (its public id and name, never its secret) and that key's role.
 * What the admin API puts on each authenticated request, and what an audit trail records as the actor.
 */
export interface Actor {
  /** The key's public id (the part after `giro_`), or `admin-token` for the bootstrap ADMIN_TOKEN. */
  keyId: string;
  name: string;
  role: Role;
}

/** The actor of the bootstrap admin token (ADMIN_TOKEN): not a stored key, so its id and name are reserved. */
export const BOOTSTRAP_ADMIN_ACTOR: Readonly<Actor> = Object.freeze({
  keyId: 'admin-token',
  name: 'admin-token',
  role: 'admin',
});

/**
 * Who the audit trail records for a change made on the reconciler's command line (`giro-reconciler keys
 * create|revoke`): not a stored key either, so its id and name are reserved too.
 */
export const CLI_ACTOR: Readonly<Actor> = Object.freeze({ keyId: 'cli', name: 'cli', role: 'admin' });
