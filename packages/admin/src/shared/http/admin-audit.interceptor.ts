import type { IncomingMessage } from 'node:http';
import { AuditService } from '@giro/transfer-module';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { defer, lastValueFrom, type Observable } from 'rxjs';
import { adminAuditRequest, describeAdminError, isAudited } from './admin-audit-request';

/**
 * Every mutating admin request runs in an audit scope (AuditService.runAs): the changes the store makes for it
 * append their rows — with before and after — in their own transactions; a request that changed nothing the store
 * records (a repeat, a refresh, a sweep) gets one `ok` row; a failure gets a `refused` row with its HTTP status and
 * message. Requests refused before they reach here (401, 403) are recorded by the role guard.
 */
@Injectable()
export class AdminAuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    // Absent only when the host's TransferModule does not provide it (a stub in tests): then nothing is audited.
    @Optional() private readonly audit?: AuditService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const audit = this.audit;
    if (audit === undefined || !isAudited(context.switchToHttp().getRequest<IncomingMessage>())) return next.handle();
    const { who, action, ...call } = adminAuditRequest(this.reflector, context);
    return defer(() =>
      audit.runAs(who, action, () => lastValueFrom(next.handle(), { defaultValue: undefined }), {
        ...call,
        describeError: describeAdminError,
      }),
    );
  }
}
