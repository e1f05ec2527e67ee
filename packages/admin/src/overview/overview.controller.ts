import type { IncomingMessage } from 'node:http';
import { BOOTSTRAP_CREDENTIALS, TransferOverviewService } from '@giro/transfer-module';
import { Controller, Get, Req, UnauthorizedException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { actorOf } from '../shared/http/admin-actor';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';

/** Who is asking, and what a back office looks at first: the console's first two requests. */
@AdminRoutes('overview')
@Controller('admin')
export class OverviewController {
  constructor(private readonly overviews: TransferOverviewService) {}

  @RequiresRole('viewer')
  @Get('me')
  @ApiOperation({
    summary:
      'The credential of this request: its public id, name and role, and whether it is the bootstrap admin token (what the console may offer)',
  })
  @ApiOkResponse({
    description:
      '`{ keyId, name, role, bootstrap }`; never the key. `bootstrap` is true for the bootstrap admin token (`keyId` `admin-token`): an admin that mints keys but never approves a transfer (BOOTSTRAP_CANNOT_APPROVE)',
  })
  me(@Req() request: IncomingMessage) {
    const actor = actorOf(request);
    if (actor === undefined) throw new UnauthorizedException('no authenticated caller');
    return {
      keyId: actor.keyId,
      name: actor.name,
      role: actor.role,
      bootstrap: BOOTSTRAP_CREDENTIALS.includes(actor.keyId),
    };
  }

  @RequiresRole('viewer')
  @Get('overview')
  @ApiOperation({
    summary:
      "Transfers per status, today's completed amounts per currency (a Buenos Aires day), the oldest open transfer, what waits for someone (anomalies, cancellations to register, approvals), and what is scheduled to leave today and tomorrow",
  })
  @ApiOkResponse({
    description:
      '`{ countsByStatus, sentToday: [{ currencyId, amount, count }], oldestNonFinal: { originId, status, createdAt } | null, anomaliesOpen, cancellationsToRegister, awaitingApproval, scheduled: { today, tomorrow } }`, each scheduled day `{ day, totals: [{ currencyId, amount, count }] }`',
  })
  overview() {
    return this.overviews.overview();
  }

  @RequiresRole('viewer')
  @Get('transfer-options')
  @ApiOperation({
    summary:
      'What a transfer may be sent with here: the currencies and concepts the module sends, its source accounts (null when any is taken) and whether PSP mode lets client sub-accounts send',
  })
  @ApiOkResponse({
    description: '`{ currencies, concepts, sourceAccounts: [{ address, ownerPersonId }] | null, psp }`',
  })
  transferOptions() {
    return this.overviews.sendingOptions();
  }
}
