import type { IncomingMessage } from 'node:http';
import { CancellationService } from '@giro/transfer-module';
import { Body, Controller, Get, HttpCode, Logger, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { recordedActorOf } from '../shared/http/admin-actor';
import {
  AcknowledgeCancellationBody,
  DEFAULT_PAGE_SIZE,
  ListCancellationsQuery,
  OriginIdParams,
} from '../shared/http/admin-queries.dto';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';

/**
 * The cancellations of FAILED movements, which the host application must register on its side
 * (docs/bank-api.md#states-and-polling).
 */
@AdminRoutes('cancellations')
@Controller('admin/cancellations')
export class CancellationsController {
  private readonly logger = new Logger('TransferAdmin');

  constructor(private readonly cancellations: CancellationService) {}

  /**
   * Paginated like the transfers list when asked (`limit` or `after`): `{ items, nextCursor }`. Without either, the
   * whole list as a bare array, as the route has always answered, so its callers keep working unchanged.
   */
  @RequiresRole('viewer')
  @Get()
  @ApiOperation({
    summary:
      'Cancellations, oldest first; `acknowledged=false` for the ones still to register. With `limit` or `after`: a page',
  })
  @ApiOkResponse({
    description:
      'with `limit` or `after`: `{ items, nextCursor }` (pass `nextCursor` as `after`); without them: every cancellation, as an array',
  })
  list(@Query() query: ListCancellationsQuery) {
    const filter = query.acknowledged === undefined ? {} : { acknowledged: query.acknowledged };
    if (query.limit === undefined && query.after === undefined) return this.cancellations.listCancellations(filter);
    return this.cancellations.listCancellationPage(filter, {
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      ...(query.after !== undefined && { after: query.after }),
    });
  }

  @RequiresRole('operator')
  @Audited('cancellation.ack')
  @Post(':originId/ack')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Mark a cancellation as registered by the host, with its own registration id (`reference`, optional); records who. Idempotent: the first acknowledgement stays',
  })
  @ApiNotFoundResponse({ description: 'no cancellation for this originId' })
  @ApiBadRequestResponse({ description: 'a bad `reference` or an unknown field: `violations` names it' })
  async acknowledge(
    @Param() params: OriginIdParams,
    @Body() body: AcknowledgeCancellationBody,
    @Req() request: IncomingMessage,
  ) {
    const by = recordedActorOf(request);
    const cancellation = await this.cancellations.acknowledgeCancellation(params.originId, {
      ...(body?.reference !== undefined && { reference: body.reference }),
      by,
    });
    // An object first: a JSON logger (nestjs-pino) makes `originId` a field of the line.
    this.logger.log({ originId: params.originId, keyId: by.keyId }, 'cancellation acknowledged');
    return cancellation;
  }
}
