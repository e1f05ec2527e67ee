import { applyDecorators, UseFilters, UseGuards, UseInterceptors, UsePipes } from '@nestjs/common';
import { ApiBearerAuth, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AdminAuditInterceptor } from './admin-audit.interceptor';
import { AdminRoleGuard } from './admin-role.guard';
import { AdminTraceInterceptor } from './admin-trace.interceptor';
import { adminValidationPipe } from './admin-validation.pipe';
import { TransferErrorsFilter } from './transfer-errors.filter';

/**
 * What every admin controller has: the credential and the role each route declares (`@RequiresRole`), the admin
 * validation pipe, a trace span of each request (AdminTraceInterceptor), the audit trail of every mutating request (AdminAuditInterceptor) and the transfer errors' HTTP
 * answers — on its own routes only, so an application's other routes keep their own guards, pipes and filters.
 */
export function AdminRoutes(tag: string): ClassDecorator {
  return applyDecorators(
    ApiTags(tag),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: 'missing, unknown or revoked bearer token' }),
    UseGuards(AdminRoleGuard),
    UseInterceptors(AdminTraceInterceptor, AdminAuditInterceptor),
    UsePipes(adminValidationPipe()),
    UseFilters(TransferErrorsFilter),
  );
}
