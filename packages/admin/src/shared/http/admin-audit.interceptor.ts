import type { IncomingMessage } from 'node:http';
import { AuditService } from '@giro/transfer-module';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { defer, lastValueFrom, type Observable } from 'rxjs';
import {
  adminAuditRequest,
  declaredActionOf,
  describeAdminError,
  isAuditedRoute,
  markRecordedInScope,
} from './admin-audit-request';
import { SecretRedactor } from './secret-redactor';

/**
 * Every mutating admin request, and every read declared `@Audited`, runs in an audit scope (AuditService.runAs):
 * the changes the store makes for it append their rows — with before and after — in their own transactions; a
 * request that changed nothing the store records (a repeat, a refresh, a sweep, an export) gets one `ok` row; a
 * failure gets a `refused` row with its HTTP status and message. Any other refusal (refused before it got here, or
 * a plain read's) is recorded by AdminRefusalAudit, from the error filters.
 */
@Injectable()
export class AdminAuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly redactor: SecretRedactor,
    // Absent only when the host's TransferModule does not provide it (a stub in tests): then nothing is audited.
    @Optional() private readonly audit?: AuditService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const audit = this.audit;
    const request = context.switchToHttp().getRequest<IncomingMessage>();
    if (audit === undefined || !isAuditedRoute(request, declaredActionOf(this.reflector, context))) {
      return next.handle();
    }
    const { who, action, ...call } = adminAuditRequest(this.reflector, context, this.redactor);
    markRecordedInScope(request);
    return defer(() =>
      audit.runAs(who, action, () => lastValueFrom(next.handle(), { defaultValue: undefined }), {
        ...call,
        describeError: (error) => describeAdminError(error, this.redactor),
      }),
    );
  }
}
