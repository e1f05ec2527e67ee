import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { AdminAuthentication, presentedToken } from './admin-authentication';

/** `Authorization: Bearer <adminToken>` on every admin route (AdminAuthentication); 401 otherwise. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly authentication: AdminAuthentication) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<IncomingMessage>();
    if (this.authentication.authenticate(request) !== undefined) return true;
    http.getResponse<ServerResponse>().setHeader('WWW-Authenticate', 'Bearer realm="giro-admin"');
    throw new UnauthorizedException(
      presentedToken(request) === undefined
        ? 'missing bearer token (Authorization: Bearer <ADMIN_TOKEN>)'
        : 'invalid bearer token',
    );
  }
}
