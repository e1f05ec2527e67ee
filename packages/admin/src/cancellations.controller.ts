import { TransferService } from '@giro/transfer-module';
import { Controller, Get, HttpCode, Logger, Param, Post, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation } from '@nestjs/swagger';
import { ListCancellationsQuery, OriginIdParams } from './admin-queries.dto';
import { RequiresRole } from './admin-role.decorator';
import { AdminRoutes } from './admin-routes.decorator';

/**
 * The cancellations of FAILED movements, which the host application must register on its side
 * (docs/bank-api.md#states-and-polling).
 */
@AdminRoutes('cancellations')
@Controller('admin/cancellations')
export class CancellationsController {
  private readonly logger = new Logger('TransferAdmin');

  constructor(private readonly transfers: TransferService) {}

  @RequiresRole('viewer')
  @Get()
  @ApiOperation({ summary: 'Cancellations, oldest first; `acknowledged=false` for the ones still to register' })
  list(@Query() query: ListCancellationsQuery) {
    return this.transfers.listCancellations(
      query.acknowledged === undefined ? {} : { acknowledged: query.acknowledged },
    );
  }

  @RequiresRole('operator')
  @Post(':originId/ack')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark a cancellation as registered by the host (idempotent)' })
  @ApiNotFoundResponse({ description: 'no cancellation for this originId' })
  async acknowledge(@Param() params: OriginIdParams) {
    const cancellation = await this.transfers.acknowledgeCancellation(params.originId);
    // An object first: a JSON logger (nestjs-pino) makes `originId` a field of the line.
    this.logger.log({ originId: params.originId }, 'cancellation acknowledged');
    return cancellation;
  }
}
