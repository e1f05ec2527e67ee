import type { IncomingMessage } from 'node:http';
import { MAX_CANCEL_BATCH, MAX_SCHEDULED_TOTALS, ScheduledTransferService } from '@giro/transfer-module';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Logger,
  Optional,
  Param,
  Post,
  Query,
  Req,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  PickType,
} from '@nestjs/swagger';
import { recordedActorOf } from '../shared/http/admin-actor';
import { OriginIdParams } from '../shared/http/admin-queries.dto';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';
import { originIdsSchema } from '../shared/http/origin-ids-schema';
import { movementSearchOf, TransferSearchQuery } from '../transfers/transfer-search.dto';

const ORIGIN_IDS = originIdsSchema(MAX_CANCEL_BATCH);

/** `GET /admin/transfers/scheduled-totals`: the listing's filters of scheduled transfers (sending day, account). */
export class ScheduledTotalsQueryDto extends PickType(TransferSearchQuery, ['executeFrom', 'executeTo', 'from']) {}

/**
 * Scheduled transfers (created with `executeOn` or `executeAt`): canceling them before their moment, one or
 * several at once. The waiting ones are listed by `GET /admin/transfers?status=SCHEDULED`, and totalled per day
 * and account here.
 */
@AdminRoutes('scheduled transfers')
@Controller('admin/transfers')
export class ScheduledTransfersController {
  private readonly logger = new Logger('TransferAdmin');

  // Optional: a host whose TransferModule does not provide it (a stub in tests) answers 503 here.
  constructor(@Optional() private readonly scheduled?: ScheduledTransferService) {}

  @RequiresRole('viewer')
  @Get('scheduled-totals')
  @ApiOperation({
    summary:
      'The scheduled transfers a filter takes (sending day or time bounds, source account), counted and summed per sending day (Buenos Aires), source account and currency',
  })
  @ApiOkResponse({
    description: `\`{ items: [{ day, from, currencyId, amount, count }], truncated }\`: earliest day first, then by account; at most ${MAX_SCHEDULED_TOTALS} groups (\`truncated\` when there are more)`,
  })
  @ApiBadRequestResponse({ description: 'a bad day, time or account: `violations` names it' })
  totals(@Query() query: ScheduledTotalsQueryDto) {
    const search = movementSearchOf(query);
    return this.service().totals({
      executeFrom: search.executeFrom,
      executeBefore: search.executeBefore,
      from: search.fromAddress,
    });
  }

  @RequiresRole('operator')
  @Audited('transfer.cancel')
  @Post(':originId/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a scheduled transfer before its moment: it ends CANCELED, never sent' })
  @ApiOkResponse({ description: 'the movement, CANCELED' })
  @ApiConflictResponse({ description: 'not SCHEDULED: released (sent) already, or final (`TRANSFER_NOT_SCHEDULED`)' })
  @ApiNotFoundResponse({ description: 'no movement with this originId' })
  async cancel(@Param() params: OriginIdParams, @Req() request: IncomingMessage) {
    const actor = recordedActorOf(request);
    const movement = await this.service().cancel(params.originId, actor);
    this.logger.log({ originId: movement.originId, keyId: actor.keyId }, 'scheduled transfer canceled');
    return movement;
  }

  @RequiresRole('operator')
  @Audited('transfer.cancel_many')
  @Post('cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel several scheduled transfers; each one on its own' })
  @ApiBody({
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['originIds'],
      properties: { originIds: ORIGIN_IDS },
    },
  })
  @ApiOkResponse({
    description:
      '`{ items }`, one per originId in order: `{ originId, outcome: "canceled", movement }` or `{ originId, outcome: "refused", error: { name, code, message } }`',
  })
  @ApiBadRequestResponse({ description: 'a missing, empty, too long or repeated `originIds`: `violations` names it' })
  async cancelMany(@Body() body: Record<string, unknown>, @Req() request: IncomingMessage) {
    return { items: await this.service().cancelMany(body, recordedActorOf(request)) };
  }

  private service(): ScheduledTransferService {
    if (this.scheduled === undefined) {
      throw new ServiceUnavailableException(
        'scheduled transfers are not available: this application provides no ScheduledTransferService',
      );
    }
    return this.scheduled;
  }
}
