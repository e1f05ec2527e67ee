import { AuditService } from '@giro/transfer-module';
import { Controller, Get, Optional, Query, ServiceUnavailableException } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { DEFAULT_PAGE_SIZE } from '../shared/http/admin-queries.dto';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { ListAuditQuery } from './audit-queries.dto';

/**
 * The audit trail: every request that changed something, or tried to — who, what (before and after), when, the
 * request id and client address, how it ended —, each row chained to the previous one by its hash
 * (`giro-reconciler audit verify` checks the chain). Read-only here: nothing changes or removes a row.
 */
@AdminRoutes('audit')
@Controller('admin/audit')
export class AuditController {
  // Optional: a host whose TransferModule does not provide it (a stub in tests) answers 503 here.
  constructor(@Optional() private readonly audit?: AuditService) {}

  @RequiresRole('viewer')
  @Get()
  @ApiOperation({
    summary:
      'The audit trail, newest first; filter by actor (key id or name), action, originId, outcome, from/to; cursor-paginated',
  })
  @ApiOkResponse({
    description:
      '`{ items, nextCursor }`, each `{ seq, at, actor: { keyId, name, role } | null, action, originId, target, before, after, requestId, clientAddress, outcome, statusCode, error, prevHash, hash }`',
  })
  @ApiBadRequestResponse({ description: 'a bad filter, limit or cursor: `violations` names it' })
  list(@Query() query: ListAuditQuery) {
    return this.service().list(
      {
        ...(query.actor !== undefined && { actor: query.actor }),
        ...(query.action !== undefined && { action: query.action }),
        ...(query.originId !== undefined && { originId: query.originId }),
        ...(query.outcome !== undefined && { outcome: query.outcome }),
        ...(query.from !== undefined && { from: new Date(query.from) }),
        ...(query.to !== undefined && { to: new Date(query.to) }),
      },
      { limit: query.limit ?? DEFAULT_PAGE_SIZE, ...(query.after !== undefined && { after: query.after }) },
    );
  }

  private service(): AuditService {
    if (this.audit === undefined) {
      throw new ServiceUnavailableException(
        'the audit trail is not available: this application provides no AuditService',
      );
    }
    return this.audit;
  }
}
