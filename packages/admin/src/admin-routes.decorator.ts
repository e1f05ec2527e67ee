import { applyDecorators, UseFilters, UseGuards, UsePipes } from '@nestjs/common';
import { ApiBearerAuth, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AdminTokenGuard } from './admin-token.guard';
import { adminValidationPipe } from './admin-validation.pipe';
import { TransferErrorsFilter } from './transfer-errors.filter';

/**
 * What every admin controller has: the bearer token, the admin validation pipe and the transfer errors'
 * HTTP answers — on its own routes only, so an application's other routes keep their own pipes and filters.
 */
export function AdminRoutes(tag: string): ClassDecorator {
  return applyDecorators(
    ApiTags(tag),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: 'missing or wrong bearer token' }),
    UseGuards(AdminTokenGuard),
    UsePipes(adminValidationPipe()),
    UseFilters(TransferErrorsFilter),
  );
}
