import type { ServerResponse } from 'node:http';
import { type Role, roleAllows, rolesAllowed } from '@giro/transfer-module';
import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type AdminRequest, GIRO_ACTOR_PROPERTY } from './admin-actor';
import { AdminAuthentication, presentedToken } from './admin-authentication';
import { DEFAULT_REQUIRED_ROLE, REQUIRED_ROLE } from './admin-role.decorator';

/**
 * Every admin route: a valid credential (AdminAuthentication: the admin token or an API key), else 401 with
 * `WWW-Authenticate`; then the role the route declares (`@RequiresRole`, admin when it declares none), else 403
 * naming the role needed and the key's. An allowed request carries its actor as `request.giroActor`. The error
 * filter records a refusal in the audit trail (AdminRefusalAudit), with the key when there was one (a 403).
 */
@Injectable()
export class AdminRoleGuard implements CanActivate {
  constructor(
    private readonly authentication: AdminAuthentication,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AdminRequest>();
    const actor = await this.authentication.authenticate(request);
    if (actor === undefined) {
      http.getResponse<ServerResponse>().setHeader('WWW-Authenticate', 'Bearer realm="giro-admin"');
      throw new UnauthorizedException(
        presentedToken(request) === undefined
          ? 'missing bearer token (Authorization: Bearer <API key or ADMIN_TOKEN>)'
          : 'invalid bearer token: unknown or revoked',
      );
    }
    const needed = requiredRole(this.reflector, context);
    if (!roleAllows(actor.role, needed)) {
      // The admin API's error shape ({ statusCode, error, message, … }), with the two roles as fields.
      throw new ForbiddenException({
        statusCode: 403,
        error: 'Forbidden',
        message: `this route needs the ${needed} role (${rolesAllowed(needed).join(' or ')}); key "${actor.name}" has ${actor.role}`,
        requiredRole: needed,
        role: actor.role,
      });
    }
    request[GIRO_ACTOR_PROPERTY] = actor;
    return true;
  }
}

/** The role the handler (or else its controller) declares; admin when neither does. */
export function requiredRole(reflector: Reflector, context: ExecutionContext): Role {
  return (
    reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, [context.getHandler(), context.getClass()]) ??
    DEFAULT_REQUIRED_ROLE
  );
}
