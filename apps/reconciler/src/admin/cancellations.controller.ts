import { TransferService } from '@giro/transfer-module';
import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { PinoLogger } from 'nestjs-pino';
import { ListCancellationsQuery, OriginIdParams } from './admin-queries.dto';
import { AdminTokenGuard } from './admin-token.guard';

/** The cancellations of FAILED movements, which the host application must register on its side (SPEC §3). */
@ApiTags('cancellations')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ description: 'missing or wrong bearer token' })
@UseGuards(AdminTokenGuard)
@Controller('admin/cancellations')
export class CancellationsController {
  constructor(
    private readonly transfers: TransferService,
    private readonly logger: PinoLogger,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Cancellations, oldest first; `acknowledged=false` for the ones still to register' })
  list(@Query() query: ListCancellationsQuery) {
    return this.transfers.listCancellations(
      query.acknowledged === undefined ? {} : { acknowledged: query.acknowledged },
    );
  }

  @Post(':originId/ack')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark a cancellation as registered by the host (idempotent)' })
  @ApiNotFoundResponse({ description: 'no cancellation for this originId' })
  async acknowledge(@Param() params: OriginIdParams) {
    const cancellation = await this.transfers.acknowledgeCancellation(params.originId);
    this.logger.info({ originId: params.originId }, 'cancellation acknowledged');
    return cancellation;
  }
}
