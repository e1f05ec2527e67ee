import { type Role, rolesAllowed } from '@giro/transfer-module';
import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiForbiddenResponse } from '@nestjs/swagger';

/** Metadata key of the role a route needs. */
export const REQUIRED_ROLE = 'giro:requiredRole';

/** The role a route needs when it declares none: the strictest, so a route added without one is closed to all but admins. */
export const DEFAULT_REQUIRED_ROLE: Role = 'admin';

/**
 * The role an admin route needs (`viewer`, `operator`, `approver`, `admin`), checked by the role guard: a key
 * whose role does not allow it is answered 403 naming the role needed. The OpenAPI document says it twice: in the
 * operation's `x-giro-role` and in its 403 description.
 */
export function RequiresRole(role: Role): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(REQUIRED_ROLE, role),
    ApiExtension('x-giro-role', role),
    ApiForbiddenResponse({ description: `needs the ${role} role (allowed: ${rolesAllowed(role).join(', ')})` }),
  );
}
